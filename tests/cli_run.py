"""Running the command line in-process from tests, and what every usage error must look like."""

from __future__ import annotations

import subprocess
import sys

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


def run_with_file_limit(argv: list[str], limit: int) -> subprocess.CompletedProcess[str]:
    """``tui-games ARGV...`` in a process whose files may not grow past ``limit`` bytes (``ulimit -f``):
    a write past it fails with EFBIG (SIGXFSZ ignored, as Python does)."""
    script = ("import resource, signal, sys\n"
              "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
              f"resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))\n"
              "from tui.cli import main\n"
              f"sys.exit(main({argv!r}))\n")
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
