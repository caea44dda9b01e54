"""Puzzle lines made by machine (engines.puzzle_lines) and their themes (engines.puzzle_themes):
the shipped sets still stand, a small run makes sound lines, near-duplicates are dropped."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engines.puzzle_lines import (
    Dedup,
    Lines,
    OurSearch,
    candidates,
    follow,
    rating,
    replay_line,
    thresholds,
    verify,
)
from engines.puzzle_themes import length_theme, tag
from engines.puzzles import GAP_CHANCE, WIN_CHANCE, Puzzle, depth_of, read_puzzles, shipped_puzzles
from games import GAME_NAMES, game_kind, new_game

from cli_run import run

#: The game whose puzzles are the quickest to find (the smallest puzzle depth): the small runs.
QUICKEST = min(GAME_NAMES, key=lambda name: (game_kind(name).scores.puzzle_depth, name))


@pytest.mark.parametrize("name", GAME_NAMES)
def test_each_shipped_set_has_no_repeated_position_and_a_sample_still_stands(name: str) -> None:
    """A few puzzles of each set, checked again by the search that found them (every move of the
    player's the only clear win), and no two puzzles of a set facing one position."""
    puzzles = shipped_puzzles(name)
    if not puzzles:  # shipped puzzles are optional (docs/protocol.md)
        pytest.skip(f"{name} ships no puzzles")
    faced = [puzzle.game(name).to_text() for puzzle in puzzles]
    assert len(set(faced)) == len(faced)
    assert len({puzzle.position for puzzle in puzzles}) == len(puzzles)
    search = OurSearch(name)
    for puzzle in random.Random(1).sample(puzzles, 2):
        game, moves = replay_line(name, puzzle.position, puzzle.setup, puzzle.solution)
        assert verify(game, moves, search, depth_of(name)), f"{name} {puzzle.id} no longer stands"
        assert puzzle.setup is None or puzzle.themes[0] == length_theme(len(puzzle.solution))


def test_only_a_clear_and_single_win_is_decisive_but_any_mate_ends_a_line() -> None:
    assert Lines(("a", "b"), (0.9, 0.55), (None, None)).decisive()
    assert not Lines(("a", "b"), (0.9, 0.7), (None, None)).decisive()  # the second best wins too
    assert not Lines(("a", "b"), (0.75, 0.1), (None, None)).decisive()  # not winning enough
    assert not Lines(("a", "b"), (1.0, 1.0), (1, 2)).decisive()
    assert Lines(("a", "b"), (1.0, 1.0), (1, 2)).decisive(last=True)  # the last move: any mate
    assert not Lines((), (), ()).decisive()


def test_a_checkers_puzzle_wins_a_man_where_the_other_games_keep_80_percent() -> None:
    """Checkers' own criterion (its kind's ``puzzle_win``/``puzzle_gap``): a man won, the second
    best a man less, is decisive there (80% would be two men up); the other games keep 80% and 30%."""
    scores = game_kind("checkers").scores
    win, gap = thresholds("checkers")
    man, level, half = (scores.chance(score) for score in (100.0, 0.0, 50.0))
    assert Lines(("a", "b"), (man, level), (None, None), win, gap).decisive()
    assert not Lines(("a", "b"), (man, level), (None, None)).decisive()  # by the 80% of the other games
    assert not Lines(("a", "b"), (half, level), (None, None), win, gap).decisive()  # half a man: not won
    assert not Lines(("a", "b"), (man, half), (None, None), win, gap).decisive()  # the second best wins half
    assert OurSearch("checkers").lines(new_game("checkers"), 1).win == win
    for name in set(GAME_NAMES) - {"checkers"}:
        assert thresholds(name) == (WIN_CHANCE, GAP_CHANCE)


def test_near_duplicates_are_dropped() -> None:
    """The same first move from the same source game, or the same position: seen; a move of
    another game from another position: not."""
    stream = candidates(QUICKEST, 5)
    first = next(stream)
    second = next(stream)
    assert first.source == second.source  # consecutive positions of one game
    search = OurSearch(QUICKEST)
    line_1, line_2 = [search.lines(c.game, 1).moves[:1] for c in (first, second)]
    dedup = Dedup()
    dedup.add(first.game, line_1, first.source)
    assert dedup.seen(first.game, line_2 if line_2 == line_1 else line_1, first.source)
    other = next(c for c in stream if c.source != first.source)
    assert not dedup.seen(other.game, search.lines(other.game, 1).moves[:1], other.source)


def test_make_writes_sound_lines_set_up_by_the_source_games_last_move(tmp_path: Path, capsys) -> None:
    """``--make``: each line is the one the search follows from the position after the setting-up
    move, checked two plies deeper, written with its themes and how it was made."""
    out = tmp_path / "lines.txt"
    code, stdout, _ = run(capsys, "puzzles", QUICKEST, "--make", "1", "--seed", "0", "--out", str(out))
    assert code == 0 and "wrote" in stdout
    text = out.read_text()
    [puzzle] = read_puzzles(text, QUICKEST)
    assert puzzle.setup is not None and puzzle.themes and "--make 1 --seed 0" in text
    assert "candidate positions" in text and "near-duplicates dropped" in text
    depth = depth_of(QUICKEST)
    game, moves = replay_line(QUICKEST, puzzle.position, puzzle.setup, puzzle.solution)
    assert follow(game, OurSearch(QUICKEST), depth, OurSearch(QUICKEST), depth + 2) == moves
    assert verify(game, moves, OurSearch(QUICKEST), depth + 2)
    assert puzzle.rating >= rating(len(moves), 1)


def test_rating_grows_with_the_line_and_the_depth_it_needs() -> None:
    assert rating(1, 1) < rating(3, 1) < rating(3, 3)
    assert [length_theme(plies) for plies in (1, 3, 5, 7, 9)] == ["oneMove", "short", "long", "veryLong", "veryLong"]


def _chess_themes(position: str, *moves: str) -> tuple[str, ...]:
    return tag("chess", [Puzzle("t", position, None, moves)])[0].themes


def test_chess_themes() -> None:
    assert _chess_themes("r3k3/8/8/3N4/8/8/8/4K3 w - - 0 1", "d5c7", "e8d7", "c7a8") == ("short", "endgame", "fork")
    assert "skewer" in _chess_themes("4k3/8/8/8/8/8/q7/4K2R w - - 0 1", "h1h8", "e8d7", "h8a8")
    assert _chess_themes("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8")[-2:] == ("mateIn1", "backRankMate")
    assert "discoveredAttack" in _chess_themes("4k3/8/8/8/8/8/4N3/4R1K1 w - - 0 1", "e2c3")
    assert "promotion" in _chess_themes("8/P6k/8/8/8/8/8/K7 w - - 0 1", "a7a8q")
    assert "pin" in _chess_themes("4k3/8/2n5/8/8/8/8/4KB2 w - - 0 1", "f1b5")
