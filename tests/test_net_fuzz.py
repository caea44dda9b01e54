"""A bounded fuzz test of a live host: random, truncated, oversized and hostile lines from a seated
guest, a spectator and connections without the code, between real moves; the host never crashes,
never accepts a change the rules refuse, and the game in progress goes on."""

from __future__ import annotations

import json
import socket

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from games import GAME_NAMES, game_kind
from tui.net.host import Bounds
from tui.net.protocol import SCHEMAS, encode

from netplay import TIMEOUT, Guest, raw, start_host

#: Values a hostile field may take.
VALUES = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=True),
                   st.text(max_size=50), st.lists(st.integers(), max_size=3),
                   st.dictionaries(st.text(max_size=5), st.integers(), max_size=3))
#: A message of a known type with its fields ill-typed, missing or extra.
MESSAGES = st.builds(lambda kind, fields: {"type": kind, **fields}, st.sampled_from([*SCHEMAS, "clock", "state"]),
                     st.dictionaries(st.sampled_from(["seq", "ply", "move", "what", "accept", "code", "v", "left"]),
                                     VALUES, max_size=5))
LINES = st.one_of(
    MESSAGES.map(lambda m: json.dumps(m).encode()),
    st.binary(max_size=200),
    MESSAGES.map(lambda m: json.dumps(m).encode()).flatmap(lambda b: st.integers(0, len(b)).map(lambda n: b[:n])),
    st.integers(4000, 9000).map(lambda n: b'{"type": "move", "move": "' + b"a" * n + b'"}'),
    st.integers(1, 3000).map(lambda n: b"[" * n),
)


@pytest.fixture(scope="module", params=GAME_NAMES)
def live(request):
    name = request.param
    server = start_host(name, clock="60+0", bounds=Bounds(rate=1000, burst=1000, strikes=10**6))
    guest = Guest(server.port, server.code)
    yield name, server, guest
    server.stop()


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(lines=st.lists(LINES, min_size=1, max_size=8))
def test_hostile_lines_change_nothing_the_rules_refuse(live, lines):
    name, server, guest = live
    before = server.state()
    if before["outcome"] is not None:
        return
    assert before["turn"] == before["you"]  # the host's turn: nothing the guest sends may change the game
    sock = guest.client._socket
    for line in lines:
        sock.sendall(line.replace(b"\n", b" ") + b"\n")
        # the same line as a connection without the code: one answer line, and closed
        assert raw(server.port, line.replace(b"\n", b" ") + b"\n").count(b"\n") <= 1
    # a last refusal of its own: answered in order, so every line above has been handled once it is
    guest.client._write({"type": "move", "seq": 2**53 - 1, "ply": 999_999, "move": "x"})
    guest.wait(lambda m: m["type"] == "error" and "at ply 999999" in m["reason"], "the last refusal")
    after = server.state()
    assert server.guest_present()
    for field in ("moves", "ply", "turn", "outcome", "offer", "paused", "number"):
        assert after[field] == before[field], field
    assert after["clock"]["left"][1 - after["you"]] == before["clock"]["left"][1 - after["you"]]
    # the game goes on: the host moves, then the guest
    game = server.referee.game.copy()
    assert server.act("move", move=game.format_move(game.legal_moves()[0])) is None
    state = guest.state_at(before["ply"] + 1)
    if state["outcome"] is None:
        game = server.referee.game.copy()
        guest.client.move(game.format_move(game.legal_moves()[0]))
        guest.state_at(before["ply"] + 2)
