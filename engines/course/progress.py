"""The student's progress: the lessons done and each lesson's exercise score, a small JSON file.

The file lives where the caller says (the app: ``course.json`` in the settings directory, written
whole with :func:`tui.settings.write_whole`, an unreadable old file first kept aside as ``.bad``).
A file that cannot be read is said in one line and ignored: the course starts afresh.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from games.files import read_text

__all__ = ["Progress", "load_progress", "PROGRESS_FILE"]

#: The file's name in the settings directory.
PROGRESS_FILE = "course.json"
#: The largest progress file read (a course's is a few kilobytes).
MAX_BYTES = 1024 * 1024


@dataclass
class Progress:
    """Lessons done (by key) and, per lesson, exercises answered right and asked."""

    done: set[str] = field(default_factory=set)
    scores: dict[str, tuple[int, int]] = field(default_factory=dict)

    def answered(self, lesson: str, right: bool) -> None:
        good, asked = self.scores.get(lesson, (0, 0))
        self.scores[lesson] = (good + right, asked + 1)

    def score_text(self, lesson: str) -> str:
        """``3/4`` or ''."""
        good, asked = self.scores.get(lesson, (0, 0))
        return f"{good}/{asked}" if asked else ""

    def to_json(self) -> str:
        return json.dumps({"done": sorted(self.done),
                           "scores": {key: list(value) for key, value in sorted(self.scores.items())}}, indent=1)


def load_progress(path: Path) -> tuple[Progress, str | None]:
    """The progress in ``path`` (none yet: empty), and what was wrong with the file, in one line."""
    if not path.exists() and not path.is_symlink():
        return Progress(), None
    try:
        text = read_text(path, "the course's progress", MAX_BYTES, ValueError)
    except ValueError as error:
        return Progress(), f"the course's progress cannot be read ({error}); starting afresh"
    try:
        data = json.loads(text)
        done = {str(key) for key in data["done"]}
        scores = {str(key): (int(value[0]), int(value[1])) for key, value in data["scores"].items()}
        if any(good < 0 or asked < good for good, asked in scores.values()):
            raise ValueError("a score with more right than asked")
    except (ValueError, KeyError, TypeError, IndexError, AttributeError) as error:
        return Progress(), f"the course's progress {path} is broken ({type(error).__name__}); starting afresh"
    return Progress(done, scores), None
