"""``book --out`` saves as it goes: each kept line written and synced as it is found,
Ctrl-C and a full disk keep whole lines, ``--resume`` finishes a stopped book into
the uninterrupted one, and a plan no line can meet is refused before the run."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_run import assert_usage_error, run, run_with_file_limit
from processes import group_gone

from games import game_kind
from games.books import BookError, load_book

#: A Quixo book of short lines scored by a shallow search: a few seconds for 150 lines.
PLAN = ["book", "quixo", "--lines", "150", "--plies", "4", "--engine", "alphabeta:depth=3"]
SMALL = ["book", "quixo", "--balanced", "--band", "20", "--lines", "4", "--plies", "4", "--engine",
         "alphabeta:depth=2"]


def _rows(path: Path) -> list[str]:
    """The book's lines of moves (its comments aside)."""
    return [row for row in path.read_text().splitlines() if not row.startswith("#")]


def _comparable(path: Path) -> list[str]:
    """The book but for the day it was made on."""
    return [row for row in path.read_text().splitlines() if not row.startswith("# on ")]


def _whole(capsys, directory: Path, argv: list[str]) -> Path:
    """The book of ``argv`` made in one uninterrupted run, in ``directory`` under the name ``book.txt``."""
    directory.mkdir()
    out = directory / "book.txt"
    code, _, err = run(capsys, *argv, "--out", str(out))
    assert code == 0, err
    return out


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_keeps_the_lines_found_and_resume_finishes_the_same_book(tmp_path: Path, capsys, jobs: str) -> None:
    (tmp_path / "stopped").mkdir()
    out = tmp_path / "stopped" / "book.txt"
    process = subprocess.Popen([sys.executable, "-m", "tui.cli", *PLAN, "--jobs", jobs, "--out", str(out)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (out.exists() and len(_rows(out)) >= 3):
        time.sleep(0.02)
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    assert "Traceback" not in err and "add --resume to finish it" in err.splitlines()[-1]
    assert group_gone(process.pid)
    kept = _rows(out)
    assert 3 <= len(kept) < 150
    assert f"keeps {len(kept)} of 150 lines" in err  # what it says it kept is what the file holds
    assert len(load_book(game_kind("quixo"), str(out)).lines) == len(kept)  # an unfinished book reads

    code, _, err = run(capsys, *PLAN, "--jobs", jobs, "--resume", "--out", str(out))
    assert code == 0, err
    assert _comparable(out) == _comparable(_whole(capsys, tmp_path / "whole", PLAN))


def test_a_full_disk_leaves_whole_lines_and_resume_finishes_them(tmp_path: Path, capsys) -> None:
    whole = _whole(capsys, tmp_path / "whole", SMALL)
    text = whole.read_bytes()
    (tmp_path / "full").mkdir()
    out = tmp_path / "full" / "book.txt"
    limit = text.index(b"try 1") + 4  # the file takes the head, the first line and part of the second
    done = run_with_file_limit([*SMALL, "--out", str(out)], limit)
    assert done.returncode == 2, done.stderr
    last = done.stderr.splitlines()[-1]  # after the progress bar
    assert last.startswith("tui-games: error: ") and "the lines written before are kept" in last
    assert "the file size limit is reached (ulimit -f)" in last and str(out) in last  # not "No space left"
    assert out.read_bytes().endswith(b"\n") and len(_rows(out)) == 1
    code, _, err = run(capsys, *SMALL, "--resume", "--out", str(out))
    assert code == 0, err
    assert _comparable(out) == _comparable(whole)


def test_a_full_disk_is_said_as_such_with_the_books_name(tmp_path: Path, capsys, monkeypatch) -> None:
    """The disk takes part of the first line, then nothing (ENOSPC): one line naming the book and the
    full disk, and the book keeps its head alone."""
    out = tmp_path / "book.txt"
    real = os.write
    calls: list[int] = []

    def full(fd: int, data: bytes) -> int:
        if os.readlink(f"/proc/self/fd/{fd}") != str(out):
            return real(fd, data)
        calls.append(len(data))
        if len(calls) == 1:  # the head
            return real(fd, data)
        if len(calls) == 2:
            return real(fd, data[:5])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "write", full)
    code, _, err = run(capsys, *SMALL, "--out", str(out))
    assert code == 2
    last = err.splitlines()[-1]
    assert "the disk is full" in last and str(out) in last and "Traceback" not in err
    assert _rows(out) == []


def test_a_cut_off_last_line_is_refused_by_readers_and_dropped_by_resume(tmp_path: Path, capsys) -> None:
    whole = _whole(capsys, tmp_path / "whole", SMALL)
    (tmp_path / "cut").mkdir()
    out = tmp_path / "cut" / "book.txt"
    text = whole.read_text()
    out.write_text(text[:text.index("try 2") - 12])  # the third line cut in its moves
    with pytest.raises(BookError, match=r"line 8 is cut off"):
        load_book(game_kind("quixo"), str(out))
    code, _, err = run(capsys, *SMALL, "--resume", "--out", str(out))
    assert code == 0 and "dropped its cut-off last line (line 8)" in err
    assert _comparable(out) == _comparable(whole)


def test_book_refuses_what_it_cannot_resume_in_one_line(tmp_path: Path, capsys) -> None:
    whole = _whole(capsys, tmp_path / "whole", SMALL)
    unfinished = tmp_path / "unfinished.txt"
    unfinished.write_text("".join(whole.read_text().splitlines(keepends=True)[:-2]))
    theirs = tmp_path / "theirs.txt"
    theirs.write_text("e4 e5\n")
    assert_usage_error(capsys, [*SMALL, "--out", str(whole)], "never written over, choose another --out")
    assert_usage_error(capsys, [*SMALL, "--out", str(unfinished)], "not finished; add --resume to finish it")
    assert_usage_error(capsys, [*SMALL, "--out", str(theirs)], "never written over, choose another --out")
    assert_usage_error(capsys, [*SMALL, "--resume", "--out", str(theirs)], "not a book made here")
    assert_usage_error(capsys, [*SMALL, "--lines", "5", "--resume", "--out", str(unfinished)],
                       "a book of another plan (its lines 4, asked 5)")
    assert_usage_error(capsys, [*SMALL, "--resume", "--out", str(tmp_path / "none.txt")], "no such book to resume")
    assert_usage_error(capsys, ["book", "quixo", "--resume"], "--resume goes with --out")
    assert_usage_error(capsys, [*SMALL, "--out", "/dev/null"], "/dev/null: not a regular file")
    for argv in ([*SMALL, "--out", str(unfinished)], [*SMALL, "--out", str(theirs)]):
        err = run(capsys, *argv)[2]
        assert ("--resume" in err) == (argv[-1] == str(unfinished))  # the advice only for our own unfinished book
    assert theirs.read_text() == "e4 e5\n"
    before = whole.read_bytes()
    code, _, err = run(capsys, *SMALL, "--resume", "--out", str(whole))
    assert code == 0 and "already done" in err and whole.read_bytes() == before


def test_plies_no_line_lasts_are_refused_before_the_run(tmp_path: Path, capsys) -> None:
    out = tmp_path / "long.txt"
    assert_usage_error(capsys, ["book", "quixo", "--plies", "9999", "--engine", "alphabeta:depth=1", "--out", str(out)],
                       "lasts 9999 plies (the longest ended the game at ply")
    assert not out.exists()


def test_a_run_that_keeps_nothing_says_so_and_leaves_no_book(tmp_path: Path, capsys) -> None:
    out = tmp_path / "none.txt"
    argv = [*SMALL, "--band", "0", "--tries", "3", "--out", str(out)]  # none of the three lines is level
    code, _, err = run(capsys, *argv)
    assert code == 2 and err.splitlines()[-1].startswith("tui-games book: error: kept no line: tried 3 random lines")
    assert not out.exists()
