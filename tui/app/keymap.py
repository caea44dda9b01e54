"""The app's keys, in one table: a key means one thing on every screen.

Each :class:`Key` row is a key (or a ctrl-key and its F-key), what it means,
its word in the footer, and the screens that bind it.  A screen's ``BINDINGS``
are made here (:func:`screen_bindings`): the screen names the rows it uses and
the action each runs, so a key cannot mean two things on two screens.  Keys
that mean the same everywhere -- help, new game, save, open, flip, hint,
pause, back, quit -- keep their meaning wherever they are bound; a screen's own
action takes a key no other screen uses.  The game screen's commands
(:mod:`tui.app.screens.commands`) take their keys from here too.  The table is
``docs/app.md``'s and the README's, and ``tests/test_keymap.py`` reads every
screen's bindings against it.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding, BindingType

__all__ = ["KEYS", "Key", "key_named", "screen_bindings", "table_rows"]


@dataclass(frozen=True)
class Key:
    """One key of the app and its one meaning."""

    #: The key(s), as Textual names them, comma-separated (``ctrl+g,f1``).
    keys: str
    #: The meaning's name, by which a screen binds it.
    name: str
    #: Its word in the footer.
    label: str
    #: What it does, one line (the docs' table).
    does: str
    #: The screens (their class names) that bind it.
    screens: tuple[str, ...]
    #: Whether the footer shows it.
    footer: bool = True

    @property
    def shown(self) -> str:
        """``ctrl+g / F1``, as the help and the docs write keys."""
        return " / ".join(_WRITTEN.get(key, key.upper() if key[:1] == "f" and key[1:].isdigit() else key)
                          for key in self.keys.split(","))


#: Keys whose Textual names are not how a player reads them.
_WRITTEN = {"up": "↑", "down": "↓", "left": "←", "right": "→", "minus": "-", "slash": "/",
            "ctrl+backslash": "ctrl+\\", "escape": "Esc", "enter": "Enter",
            "home": "Home", "end": "End", "space": "Space", "tab": "Tab", "delete": "Delete", "exclamation_mark": "!"}


#: The screens that close with Escape (their back or cancel action).
_CLOSING = ("GameScreen", "SettingsScreen", "PuzzleScreen", "LabScreen", "TreeScreen", "LearnScreen", "FriendScreen",
            "GuardedDialog", "SaveDialog", "OpenDialog", "_ScrollDialog", "HelpDialog", "ReportDialog",
            "CommentDialog", "MoveList", "UnfinishedScreen")


def _tree(keys: str, name: str, label: str, does: str) -> Key:
    """A key of the search-tree explorer alone (a letter: it has no text box)."""
    return Key(keys, name, label, f"search tree: {does}", ("TreeScreen",))


KEYS: tuple[Key, ...] = (
    # -- everywhere ------------------------------------------------------------------------------
    Key("ctrl+q", "quit", "Quit", "quit (an unfinished game is kept for Continue; unsaved moves are asked about)",
        ("TuiGamesApp",)),
    Key("ctrl+p", "palette", "palette", "the command palette: every command of the screen by name",
        ("TuiGamesApp",)),
    Key("escape", "back", "Back", "back: close this screen or dialog, cancel what it asks "
        "(in a game: drop the premove)", _CLOSING),
    Key("ctrl+g,f1", "help", "Help", "help: the keys, this game's notation, the engine panel's legend "
        "(again: closes it)", ("GameScreen", "HelpDialog")),
    Key("ctrl+n,f9", "new_game", "New", "new: start the game the start screen shows; in a game, back to the "
        "start screen with its settings; in puzzles, the next puzzle", ("StartScreen", "GameScreen", "PuzzleScreen")),
    Key("ctrl+s,f8", "save", "Save", "save: the game's record (PGN, PDN, a move list; never over a file), "
        "or the settings", ("GameScreen", "SettingsScreen")),
    Key("ctrl+o", "open", "Open", "open a saved game (the game follows the extension: .pgn, .pdn, .txt)",
        ("GameScreen",), footer=False),
    Key("ctrl+t,f3", "flip", "Flip", "flip the board", ("GameScreen", "TreeScreen"), footer=False),
    Key("ctrl+f,f10", "hint", "Hint", "hint: the engine's move for your position, marked on the board, not "
        "played (puzzles: the piece to move)", ("GameScreen", "PuzzleScreen")),
    Key("ctrl+z,f4", "undo", "Undo", "undo: against an engine, your move and its reply; engine vs engine, one "
        "move (and pauses); in review a step back (it never deletes); after a deletion, the variation back; "
        "puzzles: take back the wrong move and try again", ("GameScreen", "PuzzleScreen")),
    Key("ctrl+y,ctrl+shift+z", "redo", "Redo", "redo: what undo took back (the moves, or the deletion again); "
        "in review a step on", ("GameScreen",), footer=False),
    Key("ctrl+b,f5", "pause", "Pause", "pause / resume the engines (a running search is stopped); "
        "lab: stop the run / resume it", ("GameScreen", "LabScreen")),
    Key("ctrl+w", "best_line", "Line", "the best line: a short search of the position shown, its first moves "
        "marked on the board (puzzles: the solution)", ("GameScreen", "PuzzleScreen"), footer=False),
    Key("ctrl+k,f12", "report", "Report", "the game report: every move judged, a chart of the score; again: "
        "stops a report running, or closes it", ("GameScreen", "ReportDialog"), footer=False),
    Key("q", "close", "Close", "close a dialog that only shows something (help, legal moves, the report)",
        ("_ScrollDialog", "HelpDialog", "ReportDialog")),
    Key("enter", "choose", "Choose", "play the move typed, choose what has the focus, start the game "
        "(start screen), close a dialog that only shows something, play on from the move shown (move list), "
        "open the game chosen (Continue's list)",
        ("_ScrollDialog", "MoveList", "BoardView", "UnfinishedScreen"), footer=False),
    Key("up", "review", "Review", "into review (game); the previous alternative to the move shown (move list); "
        "the previous button (dialogs); the cursor (board)", ("GameScreen", "GuardedDialog", "MoveList", "BoardView"),
        footer=False),
    Key("down", "down", "Down", "the next alternative to the move shown (move list); the next button (dialogs); "
        "the cursor (board)", ("GuardedDialog", "MoveList", "BoardView"), footer=False),
    Key("left", "left", "Prev", "a step back: a move (review), a search step (tree), the previous button "
        "(dialogs), the cursor (board)", ("GuardedDialog", "TreeScreen", "MoveList", "BoardView")),
    Key("right", "right", "Next", "a step on: a move (review), a search step (tree), the next button "
        "(dialogs), the cursor (board)", ("GuardedDialog", "TreeScreen", "MoveList", "BoardView")),
    Key("home,end", "ends", "Ends", "the start, the end of the line shown (move list; the move box: its ends)",
        ("MoveList",), footer=False),
    Key("space", "choose_square", "Choose", "pick up or put down at the board's cursor (Enter too)",
        ("BoardView",), footer=False),
    Key("tab", "complete", "Complete", "the next field; in a file's path, complete it", ("PathInput",),
        footer=False),
    Key("u", "promote", "Promote", "move list: promote the variation of the move shown", ("MoveList",),
        footer=False),
    Key("delete", "delete", "Delete", "move list: delete the variation of the move shown (the move box: delete "
        "a character); Continue's list: delete the unfinished game chosen (asks first)",
        ("MoveList", "UnfinishedScreen"), footer=False),
    Key("n", "note", "Note", "move list: a note (comment) on the move shown", ("MoveList",)),
    Key("exclamation_mark", "mark", "Mark", "move list: a mark (`!`, `?`, `!!`, `??`, `!?`, `?!`) on the move "
        "shown", ("MoveList",)),
    # -- the start screen ------------------------------------------------------------------------
    Key("f2", "settings", "Settings", "the settings: board, pieces, coordinates, a new game's clock and players",
        ("StartScreen",)),
    # -- the game screen -------------------------------------------------------------------------
    Key("ctrl+l", "list_moves", "Moves", "the legal moves, in a scrollable dialog", ("GameScreen",), footer=False),
    Key("f6", "step", "Step", "step: one engine move, then pause", ("GameScreen",)),
    Key("ctrl+r,f7", "delay", "Delay", "the delay between two engines' moves: 0, 0.5, 1, 2, 5 s",
        ("GameScreen",), footer=False),
    Key("ctrl+e,f11", "analyse", "Analyse", "analysis on / off: an engine searches the position shown without "
        "end, in its own panel", ("GameScreen",), footer=False),
    Key("ctrl+v", "advanced", "Advanced", "the engine panel: the search's numbers (nodes, prunes, cutoffs, tt "
        "hits, nodes/s) or a player's words (on at the start when two engines play)", ("GameScreen",),
        footer=False),
    Key("ctrl+a", "tree", "Tree", "the search tree behind the last engine move (or of the position shown)",
        ("GameScreen",), footer=False),
    Key("ctrl+backslash", "threat", "Threat", "the threat: what the opponent would play if it were its move",
        ("GameScreen",), footer=False),
    Key("ctrl+d", "offer_draw", "Draw", "offer a draw (an engine answers at once; a human opponent is asked)",
        ("GameScreen",), footer=False),
    Key("ctrl+x", "resign", "Resign", "resign (asks first)", ("GameScreen",), footer=False),
    # -- the game report -------------------------------------------------------------------------
    Key("b", "mistakes", "Puzzles of the mistakes", "report: puzzles of the game's mistakes (the positions before "
        "the blunders)", ("ReportDialog",)),
    # -- the lab ---------------------------------------------------------------------------------
    Key("ctrl+j", "chart", "Chart", "lab: the next chart (score, time per move, nodes per move)", ("LabScreen",)),
    # -- the course ------------------------------------------------------------------------------
    Key("g", "exercise", "Exercise", "course: a new exercise of the lesson", ("LearnScreen",)),
    Key("d", "done", "Done", "course: the exercise answered", ("LearnScreen",)),
    Key("r", "lesson_text", "Lesson", "course: read the lesson's text again", ("LearnScreen",)),
    Key("l", "lessons", "Lessons", "course: the list of lessons", ("LearnScreen",)),
    Key("v", "switch_view", "Minimax/negamax", "the tree drawn as minimax (MAX and MIN) or negamax",
        ("LearnScreen", "TreeScreen")),
    # -- the search tree -------------------------------------------------------------------------
    _tree("p", "follow_pv", "PV", "follow the principal variation"),
    _tree("c", "next_cut", "Next cut", "the next cutoff"),
    _tree("t", "next_tt", "Next TT", "the next table answer"),
    _tree("a", "next_again", "Next again", "the next re-search"),
    _tree("minus", "collapse", "Collapse", "fold the node"),
    _tree("s", "step_mode", "Steps", "replay the search step by step"),
    _tree("1", "hide_quiescence", "Hide q", "hide the quiescence nodes"),
    _tree("2", "fold_researches", "Fold again", "fold the re-searches"),
    _tree("3", "principal_only", "PV only", "the principal variation alone"),
    _tree("slash", "find_path", "Find path", "find a node by its moves"),
    _tree("e", "edit_engine", "Engine", "record another engine"),
    _tree("m", "presets", "Engines", "the engines to record, from a list"),
    _tree("x", "compare", "Side by side", "two engines' trees side by side"),
)


def key_named(name: str) -> Key:
    """The row called ``name`` (``KeyError`` if none)."""
    for key in KEYS:
        if key.name == name:
            return key
    raise KeyError(name)


def table_rows(rows: tuple[Key, ...] = KEYS) -> list[str]:
    """The keys as the docs' table rows: ``| ctrl+g / F1 | help: ... |``."""
    return [f"| {row.shown} | {row.does} |" for row in rows]


def screen_bindings(screen: str, priority: tuple[str, ...] = (), **actions: str) -> list[BindingType]:
    """The bindings of ``screen`` (a class name): for each row that names it, its keys running the
    action given by the row's name (default: the row's name), its label in the footer.  The rows named
    in ``priority`` come before a focused text box's own use of the key (ctrl+w deletes a word)."""
    result: list[BindingType] = []
    for key in KEYS:
        if screen in key.screens:
            result.append(Binding(key.keys, actions.get(key.name, key.name), key.label, show=key.footer,
                                  priority=key.name in priority))
    return result
