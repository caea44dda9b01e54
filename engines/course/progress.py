"""The student's progress: the lessons done and each lesson's exercise score, a small JSON file.

The file lives where the caller says (the app: ``course.json`` in the settings directory).  It is
written whole to a temporary file beside it and moved over the old one, so a crash never leaves
half a file; a file that cannot be read is said in one line and ignored (the course starts over,
and the unreadable file is left as it was until the next save replaces it).
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Progress", "load_progress", "save_progress", "PROGRESS_FILE"]

#: The file's name in the settings directory.
PROGRESS_FILE = "course.json"


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
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Progress(), None
    except (OSError, UnicodeDecodeError) as error:
        return Progress(), f"the course's progress {path} cannot be read ({error}); starting afresh"
    try:
        data = json.loads(text)
        done = {str(key) for key in data["done"]}
        scores = {str(key): (int(value[0]), int(value[1])) for key, value in data["scores"].items()}
        if any(good < 0 or asked < good for good, asked in scores.values()):
            raise ValueError("a score with more right than asked")
    except (ValueError, KeyError, TypeError, IndexError, AttributeError) as error:
        return Progress(), f"the course's progress {path} is broken ({type(error).__name__}); starting afresh"
    return Progress(done, scores), None


def save_progress(progress: Progress, path: Path) -> None:
    """Write ``progress`` to ``path`` whole (a temporary file beside it, then moved over it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=".course-", suffix=".json", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(progress.to_json())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
