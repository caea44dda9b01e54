"""A course in game search: lessons on real recorded trees, and exercises graded from the real search.

- :mod:`.view`: a recorded node's value and window from the root player's side (MAX and MIN),
  the one place the course turns the recorder's negamax values round;
- :mod:`.lessons`: the lessons as data (:data:`LESSONS`), each with the game it is shown in --
  picked from the registry by what the lesson needs, never by name -- its position (a seeded
  random playout) and the engine whose recorded tree it shows (:func:`lesson_setup`);
- :mod:`.exercises`: exercises made on fresh small positions (:func:`make_exercise`), whose
  answers are computed from recorded searches and graded (:meth:`Exercise.grade`);
- :mod:`.text`: a recorded tree as lines of text, in the minimax or the negamax view;
- :mod:`.progress`: the student's progress (lessons done, scores), a small JSON file.

Imports :mod:`games` and the rest of :mod:`engines` only; nothing here draws.
"""

from __future__ import annotations

from .exercises import EXERCISE_KINDS, Exercise, Verdict, make_exercise
from .lessons import LESSONS, Lesson, LessonSetup, lesson_setup, pick_game
from .progress import Progress, load_progress

__all__ = ["EXERCISE_KINDS", "Exercise", "Verdict", "make_exercise", "LESSONS", "Lesson", "LessonSetup",
           "lesson_setup", "pick_game", "Progress", "load_progress"]
