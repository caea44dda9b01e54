"""Network play without the app: a live host (the referee) and clients over a real 127.0.0.1 socket.

Full games of every registered game from its samples, the refusals of docs/network.md (the code,
turns, plies, replays, the shape, size and rate of lines), the hello's one deadline and the slow
connections that cannot keep the guest out, the clock (an absent player's runs down; abandonment and
the claim), the offers, and a guest killed mid-game that comes back with its code.
"""

from __future__ import annotations

import json
import os
import select
import signal
import socket
import subprocess
import sys
import time

import pytest

from games import GAME_NAMES, game_kind, new_game
from tui.net.client import ConnectError, parse_address
from tui.net.host import Bounds
from tui.net.protocol import MAX_LINE, ProtocolError, decode, encode
from tui.net.referee import GUEST, HOST

from netplay import TIMEOUT, Guest, hosted, raw  # noqa: F401  (hosted: a fixture)


def play_line(server, guest: Guest, moves, host_side: int = 0) -> dict:
    """Play ``moves`` alternately from both seats, each through its own path; the last state."""
    state = guest.client.state
    for text in moves:
        ply = state["ply"]
        if state["turn"] != state["you"]:
            assert server.act("move", move=text) is None
        else:
            guest.client.move(text)
        state = guest.state_at(ply + 1)
    return state


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_full_game_of_each_game_over_the_socket(hosted, name):
    start, moves = game_kind(name).samples.ended
    server = hosted(name, start, clock="5+3")
    guest = Guest(server.port, server.code)
    state = play_line(server, guest, moves)
    reference = new_game(name, start)
    for text in moves:
        reference.play(reference.parse_move(text))
    assert state["outcome"] is not None and state["outcome"]["winner"] == reference.outcome().winner
    assert state["moves"] == server.state()["moves"]
    assert state["clock"]["running"] is None  # stopped at the end


def test_the_wrong_code_is_closed_after_one_line(hosted):
    server = hosted(GAME_NAMES[0])
    hello = {"type": "hello", "v": 1, "code": server.code + "x", "role": "play", "aids": False}
    answer = raw(server.port, encode(hello) + encode({"type": "ping"}))
    lines = answer.splitlines()
    assert len(lines) == 1 and json.loads(lines[0]) == {"type": "error", "reason": "wrong code"}
    # The watch code does not seat a player, nor the player code a spectator's role.
    assert b"wrong code" in raw(server.port, encode({**hello, "code": server.watch_code}))
    with pytest.raises(ConnectError, match="wrong code"):
        Guest(server.port, server.code, role="watch")
    for first in (b"GET / HTTP/1.1\r\n\r\n", b"\xff\xfe\n", encode({"type": "move", "seq": 1, "ply": 0, "move": "x"})):
        assert len(raw(server.port, first).splitlines()) == 1
    assert not server.guest_present()


def test_the_host_compares_codes_in_constant_time():
    import inspect

    from tui.net import host
    assert "hmac.compare_digest" in inspect.getsource(host.HostServer._hello)


def test_refusals_change_nothing(hosted):
    name = GAME_NAMES[0]
    samples = game_kind(name).samples
    server = hosted(name, clock="5+0")
    guest = Guest(server.port, server.code)
    client = guest.client
    first = samples.line[0]
    before = server.state()
    # moving for the other side (the host plays first here)
    client.move(first)
    assert "not your turn" in guest.error()
    assert server.act("move", move=samples.illegal_move).startswith("move: ")
    assert server.act("move", move=first) is None
    guest.state_at(1)
    # the host moving twice
    assert "not your turn" in server.act("move", move=samples.line[1])
    # an illegal move, a message for another ply, a replayed number, a clock field
    client.move("?")
    assert guest.error().startswith("move: ")
    client.move(samples.line[1])
    guest.state_at(2)
    replay = {"type": "move", "seq": client._seq, "ply": 1, "move": samples.line[1]}
    client._write(replay)
    assert "replayed" in guest.error()
    client._write({**replay, "seq": 50})
    assert "the game is at ply 2" in guest.error()
    client._write({"type": "move", "seq": 51, "ply": 2, "move": samples.line[1], "clock": [999, 999]})
    assert "unknown field 'clock'" in guest.error()
    client._write({"type": "clock", "seq": 52, "left": [999, 999]})
    assert "unknown type" in guest.error()
    client._write({"type": "answer", "seq": 53, "ply": 2, "what": "draw", "accept": True})
    assert "no draw offer" in guest.error()
    after = server.state()
    assert after["moves"] == list(samples.line[:2]) and after["outcome"] is None and after["ply"] == 2
    assert after["clock"]["left"][1] <= before["clock"]["left"][1]  # only time passing changed it


@pytest.mark.parametrize("line, words", [
    (b"not json", "not JSON"),
    (b"[1, 2]", "not a JSON object"),
    (b'{"type": "move", "seq": 1.5, "ply": 0, "move": "a"}', "no fractions"),
    (b'{"type": "move", "seq": true, "ply": 0, "move": "a"}', "must be int"),
    (b'{"type": "move", "seq": -1, "ply": 0, "move": "a"}', "out of range"),
    (b'{"type": "move", "seq": 1, "ply": 0}', "missing field"),
    (b'{"type": "move", "seq": 1, "ply": 0, "move": NaN}', "not JSON"),
    (b'{"type": "move", "seq": 1, "ply": 0, "move": "' + b"a" * 300 + b'"}', "at most 200"),
    (b"[" * 3000 + b"]" * 3000, "line too long"),
    (b"\xc3\x28", "not UTF-8"),
])
def test_malformed_lines_are_refused_in_one_line(line, words):
    with pytest.raises(ProtocolError, match=words):
        decode(line)


def test_malformed_oversized_and_hostile_lines_over_the_socket(hosted):
    name = GAME_NAMES[0]
    server = hosted(name)
    guest = Guest(server.port, server.code)
    sock = guest.client._socket
    sock.sendall(b"x" * (MAX_LINE * 3) + b"\n")
    assert "line too long" in guest.error()
    sock.sendall(b"{\n")
    assert guest.error() == "not JSON"
    sock.sendall(encode({"type": "hello", "v": 1, "code": server.code, "role": "play", "aids": False}))
    assert "already said" in guest.error()
    guest.client.move(game_kind(name).samples.line[1])  # still the host's turn
    assert "not your turn" in guest.error()
    assert server.state()["moves"] == [] and server.guest_present()


def test_a_spectator_watches_with_its_own_code_and_cannot_play(hosted):
    name = GAME_NAMES[0]
    server = hosted(name)
    guest = Guest(server.port, server.code)
    watcher = Guest(server.port, server.watch_code, role="watch")
    assert watcher.client.state["you"] is None
    watcher.client.move(game_kind(name).samples.line[0])
    assert "spectators only watch" in watcher.error()
    assert server.act("move", move=game_kind(name).samples.line[0]) is None
    assert watcher.state_at(1)["moves"] == guest.state_at(1)["moves"]


def test_the_rate_the_idle_time_and_the_connections_are_bounded(hosted):
    server = hosted(GAME_NAMES[0], bounds=Bounds(rate=5, burst=5, strikes=3, idle=0.5, hello=0.5, pending=3))
    guest = Guest(server.port, server.code)
    guest.client._socket.sendall(encode({"type": "ping"}) * 12)
    assert "too many messages" in guest.error()
    assert guest.client.closed.wait(TIMEOUT) and "too many messages" in guest.client.close_reason
    # a silent connection (no hello) is closed after the hello's time, an idle guest after the idle time
    started = time.monotonic()
    assert b"too slow: say hello within 0.5 s" in raw(server.port, b"")
    assert time.monotonic() - started < TIMEOUT
    again = Guest(server.port, server.code)
    assert again.client.closed.wait(TIMEOUT) and "idle" in again.client.close_reason


def _trickling(port: int, count: int) -> list[socket.socket]:
    """``count`` connections that each send the start of a hello and then nothing more."""
    held = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        sock.sendall(b'{"type":"hel')
        held.append(sock)
    return held


def _answer(sock: socket.socket) -> bytes:
    """All the host says until it closes (a close with our bytes unread resets: what came is kept)."""
    answer = b""
    try:
        while chunk := sock.recv(4096):
            answer += chunk
    except ConnectionResetError:
        answer += b"<reset>"
    return answer


def test_the_hello_has_one_deadline_however_slowly_its_bytes_come(hosted):
    server = hosted(GAME_NAMES[0], bounds=Bounds(hello=1.0))
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT)
    started = time.monotonic()
    with sock:
        for byte in b'{"type":"hello"':  # a byte every 0.1 s: each read is quick, the whole is not
            try:
                sock.sendall(bytes([byte]))
            except OSError:
                break
            if select.select([sock], [], [], 0.1)[0]:
                break
        assert b"too slow: say hello within 1 s" in _answer(sock)
    assert time.monotonic() - started < 1.0 + TIMEOUT / 2


def test_slow_connections_never_keep_the_guest_out(hosted):
    # a waiting connection is never pushed out within its grace: a crowd within it is let in over the bound
    server = hosted(GAME_NAMES[0], bounds=Bounds(hello=30.0, pending=8, pending_per_address=4, grace=30.0))
    held = _trickling(server.port, 40)  # far more than the bound, all from this address, all slow
    try:
        assert Guest(server.port, server.code).client.state["you"] is not None
        assert Guest(server.port, server.watch_code, "watch").client.state["you"] is None
    finally:
        for sock in held:
            sock.close()


def test_past_its_grace_the_oldest_waiting_connection_makes_room(hosted):
    server = hosted(GAME_NAMES[0], bounds=Bounds(hello=30.0, pending=8, pending_per_address=4, grace=0.0))
    held = _trickling(server.port, 4)
    try:
        late = _trickling(server.port, 1)  # a fifth from this address: the oldest goes
        answer = _answer(held[0])
        assert b"another connection needs the place" in answer or answer == b"<reset>"
        assert Guest(server.port, server.code).client.state["you"] is not None
        late[0].close()
    finally:
        for sock in held:
            sock.close()


def test_connections_waiting_to_say_hello_have_a_hard_bound(hosted):
    server = hosted(GAME_NAMES[0], bounds=Bounds(hello=30.0, pending_hard=10))
    held = _trickling(server.port, 10)
    try:
        assert b"too many connections waiting to say hello" in raw(server.port, b"")
    finally:
        for sock in held:
            sock.close()
    deadline = time.monotonic() + TIMEOUT
    while server._call(lambda: len(server.peers)) and time.monotonic() < deadline:
        time.sleep(0.02)  # until the host has seen them go
    assert Guest(server.port, server.code).client.state["you"] is not None


def test_spectators_are_bounded_but_never_the_guest(hosted):
    server = hosted(GAME_NAMES[0], bounds=Bounds(connections=2))
    watchers = [Guest(server.port, server.watch_code, "watch") for _ in range(2)]
    with pytest.raises(ConnectError, match="no room for another spectator"):
        Guest(server.port, server.watch_code, "watch")
    assert Guest(server.port, server.code).client.state["you"] is not None
    assert all(not watcher.client.closed.is_set() for watcher in watchers)


def test_the_host_listens_on_localhost_unless_public(hosted):
    from games.clock import TimeControl  # noqa: F401  (the constructor's arguments)
    from tui.net.host import HostServer
    from tui.net.referee import Referee
    server = hosted(GAME_NAMES[0])
    assert server.bind == "127.0.0.1"
    public = HostServer(Referee(GAME_NAMES[0], now=time.monotonic), public=True)
    assert public.bind == "0.0.0.0"


def _gone(server, guest: Guest) -> None:
    guest.client.close()
    guest.client.closed.wait(TIMEOUT)
    deadline = time.monotonic() + TIMEOUT
    while server.guest_present() and time.monotonic() < deadline:
        time.sleep(0.02)


def test_the_clock_starts_with_the_guest_and_runs_down_an_absent_players_time(hosted):
    name = GAME_NAMES[0]
    line = game_kind(name).samples.line
    clock = [100.0]
    server = hosted(name, clock="1+0", now=lambda: clock[0])
    assert server.state()["clock"]["running"] is None and server.state()["paused"]  # waiting for the guest
    guest = Guest(server.port, server.code)
    assert server.state()["clock"]["running"] == 0
    clock[0] += 10
    _gone(server, guest)
    state = server.state()  # on a clock nothing pauses: the host may move, the absent guest's time runs
    assert not state["paused"] and state["clock"]["running"] == 0
    assert state["away"] == {"side": 1, "seconds": 0.0, "limit": 60.0, "claimable": False}
    assert server.act("move", move=line[0]) is None
    clock[0] += 30
    state = server.state()
    assert state["clock"]["running"] == 1 and state["clock"]["left"] == [50.0, 30.0]
    again = Guest(server.port, server.code)  # back within the limit: the game goes on
    assert again.client.state["away"] is None and again.client.state["outcome"] is None
    clock[0] += 30  # the guest's own flag falls while it is here
    again.wait(lambda m: m["type"] == "state" and m["outcome"] is not None, "the flag")
    assert server.state()["outcome"]["reason"] == "time"


def test_a_player_away_past_the_limit_loses_by_abandonment_on_a_clock(hosted):
    name = GAME_NAMES[0]
    clock = [100.0]
    server = hosted(name, clock="60+0", now=lambda: clock[0])
    watcher = Guest(server.port, server.watch_code, "watch")
    guest = Guest(server.port, server.code)
    _gone(server, guest)
    clock[0] += 59.9
    assert server.state()["outcome"] is None
    clock[0] += 0.2
    ended = watcher.wait(lambda m: m["type"] == "state" and m["outcome"] is not None, "the abandonment")
    assert ended["outcome"]["winner"] == 0 and ended["outcome"]["reason"] == "abandonment"


def test_without_a_clock_the_game_pauses_and_the_host_may_claim_it_after_the_limit(hosted):
    name = GAME_NAMES[0]
    clock = [100.0]
    server = hosted(name, now=lambda: clock[0], abandon=30.0)
    guest = Guest(server.port, server.code)
    _gone(server, guest)
    state = server.state()
    assert state["paused"] and not state["away"]["claimable"]
    assert "away for 30 s first" in server.act("claim")
    clock[0] += 31
    deadline = time.monotonic() + TIMEOUT
    while not server.state()["away"]["claimable"] and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.act("claim") is None
    assert server.state()["outcome"]["reason"] == "abandonment" and server.state()["outcome"]["winner"] == 0
    with pytest.raises(ProtocolError, match="unknown type"):  # a claim is the host's: no guest's message
        decode(b'{"type":"claim","seq":1,"ply":0}')


def test_draw_takeback_resign_and_rematch_go_through_both_players(hosted):
    name = GAME_NAMES[0]
    line = game_kind(name).samples.line
    server = hosted(name)
    guest = Guest(server.port, server.code)
    play_line(server, guest, line[:3])
    # the host (who moved last) asks to take its move back; the guest declines, then accepts
    assert server.act("offer", what="takeback") is None
    assert guest.wait(lambda m: m["type"] == "state" and m["offer"], "the offer")["offer"] == {"what": "takeback", "by": 0}
    assert "the other player answers" in server.act("answer", what="takeback", accept=True)
    guest.client.send("answer", what="takeback", accept=True)
    assert guest.state_at(2)["moves"] == server.state()["moves"] == list(line[:2])
    # a draw offered by the guest out of turn, accepted by the host
    guest.client.send("offer", what="draw")
    guest.wait(lambda m: m["type"] == "state" and m["offer"], "the draw offer")
    assert "no rematch offer" in server.act("answer", what="rematch", accept=True)
    assert server.act("answer", what="draw", accept=True) is None
    assert server.state()["outcome"]["reason"] == "agreement"
    assert "the game is over" in server.act("resign")
    # a rematch: the sides change over and the moves start again
    guest.client.send("offer", what="rematch")
    guest.wait(lambda m: m["type"] == "state" and m["offer"], "the rematch offer")
    assert server.act("answer", what="rematch", accept=True) is None
    state = guest.wait(lambda m: m["type"] == "state" and m["number"] == 2, "the rematch")
    assert state["you"] == 0 and state["moves"] == [] and state["outcome"] is None
    guest.client.send("resign")
    assert guest.wait(lambda m: m["type"] == "state" and m["outcome"], "the resignation")["outcome"]["winner"] == 1


GUEST_SCRIPT = """
import sys, time
from tui.net.client import Client
client = Client(("127.0.0.1", int(sys.argv[1])), sys.argv[2])
state = client.connect()
client.move(sys.argv[3])
while client.state["ply"] == state["ply"]:
    time.sleep(0.01)
print("moved", flush=True)
time.sleep(60)
"""


def test_a_guest_killed_mid_game_reconnects_with_its_code_and_the_game_resumes(hosted):
    name = GAME_NAMES[0]
    line = game_kind(name).samples.line
    server = hosted(name, clock="5+0", host_side=1)
    process = subprocess.Popen([sys.executable, "-c", GUEST_SCRIPT, str(server.port), server.code, line[0]],
                               stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout.readline().strip() == "moved"
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
    deadline = time.monotonic() + TIMEOUT
    while server.guest_present():
        assert time.monotonic() < deadline, "the host never saw the guest go"
        time.sleep(0.02)
    away = server.state()  # on a clock nothing pauses: the host, to move, has its clock running
    assert away["moves"] == list(line[:1]) and away["clock"]["running"] == 1 and away["away"]["side"] == 0
    guest = Guest(server.port, server.code)
    assert guest.client.state["moves"] == list(line[:1]) and guest.client.state["away"] is None
    assert guest.client.state["seq"] == 1  # the numbering goes on from the killed client's
    play_line(server, guest, line[1:5])
    assert server.state()["moves"] == list(line[:5])


def test_a_second_guest_cannot_take_a_connected_guests_seat(hosted):
    server = hosted(GAME_NAMES[0])
    Guest(server.port, server.code)
    with pytest.raises(ConnectError, match="seat is taken"):
        Guest(server.port, server.code)


@pytest.mark.parametrize("text", ["127.0.0.1", "host:0", "host:x", ":7", "a:99999"])
def test_bad_addresses_are_one_line(text):
    with pytest.raises(ValueError, match="expected HOST:PORT"):
        parse_address(text)


# -- two apps over the socket -----------------------------------------------------------------------


def app_of(link):
    from tui.app.app import TuiGamesApp

    app = TuiGamesApp(friend=link)
    app.animation_level = "none"
    return app


def network_screen(app):
    from tui.app.screens.network_game import NetworkGameScreen

    for screen in reversed(app.screen_stack):
        if isinstance(screen, NetworkGameScreen):
            return screen
    return None


def saved_text(app) -> str:
    """The record the game screen's save writes (as :meth:`GameCommands.save` makes it; the dialog
    itself is not opened: two apps in one process share Textual's notion of the active app)."""
    import datetime

    screen = network_screen(app)
    setup = screen.controller.setup
    notes, main = screen.commands.tree_notes()
    return game_kind(setup.game).records.text(main, first_player=setup.record_name(0),
                                              second_player=setup.record_name(1),
                                              date=datetime.date(2026, 1, 1), notes=notes)


@pytest.mark.slow
@pytest.mark.parametrize("name", GAME_NAMES)
async def test_two_apps_play_a_full_game_and_save_the_same_record(name):
    """The host's app and the guest's over 127.0.0.1: moves typed on either side reach the other,
    the board is turned to the guest, the game ends the same on both, and both save one record."""
    from app_pilot import wait_for
    from tui.net.link import GuestLink, HostLink
    from games.clock import TimeControl

    start, moves = game_kind(name).samples.ended
    host_link = HostLink(name, start, host_side=0, control=TimeControl.parse("5+0"))
    guest_link = GuestLink(("127.0.0.1", host_link.server.port), host_link.server.code)
    host, guest = app_of(host_link), app_of(guest_link)
    async with host.run_test(size=(120, 40)) as hp, guest.run_test(size=(120, 40)) as gp:
        await wait_for(hp, lambda: network_screen(host) is not None, "the host's game")
        await wait_for(gp, lambda: network_screen(guest) is not None, "the guest's game")
        hs, gs = network_screen(host), network_screen(guest)
        assert gs.remote.you == 1
        await wait_for(gp, lambda: gs.board.side_at_bottom(1) == gs.clocks.bottom == 1, "the guest's side at the bottom")
        for ply, text in enumerate(moves, start=len(hs.moves)):
            screen = hs if hs.game.turn == hs.remote.you else gs
            screen.move_input.enter(text)  # as the move box does on Enter (a key press is tested below)
            await wait_for(hp, lambda: len(hs.moves) > ply, f"the host to see move {text}")
            await wait_for(gp, lambda: len(gs.moves) > ply, f"the guest to see move {text}")
        assert hs.moves == gs.moves and hs.outcome() == gs.outcome() is not None
        assert saved_text(host) == saved_text(guest)


@pytest.mark.slow
async def test_the_friend_screen_hosts_and_the_host_asks_before_quitting_with_unsaved_moves():
    """Play a friend → Host opens the game with the join code shown; a host with unsaved moves is asked
    before quitting, as for any game."""
    from app_pilot import wait_for
    from textual.widgets import Button
    from tui.app.app import TuiGamesApp
    from tui.app.messages import OpenFriend
    from tui.app.screens.dialogs import ConfirmDialog
    from tui.app.screens.friend import FriendScreen

    app = TuiGamesApp()
    app.animation_level = "none"
    async with app.run_test(size=(120, 40)) as pilot:
        app.post_message(OpenFriend())
        await wait_for(pilot, lambda: isinstance(app.screen, FriendScreen), "the friend screen")
        app.screen.query_one("#friend-host-button", Button).press()
        await wait_for(pilot, lambda: network_screen(app) is not None, "the hosted game")
        screen = network_screen(app)
        await wait_for(pilot, lambda: "join: tui-games join 127.0.0.1:" in screen.message_text, "the join code")
        server = screen.network.server
        assert server.code in screen.message_text and server.watch_code in screen.message_text
        guest = Guest(server.port, server.code)
        line = game_kind(screen.controller.setup.game).samples.line
        screen.move_input.value = line[0]
        screen.move_input.focus()
        await pilot.press("enter")
        guest.state_at(1)
        await wait_for(pilot, lambda: len(screen.moves) == 1, "the host's move on its board")
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the question before quitting")
        assert app.screen.topic == "quitting" and app.is_running


@pytest.mark.slow
async def test_a_dropped_guest_app_joins_again_by_itself_and_the_game_goes_on(hosted):
    from app_pilot import wait_for
    from tui.net.link import GuestLink

    name = GAME_NAMES[0]
    line = game_kind(name).samples.line
    server = hosted(name, clock="5+0")
    app = app_of(GuestLink(("127.0.0.1", server.port), server.code))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: network_screen(app) is not None, "the guest's game")
        screen = network_screen(app)
        assert server.act("move", move=line[0]) is None
        await wait_for(pilot, lambda: len(screen.moves) == 1, "the host's move")
        # the host drops the guest's connection (as a lost network would)
        server._call(lambda: [server._close(peer, None) for peer in list(server.peers)])
        await wait_for(pilot, lambda: not server.guest_present(), "the host to see the guest gone")
        await wait_for(pilot, lambda: "joining again" in screen.message_text, "the guest to say it joins again")
        await wait_for(pilot, lambda: server.guest_present(), "the guest to join again")
        screen.move_input.value = line[1]
        screen.move_input.focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(screen.moves) == 2, "the guest's move after joining again")
        assert server.state()["moves"] == list(line[:2]) and not server.state()["paused"]


@pytest.mark.skipif(__import__("shutil").which("openssl") is None, reason="no openssl to make a certificate")
def test_tls_with_the_fingerprint_both_sides_show():
    from tui.net.link import GuestLink, HostLink

    name = GAME_NAMES[0]
    line = game_kind(name).samples.line
    host = HostLink(name, tls=True)
    try:
        assert any(host.fingerprint in where for where in host.where) and len(host.fingerprint) == 95
        port, code = host.server.port, host.server.code
        guest = GuestLink(("127.0.0.1", port), code, tls=True, fingerprint=host.fingerprint.lower())
        assert guest.fingerprint == host.fingerprint and any(host.fingerprint in w for w in guest.where)
        host.act("move", move=line[0])
        deadline = time.monotonic() + TIMEOUT
        while guest.state().get("ply") != 1:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        guest.close()
        wrong = ":".join(["00"] * 32)
        with pytest.raises(ConnectError, match="someone may be in the middle"):
            GuestLink(("127.0.0.1", port), code, tls=True, fingerprint=wrong)
        with pytest.raises(ConnectError):  # plain text to a TLS host
            GuestLink(("127.0.0.1", port), code, timeout=3)
        assert host.state()["moves"] == [line[0]]
    finally:
        host.close()


@pytest.mark.slow
async def test_the_host_app_offers_the_claim_once_an_absent_friend_passes_the_limit():
    from app_pilot import wait_for
    from textual.widgets import Button
    from tui.app.screens.dialogs import ConfirmDialog
    from tui.net.link import HostLink

    link = HostLink(GAME_NAMES[0], abandon=0.5)  # no clock: the game pauses, then may be claimed
    app = app_of(link)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: network_screen(app) is not None, "the host's game")
        screen = network_screen(app)
        guest = Guest(link.server.port, link.server.code)
        await wait_for(pilot, lambda: link.server.guest_present(), "the guest")
        guest.client.close()
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the question to claim")
        assert "away for over" in str(app.screen.question)
        await wait_for(pilot, lambda: bool(app.screen.query("#claim")), "the dialog's buttons")
        app.screen.query_one("#claim", Button).press()
        await wait_for(pilot, lambda: screen.outcome() is not None, "the game claimed")
        assert str(screen.outcome().reason) == "abandonment" and screen.outcome().winner == 0
    link.close()
