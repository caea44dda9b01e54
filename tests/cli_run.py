"""Running the command line in-process from tests, and what every usage error must look like."""

from __future__ import annotations

import pytest

from tui.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``tui-games ARGV...`` in this process: the exit status, stdout and stderr."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_usage_error(capsys: pytest.CaptureFixture[str], argv: list[str], needle: str) -> None:
    """Bad input: exit status 2, nothing on stdout, one line on stderr naming ``needle``."""
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.endswith("\n")
    assert needle in err
    assert "Traceback" not in err
