"""Levels per game, maximum-likelihood ratings, ``tui-games levels`` and the
start screen's level choices."""

from __future__ import annotations

import math

import pytest
from textual.widgets import Input, Select, Static

from app_pilot import wait_for
from cli_run import run
from engines import create_engine, parse_engine_spec
import engines.levels
from engines.levels import anchors, level_named, levels_for, pairings, player_spec
from engines.tournament.ratings import Pairing, expected_score, fit_ratings
from games import GAME_NAMES, game_class, game_kind
from tui.app.app import TuiGamesApp
from tui.app.screens.start import StartScreen
from tui.app.session import presets_for


# ------------------------------------------------------------ ratings
def test_one_pairing_gives_the_logistic_difference() -> None:
    ratings = {r.name: r for r in fit_ratings([Pairing("a", "b", 15, 20)], {"b": 1000}, prior=0)}
    assert ratings["a"].elo == pytest.approx(1000 + 400 * math.log10(3), abs=0.01)  # 75%: +191
    assert ratings["b"].anchor and ratings["b"].margin == 0
    # The interval shrinks with more games of the same score.
    more = {r.name: r for r in fit_ratings([Pairing("a", "b", 150, 200)], {"b": 1000}, prior=0)}
    assert more["a"].elo == pytest.approx(ratings["a"].elo, abs=0.01)
    assert more["a"].margin < ratings["a"].margin / 3


def test_a_chain_adds_up_and_anchors_hold() -> None:
    pairings = [Pairing("x", "y", 10, 20), Pairing("y", "z", 15, 20), Pairing("z", "sf", 5, 20)]
    ratings = {r.name: r.elo for r in fit_ratings(pairings, {"sf": 1500}, prior=0)}
    assert ratings["sf"] == 1500
    assert ratings["z"] == pytest.approx(1500 - 400 * math.log10(3), abs=0.01)
    assert ratings["y"] == pytest.approx(ratings["z"] + 400 * math.log10(3), abs=0.01)
    assert ratings["x"] == pytest.approx(ratings["y"], abs=0.01)


def test_the_fit_is_the_maximum_likelihood() -> None:
    pairings = [Pairing("p", "a1", 12, 20), Pairing("p", "a2", 6, 20), Pairing("p", "a3", 11, 20)]
    fixed = {"a1": 1300.0, "a2": 1600.0, "a3": 1450.0}
    best = {r.name: r.elo for r in fit_ratings(pairings, fixed, prior=0)}["p"]

    def log_likelihood(elo: float) -> float:
        total = 0.0
        for p in pairings:
            e = expected_score(elo, fixed[p.b])
            total += p.points * math.log(e) + (p.games - p.points) * math.log(1 - e)
        return total

    assert log_likelihood(best) > log_likelihood(best - 5) and log_likelihood(best) > log_likelihood(best + 5)


def test_a_clean_sweep_stays_finite_with_the_prior() -> None:
    ratings = {r.name: r for r in fit_ratings([Pairing("random", "level", 0, 10)], {"random": 0})}
    assert 300 < ratings["level"].elo < 1000 and math.isfinite(ratings["level"].margin)


def test_players_without_an_anchor_are_refused() -> None:
    with pytest.raises(ValueError, match="anchor"):
        fit_ratings([Pairing("a", "b", 1, 2)], {"c": 0})
    with pytest.raises(ValueError, match="connected"):
        fit_ratings([Pairing("a", "b", 1, 2), Pairing("c", "d", 1, 2)], {"a": 0}, prior=0)


# ------------------------------------------------------------ the levels
@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_level_is_an_engine_of_its_game(game: str) -> None:
    levels = levels_for(game)
    assert [level.name for level in levels] == ["beginner", "casual", "club", "expert", "master"]
    for level in levels:
        create_engine(parse_engine_spec(level.spec), game_class(game)).close()
        assert level.spec in level.label or level.name.capitalize() in level.label
        assert level_named(game, level.name.upper()) is level
    # Rated, weakest first (a plug-in's levels may be unrated: ratings are optional).
    ratings = [level.elo for level in levels]
    if game_kind(game).levels.ratings:
        assert None not in ratings and ratings == sorted(ratings)
    else:
        assert ratings == [None] * len(levels)
    with pytest.raises(KeyError, match="no level"):
        level_named(game, "grandmaster")


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_ladder_player_has_a_spec_and_the_ladder_an_anchor(game: str) -> None:
    names = {name for pair in pairings(game) for name in pair}
    for name in names:
        parse_engine_spec(player_spec(game, name))
    assert set(anchors(game)) & names
    assert {level.name for level in levels_for(game)} <= names


def test_the_levels_command_lists_them(capsys) -> None:
    code, out, _ = run(capsys, "levels", "checkers")
    assert code == 0
    assert "random = 0" in out
    for level in levels_for("checkers"):
        assert level.name in out and level.spec in out and f"{level.elo} ± {level.margin}" in out


def test_measuring_plays_the_ladder_and_fits_it(capsys, tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(engines.levels, "pairings", lambda game: (("random", "beginner"), ("beginner", "casual")))
    code, out, _ = run(capsys, "levels", "quixo", "--measure", "--games", "2", "--jobs", "1",
                       "--out", str(tmp_path))
    assert code == 0
    assert "random - beginner:" in out and "beginner - casual:" in out
    assert "random: 0 (anchor)" in out and "casual:" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["quixo-beginner-casual.jsonl",
                                                          "quixo-random-beginner.jsonl"]
    # Measured again: the kept games are not played twice.
    before = (tmp_path / "quixo-random-beginner.jsonl").read_text()
    code, again, _ = run(capsys, "levels", "quixo", "--measure", "--games", "2", "--out", str(tmp_path))
    assert code == 0 and (tmp_path / "quixo-random-beginner.jsonl").read_text() == before
    assert again == out


def test_measuring_into_a_file_is_refused(capsys, tmp_path) -> None:
    target = tmp_path / "file"
    target.write_text("keep me")
    code, _, err = run(capsys, "levels", "quixo", "--measure", "--out", str(target))
    assert code == 2 and "cannot make" in err and err.count("\n") == 1
    assert target.read_text() == "keep me"


# ------------------------------------------------------------ the start screen
@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_presets_offer_the_levels_with_their_ratings(game: str) -> None:
    presets = presets_for(game)
    assert presets[0] == ("Human", "human")
    for level in levels_for(game):
        assert (level.label, level.spec) in presets
        if level.elo is not None:  # unrated levels of a plug-in say no rating
            assert f"about {round(level.elo, -1)}" in level.label


async def test_the_start_screen_offers_the_levels_of_the_game_chosen() -> None:
    app = TuiGamesApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
        start = app.screen
        start.query_one("#game", Select).value = "checkers"
        await pilot.pause()
        club = level_named("checkers", "club")
        preset = start.query_one("#preset-1", Select)
        preset.value = club.spec
        await pilot.pause()
        assert start.query_one("#spec-1", Input).value in (club.spec, club.name)  # the level, by spec or name
        about = str(start.query_one("#about-1", Static).render())
        assert f"{club.elo} ± {club.margin}" in about and "random = 0" in about and "about " in about
        # Another game: its own levels, and the spec still picks its preset.
        start.query_one("#game", Select).value = "chess"
        await pilot.pause()
        chess_club = level_named("chess", "club")
        assert preset.value == (chess_club.spec if chess_club.spec == club.spec else Select.NULL)
        assert f"{chess_club.elo}" in str(start.query_one("#about-1", Static).render()) or \
            preset.value is Select.NULL


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_level_by_name_is_a_player(game: str) -> None:
    from tui.app.session import GameSetup

    setup = GameSetup.checked(game, "Beginner", "master")
    assert setup.players == (level_named(game, "beginner").spec, level_named(game, "master").spec)
