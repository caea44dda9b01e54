"""A finished game's result: the JSON line every run writes, read back as it was written.

``tests/data/results.jsonl`` holds three lines as ``tui-games match`` wrote them
on 2026-11-25 (before results were typed): a Quixo win whose log holds a mate
score, a drawn Quixo game, and a checkers game of a ``--sprt`` match (its line
keeps the test).  ``results.report.json`` and ``results.report.txt`` are what
``tui-games report`` printed for them then.
"""

from __future__ import annotations

from pathlib import Path

from engines.tournament import read_results

from cli_run import run

DATA = Path(__file__).resolve().parent / "data"
OLD = DATA / "results.jsonl"


def test_lines_written_before_results_were_typed_read_and_report_as_they_did(capsys) -> None:
    results, partial = read_results(OLD)
    assert len(results) == 3 and partial is None
    for argv, expected in ((["report", str(OLD), "--json"], "results.report.json"),
                           (["report", str(OLD)], "results.report.txt")):
        code, out, err = run(capsys, *argv)
        assert code == 0 and err == ""
        assert out == (DATA / expected).read_text(encoding="utf-8")
