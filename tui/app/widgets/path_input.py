"""A path box that completes file names on Tab, as a shell does.

Tab completes what is typed to the longest name the directory's entries share
(a directory gets its ``/``); when several entries remain, the box posts
:class:`PathInput.Choices` with them (the dialog shows them).  With nothing to
complete, Tab moves the focus on as usual.  Hidden entries are offered only when
a dot is typed; a directory of more than :data:`MAX_ENTRIES` entries is not listed.
"""

from __future__ import annotations

import os

from textual.binding import Binding
from textual.message import Message
from textual.widgets import Input

from ...served import OutsideError, confined

__all__ = ["PathInput", "complete_path", "MAX_ENTRIES"]

#: Entries of a directory looked at, at most.
MAX_ENTRIES = 10_000


def complete_path(text: str) -> tuple[str, list[str]]:
    """``text`` completed as far as its directory's entries agree, and the entries that still
    match (none: nothing matches or the directory cannot be read)."""
    typed_directory, prefix = text[: len(text) - len(os.path.basename(text))], os.path.basename(text)
    try:
        directory = str(confined(typed_directory or "."))  # a served app lists only its own folder
    except OutsideError:
        return text, []
    try:
        with os.scandir(directory) as scan:
            entries = []
            for count, entry in enumerate(scan):
                if count >= MAX_ENTRIES:
                    return text, []
                entries.append(entry)
    except OSError:
        return text, []
    matches = sorted((entry for entry in entries
                      if entry.name.startswith(prefix) and (prefix.startswith(".") or not entry.name.startswith("."))),
                     key=lambda entry: entry.name)
    if not matches:
        return text, []
    common = os.path.commonprefix([entry.name for entry in matches])
    completed = typed_directory + common
    if len(matches) == 1:
        try:
            if matches[0].is_dir():
                completed += "/"
        except OSError:
            pass
    return completed, [entry.name + ("/" if _is_dir(entry) else "") for entry in matches]


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


class PathInput(Input):
    """An Input for a file path, completed on Tab (see the module doc)."""

    BINDINGS = [Binding("tab", "complete", "Complete the path", show=False, priority=True)]

    class Choices(Message):
        """Several entries still match what is typed: ``names`` (the first few)."""

        def __init__(self, path_input: PathInput, names: list[str]) -> None:
            super().__init__()
            self.path_input = path_input
            self.names = names

        @property
        def control(self) -> PathInput:
            return self.path_input

    def action_complete(self) -> None:
        before = self.value
        completed, names = complete_path(before)
        if completed != before:
            self.value = completed
            self.cursor_position = len(completed)
        if len(names) > 1:
            self.post_message(self.Choices(self, names))
        elif completed == before:  # nothing (more) to complete: Tab moves on
            self.screen.focus_next()
