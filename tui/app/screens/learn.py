"""The course in game search: lessons beside a live board and their recorded tree, and exercises.

:class:`LearnScreen` lists the lessons of :data:`engines.course.LESSONS` (✓ done, the
exercise score beside each).  Choosing one sets it up in a worker thread
(:func:`engines.course.lesson_setup`: its game, a seeded position, its recorded tree) and shows
its text, the game and why it was picked, the position on the board and the tree as text, in the
minimax view (MAX/MIN, the root player's values) or the negamax one (``v`` switches).  ``g``
makes one of the lesson's exercises on a fresh position (a new seed each time, in a worker):
the question and the tree as the student sees it, an answer box; Enter grades it, and a wrong
answer shows the part of the tree that decides it.  ``d`` marks the lesson done; a right
answer does too.  Progress is kept in ``course.json`` in the settings directory.
"""

from __future__ import annotations

import random

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

from engines.course import LESSONS, Exercise, LessonSetup, lesson_setup, load_progress, make_exercise
from engines.course.exercises import EXERCISE_KINDS
from engines.course.progress import PROGRESS_FILE
from engines.course.text import VIEWS, tree_lines
from games import GAME_NAMES

from ...settings import Settings, config_dir, keep_aside, write_whole
from ..keymap import screen_bindings
from ..messages import OpenStart
from ..widgets.board import BoardView

__all__ = ["LearnScreen"]


class LearnScreen(Screen[None]):
    """The course (see the module doc)."""

    CSS_PATH = "learn.tcss"
    BINDINGS = screen_bindings("LearnScreen", back="close")

    def __init__(self) -> None:
        super().__init__()
        self.path = config_dir() / PROGRESS_FILE
        self.progress, self.problem = load_progress(self.path)
        self.setup: LessonSetup | None = None
        self.lesson_index = 0
        self.how = "minimax"
        self.exercise: Exercise | None = None
        #: The next exercise's seed: fresh each run, then counting up.
        self.seed = random.randrange(1 << 30)

    def compose(self) -> ComposeResult:
        with Horizontal(id="learn-body"):
            yield OptionList(*self._options(), id="learn-lessons")
            with VerticalScroll(id="learn-main"):
                yield Static("", id="learn-title")
                yield Static("", id="learn-text")
                yield Static("", id="learn-question")
                yield Input(placeholder="your answer, then Enter", id="learn-answer")
                yield Static("", id="learn-verdict")
            with Vertical(id="learn-side"):
                settings = getattr(self.app, "settings", None) or Settings()
                yield Static("", id="learn-status")
                yield BoardView(GAME_NAMES[0], ascii=bool(getattr(self.app, "ascii", False)), id="learn-board",
                                **settings.board_options())
                with VerticalScroll(id="learn-tree-box"):
                    yield Static("", id="learn-tree")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#learn-answer").display = False
        if self.problem is not None:
            self.notify(self.problem, severity="warning", timeout=10)
        lessons = self.query_one("#learn-lessons", OptionList)
        first = next((i for i, lesson in enumerate(LESSONS) if lesson.key not in self.progress.done), 0)
        lessons.highlighted = first
        lessons.focus()
        self.open_lesson(first)

    # -- the lessons -----------------------------------------------------------------

    def _options(self) -> list[Option]:
        options = []
        for lesson in LESSONS:
            mark = "✓" if lesson.key in self.progress.done else " "
            score = self.progress.score_text(lesson.key)
            options.append(Option(f"{mark} {lesson.title}" + (f"  {score}" if score else ""), id=lesson.key))
        return options

    def _relist(self) -> None:
        lessons = self.query_one("#learn-lessons", OptionList)
        highlighted = lessons.highlighted
        lessons.clear_options()
        lessons.add_options(self._options())
        lessons.highlighted = highlighted

    @on(OptionList.OptionSelected, "#learn-lessons")
    def chosen(self, event: OptionList.OptionSelected) -> None:
        self.open_lesson(event.option_index)

    def open_lesson(self, index: int) -> None:
        """Show lesson ``index``'s text at once and its position and tree when recorded."""
        lesson = LESSONS[index]
        self.lesson_index = index
        self.how = lesson.view
        self.setup = None
        self._clear_exercise()
        self.query_one("#learn-title", Static).update(Text(lesson.title, style="bold"))
        self.query_one("#learn-text", Static).update(lesson.text)
        self.query_one("#learn-status", Static).update(f"recording {lesson.spec}…")
        self.query_one("#learn-tree", Static).update("")
        self._set_up(index)

    @work(thread=True, exclusive=True, group="learn")
    def _set_up(self, index: int) -> None:
        setup = lesson_setup(LESSONS[index])
        self.app.call_from_thread(self._shown, index, setup)

    def _shown(self, index: int, setup: LessonSetup) -> None:
        if index != self.lesson_index:
            return
        self.setup = setup
        lesson = setup.lesson
        self.query_one("#learn-title", Static).update(Text.assemble(
            (lesson.title, "bold"), f"\nin {setup.game_title}: {setup.why}"))
        self._show_board(setup)
        self._show_tree()

    def _show_board(self, setup: LessonSetup) -> None:
        self.query_one("#learn-board", BoardView).show(setup.game)

    def _show_tree(self) -> None:
        setup = self.setup
        if setup is None or setup.tree.root is None:
            return
        lesson = setup.lesson
        tree = setup.tree
        contrast = ""
        if lesson.contrast is not None:
            more = "" if setup.contrast_complete else " or more"
            contrast = f"; {lesson.contrast}: {setup.contrast_nodes:,}{more} nodes"
        self.query_one("#learn-status", Static).update(
            f"{lesson.spec}: {tree.size():,} nodes in {len(tree.roots)} root search"
            f"{'es' if len(tree.roots) != 1 else ''}, best {setup.result.stats.best or '-'}{contrast} "
            f"· {self.how} view (v)")
        lines: list[str] = []
        for number, root in enumerate(tree.roots, 1):
            if len(tree.roots) > 1:
                lines.append(f"root search {number} (depth {root.depth})")
            lines += tree_lines(setup.game, root, self.how)
        self.query_one("#learn-tree", Static).update(_marked("\n".join(lines)))
        self.query_one("#learn-tree-box", VerticalScroll).scroll_home(animate=False)

    def action_switch_view(self) -> None:
        self.how = VIEWS[(VIEWS.index(self.how) + 1) % len(VIEWS)]
        self._show_tree()

    def action_lessons(self) -> None:
        self.query_one("#learn-lessons", OptionList).focus()

    def action_done(self) -> None:
        self.progress.done.add(LESSONS[self.lesson_index].key)
        self._save()

    def _save(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if self.problem is not None and (self.path.exists() or self.path.is_symlink()):
                keep_aside(self.path)  # the file we could not read is kept, never written over
            self.problem = None
            write_whole(self.path, self.progress.to_json())
        except OSError as error:
            self.notify(f"the course's progress cannot be saved to {self.path}: {error.strerror or error}",
                        severity="error")
        self._relist()

    def action_close(self) -> None:
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()
        else:
            self.post_message(OpenStart())

    # -- exercises -------------------------------------------------------------------

    def _clear_exercise(self) -> None:
        self.exercise = None
        self.query_one("#learn-question", Static).update("")
        self.query_one("#learn-verdict", Static).update("")
        self.query_one("#learn-answer").display = False
        self.query_one("#learn-text").display = True

    def action_lesson_text(self) -> None:
        """Back from an exercise to the lesson's text, position and tree."""
        self._clear_exercise()
        if self.setup is not None:
            self._show_board(self.setup)
            self._show_tree()

    def action_exercise(self) -> None:
        lesson = LESSONS[self.lesson_index]
        kinds = lesson.exercises or tuple(EXERCISE_KINDS)
        kind = kinds[self.seed % len(kinds)]
        self.seed += 1
        self._clear_exercise()
        self.query_one("#learn-question", Static).update(f"making an exercise: {EXERCISE_KINDS[kind]}…")
        self._make(self.lesson_index, kind, self.seed)

    @work(thread=True, exclusive=True, group="exercise")
    def _make(self, index: int, kind: str, seed: int) -> None:
        exercise = make_exercise(kind, seed)
        self.app.call_from_thread(self._asked, index, exercise)

    def _asked(self, index: int, exercise: Exercise) -> None:
        if index != self.lesson_index:
            return
        self.exercise = exercise
        self.query_one("#learn-text").display = False
        self.query_one("#learn-question", Static).update(Text.assemble(
            ("Exercise: ", "bold"), exercise.question, "\n", (f"answer: {exercise.answer_hint}; the tree is "
                                                              "beside, r goes back to the lesson", "dim")))
        self.query_one("#learn-status", Static).update(f"the exercise's position, {exercise.game.ply} plies "
                                                       f"into a random game")
        self.query_one("#learn-tree", Static).update(_marked("\n".join(exercise.shown)))
        box = self.query_one("#learn-tree-box", VerticalScroll)
        box.scroll_home(animate=False)
        # Once the tree is laid out: its line the question is about, in view.
        self.call_after_refresh(box.scroll_to, y=max(0, exercise.focus - 1), animate=False)
        self.query_one("#learn-board", BoardView).show(exercise.game)
        answer = self.query_one("#learn-answer", Input)
        answer.value = ""
        answer.display = True
        answer.focus()
        self.query_one("#learn-main", VerticalScroll).scroll_to_widget(answer)

    @on(Input.Submitted, "#learn-answer")
    def answered(self, event: Input.Submitted) -> None:
        exercise = self.exercise
        if exercise is None or not event.value.strip():
            return
        verdict = exercise.grade(event.value)
        key = LESSONS[self.lesson_index].key
        self.progress.answered(key, verdict.right)
        if verdict.right:
            self.progress.done.add(key)
        self._save()
        text = Text(verdict.said, style="bold green" if verdict.right else "bold red")
        if verdict.lines:
            text.append("\nbeside: the part of the tree that decides it", style="")
            tree = Text("what decides it:\n", style="bold")
            tree.append_text(_marked("\n".join(verdict.lines)))
            self.query_one("#learn-tree", Static).update(tree)
        text.append(f"\nscore {self.progress.score_text(key)} · g: another exercise · r: the lesson", style="dim")
        self.query_one("#learn-verdict", Static).update(text)
        event.input.display = False
        self.exercise = None
        self.query_one("#learn-main", VerticalScroll).scroll_to_widget(self.query_one("#learn-verdict"))
        self.query_one("#learn-lessons", OptionList).focus()


def _marked(text: str) -> Text:
    """Tree lines with MAX, MIN and cutoffs coloured."""
    rich = Text(text)
    rich.highlight_regex(r"✂ \S+", "red")
    rich.highlight_regex(r"\bMAX\b", "cyan")
    rich.highlight_regex(r"\bMIN\b", "magenta")
    rich.highlight_regex(r"… \d+ not searched", "dim italic")
    return rich
