"""The checkers endgame database: built by retrograde analysis, checked against itself, against the
game's own move generator and a plain search, read safely, and used by pvs."""

from __future__ import annotations

import errno
import os
import random
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines import Limits, create_engine
from games.checkers import Checkers
from games.checkers import endgame
from games.checkers.endgame import (
    Endgame,
    EndgameError,
    decode,
    encode,
    file_name,
    index_of,
    load,
    save,
    signature_size,
    signatures,
)
from games.checkers.endgame_build import (
    _jumpers,
    _legal_count,
    build,
    capture_code,
    capture_codes,
    check,
    positions,
)

from cli_run import assert_usage_error, run, run_with_file_limit

PIECES = 3


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every position of up to three pieces, built once for the module (about a second)."""
    folder = tmp_path_factory.mktemp("endgame")
    build(folder, PIECES)
    return folder


@pytest.fixture(scope="module")
def tables(built: Path) -> dict[tuple[int, int, int, int], np.ndarray]:
    return {sig: load(built / file_name(sig), sig) for n in range(2, PIECES + 1) for sig in signatures(n)}


def _text(own: int, opp: int, kings: int) -> str:
    """The position with Black (the tables' mover) to move as a PDN FEN."""
    def listed(mask: int) -> str:
        return ",".join(("K" if kings >> (s - 1) & 1 else "") + str(s) for s in range(1, 33) if mask >> (s - 1) & 1)
    return f"B:W{listed(opp)}:B{listed(own)}"


def test_the_small_database_agrees_with_its_successors_everywhere(built: Path) -> None:
    assert check(built, PIECES) == sum(_legal_count(sig) for n in range(2, PIECES + 1) for sig in signatures(n))


def test_the_check_finds_a_wrong_value(built: Path, tmp_path: Path) -> None:
    for sig in signatures(2) + signatures(3):
        (tmp_path / file_name(sig)).write_bytes((built / file_name(sig)).read_bytes())
    sig = (0, 2, 0, 1)
    values = load(built / file_name(sig), sig).copy()
    at = int(np.flatnonzero(values > 0)[0])
    values[at] += 2  # a win two plies slower than its successors allow
    save(tmp_path / file_name(sig), sig, values)
    with pytest.raises(EndgameError, match=f"entry {at} holds"):
        check(tmp_path, PIECES)


@pytest.mark.parametrize("sig", signatures(2) + signatures(3), ids=lambda sig: "".join(map(str, sig)))
def test_indices_read_back_and_the_count_is_the_legal_positions(sig: tuple[int, int, int, int]) -> None:
    index, groups, *_ = positions(sig)
    assert np.array_equal(encode(sig, groups), index)
    assert index.size == _legal_count(sig) <= signature_size(sig)


@settings(max_examples=60)
@given(st.data())
def test_a_game_position_and_its_index_agree(data: st.DataObject) -> None:
    sig = data.draw(st.sampled_from(signatures(4) + signatures(5)))
    squares = data.draw(st.permutations(range(1, 33)))
    men = [s for s in squares if s <= 28][: sig[0]]
    rest = [s for s in squares if s not in men]
    opp_men = [s for s in rest if s >= 5][: sig[2]]
    rest = [s for s in rest if s not in opp_men]
    kings, opp_kings = rest[: sig[1]], rest[sig[1]: sig[1] + sig[3]]
    own = sum(1 << (s - 1) for s in men + kings)
    opp = sum(1 << (s - 1) for s in opp_men + opp_kings)
    king_mask = sum(1 << (s - 1) for s in kings + opp_kings)
    found, index = index_of(own, opp, king_mask)
    assert found == sig
    groups = decode(sig, np.array([index]))
    assert [list(g[0]) for g in groups] == [sorted(men), sorted(kings), sorted(opp_men), sorted(opp_kings)]


def test_captures_followed_with_arrays_match_the_games_own_jumps(tables: dict) -> None:
    for sig in signatures(3):
        index, groups, own, opp, kings, _occupied = positions(sig)
        at = np.flatnonzero(_jumpers(own, opp, kings))
        fast = capture_codes(tables, groups[0][at], groups[1][at], own[at], opp[at], kings[at])
        slow = [capture_code(tables, int(own[i]), int(opp[i]), int(kings[i])) for i in at]
        assert fast.tolist() == slow
        # and the quick jump test says what the game says
        for i in range(0, index.size, 97):
            game = Checkers.from_text(_text(int(own[i]), int(opp[i]), int(kings[i])))
            assert bool(_jumpers(own[i:i + 1], opp[i:i + 1], kings[i:i + 1])[0]) == bool(game.tactical_moves())


def _won_within(game: Checkers, plies: int) -> bool:
    """Whether the side to move wins within ``plies`` (plain search over the game's own moves)."""
    if plies <= 0:
        return False
    for move in game.legal_moves():
        game.play(move)
        try:
            if _lost_within(game, plies - 1):
                return True
        finally:
            game.undo()
    return False


def _lost_within(game: Checkers, plies: int) -> bool:
    outcome = game.outcome()
    if outcome is not None:
        return outcome.winner is not None and outcome.winner != game.turn
    if plies <= 0:
        return False
    for move in game.legal_moves():
        game.play(move)
        try:
            if not _won_within(game, plies - 1):
                return False
        finally:
            game.undo()
    return True


def test_short_wins_and_losses_are_what_a_plain_search_finds(tables: dict) -> None:
    rng = random.Random(41)
    checked = 0
    for sig in signatures(3):
        index, _groups, own, opp, kings, _occupied = positions(sig)
        codes = tables[sig][index]
        short = np.flatnonzero((codes != 0) & (np.abs(codes) <= 6))
        for i in rng.sample(list(short), min(4, short.size)):
            game = Checkers.from_text(_text(int(own[i]), int(opp[i]), int(kings[i])))
            code = int(codes[i])
            plies = abs(code) - 1
            if code > 0:
                assert _won_within(game, plies) and not _won_within(game, plies - 2), game.to_text()
            else:
                assert _lost_within(game, plies) and not _lost_within(game, plies - 2), game.to_text()
            checked += 1
    assert checked >= 20


def _copy(built: Path, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(2, PIECES + 1):
        for sig in signatures(n):
            (folder / file_name(sig)).write_bytes((built / file_name(sig)).read_bytes())
    return folder


@pytest.mark.parametrize("damage", ["truncated", "checksum", "version"])
def test_a_bad_file_is_one_line_and_the_rest_still_answers(built: Path, tmp_path: Path, damage: str,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    folder = _copy(built, tmp_path / "db")
    sig = (0, 2, 0, 1)
    path = folder / file_name(sig)
    values = load(path, sig)
    if damage == "truncated":
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    elif damage == "checksum":
        changed = values.copy()
        changed[np.flatnonzero(changed)[0]] *= -1
        header = np.array([endgame.VERSION, *sig, values.size, 12345], dtype=np.int64)
        np.savez_compressed(path, values=changed, header=header)
    else:
        with zipfile.ZipFile(path, "w") as archive:
            np.save(archive.open("values.npy", "w"), values)
            np.save(archive.open("header.npy", "w"), np.array([99, *sig, values.size, 0], dtype=np.int64))
    with pytest.raises(EndgameError) as refused:
        load(path, sig)
    assert "\n" not in str(refused.value) and str(path) in str(refused.value)
    tables = Endgame(folder)
    two_kings = Checkers.from_text("B:WK10:BK1,K5")
    assert tables.probe(two_kings) is None  # its file is bad: unknown, not an error
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "endgame database:" in err
    assert tables.probe(Checkers.from_text("B:WK10,K14:BK1")) == -1  # another file still answers
    assert tables.probe(two_kings) is None and capsys.readouterr().err == ""  # said once


def test_pvs_plays_a_won_ending_by_the_database_and_converts_it(built: Path, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TUI_GAMES_DATA_DIR", str(tmp_path))
    _copy(built, endgame.default_dir())
    game = Checkers.from_text("B:WK10:BK1,K5")
    ranking = Checkers.default_tables().rank(game)
    assert ranking is not None and ranking.value == 1
    engine = create_engine("pvs", Checkers)
    plain = create_engine("pvs:tables=off", Checkers)
    assert plain.tables is None and engine.tables is not None
    plies = 0
    while game.outcome() is None:
        result = engine.search(game, Limits(nodes=2000))
        assert result.move in Checkers.default_tables().rank(game).moves
        game.play(result.move)
        plies += 1
    assert game.outcome().winner == 0 and plies == ranking.plies  # both sides perfect: the distance exactly


def test_a_level_made_weak_on_purpose_gets_no_database_by_default(built: Path, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TUI_GAMES_DATA_DIR", str(tmp_path))
    _copy(built, endgame.default_dir())
    assert create_engine("pvs:depth=2", Checkers).tables is not None
    for spec in ("pvs:depth=2,jitter=40", "pvs:depth=1,blunder=0.25"):
        assert create_engine(spec, Checkers).tables is None
    assert create_engine(f"pvs:depth=2,jitter=40,tables={built}", Checkers).tables is not None  # asked for


def test_the_tables_option_reads_a_folder_and_refuses_one_without_a_database(built: Path, tmp_path: Path) -> None:
    engine = create_engine(f"pvs:depth=2,tables={built}", Checkers)
    assert engine.tables is not None and engine.tables.pieces == PIECES
    from engines import SpecError

    with pytest.raises(SpecError, match="no checkers endgame database"):
        create_engine(f"pvs:depth=2,tables={tmp_path}", Checkers)


def test_the_command_builds_and_checks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "endgame", "build", "checkers", "--pieces", "2", "--out", str(tmp_path))
    assert code == 0 and err == "" and "2 pieces: 3,488 positions" in out
    code, out, _err = run(capsys, "endgame", "check", "checkers", "--dir", str(tmp_path))
    assert code == 0 and "3,488 positions of up to 2 pieces agree" in out
    assert_usage_error(capsys, ["endgame", "build", "checkers", "--pieces", "9", "--out", str(tmp_path)],
                       "--pieces: at most")
    assert_usage_error(capsys, ["endgame", "check", "checkers", "--dir", str(tmp_path / "none")],
                       "no checkers endgame database")
    sig = signatures(2)[0]
    (tmp_path / file_name(sig)).write_bytes(b"PK not really")
    assert_usage_error(capsys, ["endgame", "check", "checkers", "--dir", str(tmp_path)], file_name(sig))
    assert_usage_error(capsys, ["endgame", "build", "checkers", "--pieces", "2", "--out", str(tmp_path / file_name(sig))],
                       "is not a folder")


def test_a_build_past_the_file_size_limit_names_the_file_and_the_limit(tmp_path: Path) -> None:
    """Under ``ulimit -f`` the build said only "File too large": now the file and the cause, and no
    partial file is left; the 2-piece files (under 1 KB) were kept."""
    done = run_with_file_limit(["endgame", "build", "checkers", "--pieces", "3", "--out", str(tmp_path)], 4096)
    assert done.returncode == 2, done.stderr
    last = done.stderr.splitlines()[-1]
    assert last.startswith("tui-games endgame build: error: cannot write ") and ".npz: " in last
    assert "the file size limit is reached (ulimit -f)" in last and str(tmp_path) in last
    assert not list(tmp_path.glob("*.partial")) and len(list(tmp_path.glob("*.npz"))) >= 4


def test_a_build_on_a_full_disk_names_the_file_and_the_disk(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    def full(out: object, **arrays: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))  # as numpy's writer raises it: no file name

    monkeypatch.setattr(endgame.np, "savez_compressed", full)
    assert_usage_error(capsys, ["endgame", "build", "checkers", "--pieces", "2", "--out", str(tmp_path)],
                       "the disk is full")
    assert not list(tmp_path.glob("*.partial"))


def test_a_build_never_writes_over_a_file(built: Path, tmp_path: Path) -> None:
    sig = (0, 1, 1, 0)  # built with its mirror (1, 0, 0, 1), which is missing: the pair is built again
    values = load(built / file_name(sig), sig).copy()
    values[np.flatnonzero(values)[0]] = 0
    save(tmp_path / file_name(sig), sig, values)  # sound, but not what a build makes
    before = {path.name: path.read_bytes() for path in tmp_path.iterdir()}
    with pytest.raises(EndgameError, match="differs from what was built"):
        build(tmp_path, 2)
    assert all((tmp_path / name).read_bytes() == data for name, data in before.items())
