"""``python -m tui.cli``: the same as the ``tui-games`` script."""

import sys

from .main import main

sys.exit(main())
