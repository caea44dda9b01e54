"""Learning: self-play datasets, trained regressors, and the engines that use them.

- :mod:`~engines.learning.dataset` -- ``tui-games dataset``: seeded self-play
  positions with features, H0 and a depth-L label (CSV + metadata);
- :mod:`~engines.learning.train` -- ``tui-games train``: random forests and MLPs,
  grid-searched, with train/test metrics held out by game;
- :mod:`~engines.learning.models` -- model files: saving, and loading only after
  every check passes; the bundled models live in each game's package (``games/NAME/models/``);
- :mod:`~engines.learning.predictor` -- a numpy predictor compiled from a fitted
  forest or MLP (one batched call per node);
- :mod:`~engines.learning.learned` -- ``hr``'s selector, ``pred`` and ``mi-pred``.

May import :mod:`games`, :mod:`engines.base`, :mod:`engines.spec` and
:mod:`engines.search`; the dataset writer also builds engines through
:mod:`engines.registry` and plays games with :mod:`engines.tournament`.
numpy and scikit-learn are imported only here (scikit-learn only to train).
"""
