"""The guest trusts the host no more than the host trusts it: a malicious host (tests/evil_host.py) in
each way a breaker found, against the client, the command line (a second process) and the app.

Every violation ends the connection with one line; ``tui-games join`` exits 2 with it, before the app
opens or from inside it; nothing the host says is markup; the reader thread's death is the
connection's end; one deadline covers the handshake and each message.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

import tui.net.client as client_module
from tui.net.client import Client, ConnectError, HostBroke
from tui.net.protocol import ProtocolError, decode_host
from tui.net.trust import StateCheck

from evil_host import MODES, serve, state
from netplay import TIMEOUT

#: The modes that break the protocol before the game opens, and the words of their one line.
AT_ONCE = {
    "deep": "nested too deep",
    "nogame": "unknown game 'nosuchgame'",
    "clockx": "state.clock.base must be a finite number",
    "illegal": "move 1 'e5': illegal move",
    "start": "bad FEN 'not a fen'",
    "history": "state.clock.history[0] has 2 items, not 3",
    "nan": "NaN is not a number",
}


@pytest.fixture
def evil():
    """Start a malicious host in a mode through this; each is stopped after the test."""
    stops = []

    def start(mode: str) -> int:
        port, stop = serve(mode)
        stops.append(stop)
        return port

    yield start
    for stop in stops:
        stop.set()


def _until(condition) -> bool:
    """Whether ``condition`` came true within the tests' time (polled)."""
    deadline = time.monotonic() + TIMEOUT
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def _decoded(line: bytes) -> dict:
    message = decode_host(line.rstrip(b"\n"))
    if message["type"] == "state":
        StateCheck("play").check(message)
    return message


@pytest.mark.parametrize("mode", sorted(AT_ONCE))
def test_each_hostile_first_message_is_one_protocol_error(mode):
    line = next(step for step in MODES[mode] if isinstance(step, bytes) and b'"welcome"' not in step)
    with pytest.raises(ProtocolError, match=AT_ONCE[mode].replace("[", r"\[").replace("(", r"\(")):
        _decoded(line)


@pytest.mark.parametrize("changes, words", [
    ({"ply": 3}, "ply 3, but its moves reach ply 0"),
    ({"turn": 1}, "side 1 to move"),
    ({"you": None}, "'you' does not fit this seat"),
    ({"you": 2}, "state.you out of range"),
    ({"moves": ["e4"] * 5001}, "state.moves has 0 to 5000 items"),
    ({"extra": 1}, "unknown field 'extra'"),
    ({"number": 0}, "state.number out of range"),
    ({"seq": True}, "state.seq must be an integer"),
    ({"offer": {"what": "surrender", "by": 0}}, "state.offer.what must be one of"),
    ({"outcome": {"winner": 0, "reason": "x" * 201, "said": None}}, "at most 200 characters"),
    ({"clock": {"base": 60, "increment": 0, "left": [1e300, 60], "running": 0, "history": []}}, "out of range"),
    ({"clock": {"base": 0, "increment": 0, "left": [0, 0], "running": None, "history": []}}, "above 0 seconds"),
    ({"start": "x" * 1001}, "at most 1000 characters"),
])
def test_a_state_out_of_shape_or_against_the_rules_is_refused_in_one_line(changes, words):
    with pytest.raises(ProtocolError, match=words.replace("(", r"\(").replace("[", r"\[")):
        _decoded(state(**changes))


def test_a_state_check_follows_a_game_move_by_move_and_refuses_a_changed_game():
    check = StateCheck("play")
    moves = ["e4", "e5", "Nf3", "Nc6"]
    for ply in range(len(moves) + 1):
        check.check(json.loads(state(moves=moves[:ply], ply=ply, turn=ply % 2)))
    check.check(json.loads(state(moves=moves[:2], ply=2, turn=0)))  # a takeback goes back
    with pytest.raises(ProtocolError, match="the game changed from chess to checkers"):
        check.check(json.loads(state(game="checkers")))
    with pytest.raises(ProtocolError, match="a spectator was given a side"):
        StateCheck("watch").check(json.loads(state()))


@pytest.mark.parametrize("mode", sorted(AT_ONCE))
def test_the_client_refuses_a_hostile_host_while_connecting(evil, mode):
    with pytest.raises(HostBroke, match="the host broke the protocol: "):
        Client(("127.0.0.1", evil(mode)), "code").connect(TIMEOUT)


def test_one_deadline_covers_the_whole_welcome(evil):
    port = evil("trickle")  # a byte every 0.3 s: each read is quick, the welcome never ends
    started = time.monotonic()
    with pytest.raises(HostBroke, match="did not finish its welcome within 1 s"):
        Client(("127.0.0.1", port), "code").connect(1.0)
    assert time.monotonic() - started < TIMEOUT


@pytest.mark.parametrize("mode, words", [
    ("later-illegal", "move 2 'Ke8': illegal move"),
    ("later-deep", "nested too deep"),
    ("later-trickle", "a message took more than 1 s to arrive"),
])
def test_a_violation_mid_game_ends_the_connection_for_good(evil, monkeypatch, mode, words):
    monkeypatch.setattr(client_module, "MESSAGE_DEADLINE", 1.0)
    closed: list[str] = []
    client = Client(("127.0.0.1", evil(mode)), "code", on_closed=closed.append)
    client.connect(TIMEOUT)
    assert _until(lambda: closed)
    assert client.broken and closed == [client.close_reason] and words in client.close_reason
    assert client.close_reason.startswith("the host broke the protocol: ")


def test_the_reader_threads_death_is_the_connections_end(evil):
    def explode(message):
        raise RuntimeError("a listener's bug")

    closed: list[str] = []
    client = Client(("127.0.0.1", evil("later-illegal")), "code", on_message=explode, on_closed=closed.append)
    client.connect(TIMEOUT)
    assert _until(lambda: closed)
    assert closed == ["the connection failed: RuntimeError: a listener's bug"] and not client.broken


def _join(port: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tui.cli", "join", f"127.0.0.1:{port}", "code"],
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)


@pytest.mark.slow
@pytest.mark.parametrize("mode", sorted(AT_ONCE))
def test_join_exits_2_with_one_line_against_a_hostile_host(evil, mode):
    done = _join(evil(mode))
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tui-games join: error: the host broke the protocol: ")
    assert AT_ONCE[mode] in lines[0] and "Traceback" not in done.stderr + done.stdout


@pytest.mark.slow
@pytest.mark.parametrize("mode, words", [("later-illegal", "illegal move 'Ke8'"), ("later-deep", "nested too deep")])
def test_join_in_a_terminal_ends_the_app_with_the_line_and_exit_2(evil, mode, words):
    from tui.bench.pty_app import AppProcess, screen_text

    app = AppProcess(["join", f"127.0.0.1:{evil(mode)}", "code"], size=(120, 40))
    try:
        deadline = time.monotonic() + 30
        while app.process.poll() is None and time.monotonic() < deadline:
            app.read(0.2)
        app.pump(0.2)
        assert app.process.poll() == 2
        shown = screen_text(bytes(app.output))
        assert "tui-games join: error: the host broke the protocol:" in shown and words in shown
        assert "Traceback" not in shown
    finally:
        if app.process.poll() is None:
            app.process.kill()


async def test_the_hosts_words_are_shown_as_text_never_as_markup(evil):
    from app_pilot import wait_for
    from textual.widgets import Label
    from tui.app.app import TuiGamesApp
    from tui.app.screens.dialogs import ResultDialog
    from tui.net.link import GuestLink

    app = TuiGamesApp(friend=GuestLink(("127.0.0.1", evil("markup")), "code"))
    app.animation_level = "none"
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ResultDialog), "the result the host says")
        detail = str(app.screen.query_one("#detail", Label).render())
        assert "[/x] [bold [@click=app.quit]" in detail and app.is_running


def test_a_hosts_refusal_is_one_printable_line(evil, monkeypatch):
    monkeypatch.setitem(MODES, "refuse", [b'{"type":"error","reason":"wrong code\\u001b[2J\\nagain"}\n'])
    with pytest.raises(ConnectError, match=r"the host refused: wrong code \[2J again$"):
        Client(("127.0.0.1", evil("refuse")), "code").connect(TIMEOUT)


def test_a_first_release_hosts_state_without_aids_or_away_is_read_with_their_meaning():
    message = json.loads(state())
    del message["aids"], message["away"]
    read = decode_host(json.dumps(message).encode())
    assert read["aids"] is False and read["away"] is None
    with pytest.raises(ProtocolError, match="state.aids must be true or false"):
        decode_host(json.dumps({**message, "aids": "yes"}).encode())


def test_a_first_release_guests_hello_without_aids_is_read_as_not_agreeing():
    from tui.net.protocol import decode

    hello = decode(b'{"type":"hello","v":1,"code":"abc","role":"play"}')
    assert hello["aids"] is False
