"""Friend games are fair and end cleanly: the engine aids only when both players agreed (and both
records say so, byte for byte), a spectator with no command that acts on the game, and a host that
quits (ctrl+q, leaving its screen, a stop signal to its process) telling its guests the game ended,
so they stop joining again -- while a dropped line is still joined again.

Real sockets on 127.0.0.1; the apps under Textual's Pilot; the signalled host in a process of its own.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from games import GAME_NAMES, game_kind
from tui.net.client import AidsAsked
from tui.net.link import GuestLink, HostLink

from netplay import TIMEOUT, Guest, hosted  # noqa: F401  (hosted: a fixture)
from test_network import app_of, network_screen, saved_text

NAME = GAME_NAMES[0]
LINE = game_kind(NAME).samples.line


def _until(condition, what: str) -> None:
    deadline = time.monotonic() + TIMEOUT
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


# -- the agreement, on the wire ---------------------------------------------------------------------


def test_a_guest_that_does_not_agree_to_the_aids_never_takes_the_seat(hosted):
    server = hosted(NAME, clock="5+0", aids=True)
    with pytest.raises(AidsAsked, match="allows engine aids"):
        Guest(server.port, server.code)
    state = server.state()
    assert not server.guest_present() and state["paused"] and state["clock"]["running"] is None
    guest = Guest(server.port, server.code, aids=True)
    assert guest.client.state["aids"] is True and server.guest_present()
    watcher = Guest(server.port, server.watch_code, "watch")  # a spectator is not asked
    assert watcher.client.state["aids"] is True


def test_without_aids_the_state_says_so_and_an_agreeing_guest_joins(hosted):
    server = hosted(NAME)
    guest = Guest(server.port, server.code, aids=True)
    assert guest.client.state["aids"] is False


# -- the end of the game, on the wire ---------------------------------------------------------------


def test_a_host_that_stops_says_the_game_ended_and_a_dropped_line_does_not(hosted):
    heard: list[tuple[str, object]] = []
    host = HostLink(NAME)
    try:
        guest = GuestLink(("127.0.0.1", host.server.port), host.server.code)
        guest.listen(lambda kind, value: heard.append((kind, value)))
        # a dropped line: closed without a word, joined again as before
        host.server._call(lambda: [host.server._close(peer, None) for peer in list(host.server.peers)])
        _until(lambda: any(kind == "closed" for kind, _ in heard), "the dropped line")
        assert not guest.client.ended
        guest.reconnect()
        _until(host.server.guest_present, "the guest back")
    finally:
        host.close()
    _until(lambda: any(kind == "ended" for kind, _ in heard), "the host's end")
    assert guest.client.ended and ("ended", "the host ended the game") in heard


HOST_SCRIPT = """
import signal, sys, threading, time
from tui.net.link import HostLink
from tui.app.app import TuiGamesApp

def ready():  # the hosting screen is up once the app's loop answers the stop signals
    while signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, None):
        time.sleep(0.02)
    print(link.server.port, link.server.code, flush=True)

link = HostLink(sys.argv[1])
threading.Thread(target=ready, daemon=True).start()
app = TuiGamesApp(friend=link)
app.run(headless=True)
sys.exit(app.return_code or 0)
"""


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_signalled_host_process_tells_its_guest_the_game_ended(sig):
    process = subprocess.Popen([sys.executable, "-c", HOST_SCRIPT, NAME], stdout=subprocess.PIPE, text=True,
                               start_new_session=True)
    try:
        assert process.stdout is not None
        port, code = process.stdout.readline().split()
        guest = Guest(int(port), code)
        os.kill(process.pid, sig)
        assert guest.client.closed.wait(TIMEOUT), "the guest never heard the host go"
        assert guest.client.ended and guest.client.close_reason == "the host ended the game"
        assert process.wait(TIMEOUT) == 128 + sig
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


# -- the apps ---------------------------------------------------------------------------------------


@pytest.mark.slow
async def test_a_hint_without_aids_is_refused_in_one_line():
    from app_pilot import wait_for
    from tui.app.screens.network_game import NO_AIDS

    link = HostLink(NAME)
    app = app_of(link)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: network_screen(app) is not None, "the host's game")
        screen = network_screen(app)
        Guest(link.server.port, link.server.code)
        await wait_for(pilot, lambda: not screen.remote.state["paused"], "the guest")
        for command in ("hint", "analyse", "report", "best_line"):
            await pilot.press(*{"hint": ("ctrl+f",), "analyse": ("ctrl+e",), "report": ("ctrl+k",),
                                "best_line": ("ctrl+w",)}[command])
            await wait_for(pilot, lambda: screen.message_text == NO_AIDS, f"the refusal of {command}")
            screen.say("")
        assert "\n" not in NO_AIDS and len(NO_AIDS) < 80
        titles = {command.title for command in screen.palette_commands()}
        assert not titles & {"Hint", "Analysis on/off", "Game report", "Best line"} and "Offer a draw" in titles
        assert screen.coach.hints == [0, 0] and not screen.coach.analysing and screen.coach.busy is None
        assert not screen.query_one("#eval-bar").display
        # a variation played in a position reviewed is an analysis board: refused too
        assert link.server.act("move", move=LINE[0]) is None
        await wait_for(pilot, lambda: len(screen.moves) == 1, "the host's move")
        screen.commands.show_ply(0)
        assert screen.commands.refuse_move() and "no variations" in screen.message_text
        screen.move_list.post_message(screen.move_list.PlayHere())  # Enter on a move of the list
        await wait_for(pilot, lambda: "plays on from its last move" in screen.message_text, "Enter refused")
        assert app.screen is screen and screen.moves == [LINE[0]]  # no level offered, no dialog


@pytest.mark.slow
async def test_with_aids_agreed_the_hint_works_and_both_records_say_so_identically():
    from app_pilot import wait_for

    host_link = HostLink(NAME, aids=True)
    with pytest.raises(AidsAsked):
        GuestLink(("127.0.0.1", host_link.server.port), host_link.server.code)
    guest_link = GuestLink(("127.0.0.1", host_link.server.port), host_link.server.code, aids=True)
    host, guest = app_of(host_link), app_of(guest_link)
    async with host.run_test(size=(120, 40)) as hp, guest.run_test(size=(120, 40)) as gp:
        await wait_for(hp, lambda: network_screen(host) is not None, "the host's game")
        await wait_for(gp, lambda: network_screen(guest) is not None, "the guest's game")
        hs, gs = network_screen(host), network_screen(guest)
        await wait_for(hp, lambda: not hs.remote.state["paused"], "the guest seated")
        hs.commands.run("hint")  # as ctrl+f does (two apps in one process share Textual's active app)
        await wait_for(hp, lambda: hs.coach.hints[0] == 1, "the host's hint", 60)
        assert hs.message_text.startswith("hint: ") and hs.query_one("#eval-bar").display
        hs.move_input.enter(LINE[0])
        await wait_for(gp, lambda: len(gs.moves) == 1, "the host's move on the guest's board")
        gs.move_input.enter(LINE[1])
        await wait_for(hp, lambda: len(hs.moves) == 2, "the guest's move on the host's board")
        await wait_for(gp, lambda: len(gs.moves) == 2, "the guest's move back from the host")
        host_record, guest_record = saved_text(host), saved_text(guest)
        assert host_record == guest_record
        assert '"allowed"' in host_record and "Aids" in host_record and "hint" not in host_record.lower()
    host_link.close()


@pytest.mark.slow
async def test_a_spectator_has_no_acting_commands_and_its_quit_asks_and_keeps_nothing(tmp_path):
    from app_pilot import wait_for
    from tui.app.screens.dialogs import ConfirmDialog

    data = os.environ["TUI_GAMES_DATA_DIR"]
    before = sorted(os.walk(data)) if os.path.isdir(data) else []
    link = HostLink(NAME)
    try:
        Guest(link.server.port, link.server.code)
        watcher = GuestLink(("127.0.0.1", link.server.port), link.server.watch_code, watch=True)
        app = app_of(watcher)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_for(pilot, lambda: network_screen(app) is not None, "the spectator's game")
            screen = network_screen(app)
            link.act("move", move=LINE[0])
            await wait_for(pilot, lambda: len(screen.moves) == 1, "the move on the spectator's board")
            acting = ("undo", "offer_draw", "resign", "rematch", "swap", "hint")
            for name in acting:
                assert screen.check_action("command", (name,)) is False, name
            titles = {command.title for command in screen.palette_commands()}
            assert not titles & {"Undo", "Offer a draw", "Resign", "Hint"} and "Save game" in titles
            footer = {binding.action for _, binding, enabled, _ in screen.active_bindings.values() if enabled}
            assert not any(f"'{name}'" in action for action in footer for name in acting)
            await pilot.press("ctrl+z")  # nobody is asked anything
            assert "asked your friend" not in screen.message_text
            assert not screen.keeps_for_continue
            await pilot.press("ctrl+q")
            await wait_for(pilot, lambda: not app.is_running or isinstance(app.screen, ConfirmDialog), "the quit")
            assert not isinstance(app.screen, ConfirmDialog)
    finally:
        link.close()
    after = sorted(os.walk(data)) if os.path.isdir(data) else []
    assert after == before  # nothing kept for Continue


@pytest.mark.slow
async def test_a_guest_app_says_the_host_ended_the_game_and_stops_joining_again():
    """The host quits (its app ends, nothing to save): its guest says the game ended, and joins no more."""
    from app_pilot import wait_for

    link = HostLink(NAME)
    guest_app = app_of(GuestLink(("127.0.0.1", link.server.port), link.server.code))
    host_app = app_of(link)
    async with guest_app.run_test(size=(120, 40)) as gp:
        await wait_for(gp, lambda: network_screen(guest_app) is not None, "the guest's game")
        gs = network_screen(guest_app)
        async with host_app.run_test(size=(120, 40)) as hp:
            await wait_for(hp, lambda: network_screen(host_app) is not None, "the host's game")
            host_app.exit()  # as ctrl+q with nothing to save; the app's screens go as it ends
        await wait_for(gp, lambda: "the host ended the game" in gs.message_text, "the guest told", 5)
        assert gs.ended and gs.remote.closed and "joining again" not in gs.message_text
        assert not [worker for worker in gs.workers if worker.group == "rejoin"]
        assert gs.check_action("command", ("undo",)) is False  # nobody left to ask


@pytest.mark.slow
async def test_a_host_leaving_its_game_screen_ends_the_game_for_its_guest():
    from app_pilot import wait_for
    from tui.app.screens.start import StartScreen

    link = HostLink(NAME)
    app = app_of(link)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: network_screen(app) is not None, "the host's game")
        guest = Guest(link.server.port, link.server.code)
        await pilot.press("ctrl+n")  # nothing to save: back to the start screen at once
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
        assert guest.client.closed.wait(TIMEOUT) and guest.client.ended


def test_join_without_agreeing_leaves_without_taking_the_seat(hosted, monkeypatch, capsys):
    import io

    from tui.cli.main import main

    server = hosted(NAME, aids=True)
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n"))  # Enter: Leave, the default
    assert main(["join", f"127.0.0.1:{server.port}", server.code]) == 1
    out, err = capsys.readouterr()
    assert "join? [Leave] [Join]" in out and "you did not agree" in err and "--aids" in err
    assert not server.guest_present() and server.state()["paused"]


@pytest.mark.slow
async def test_the_friend_screen_asks_before_joining_a_game_with_aids():
    from textual.widgets import Button, Input

    from app_pilot import wait_for
    from tui.app.app import TuiGamesApp
    from tui.app.messages import OpenFriend
    from tui.app.screens.dialogs import ConfirmDialog
    from tui.app.screens.friend import AIDS_QUESTION, FriendScreen

    link = HostLink(NAME, aids=True)
    app = TuiGamesApp()
    app.animation_level = "none"
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            app.post_message(OpenFriend())
            await wait_for(pilot, lambda: isinstance(app.screen, FriendScreen), "the friend screen")
            app.screen.query_one("#friend-address", Input).value = f"127.0.0.1:{link.server.port}"
            app.screen.query_one("#friend-code", Input).value = link.server.code
            app.screen.query_one("#friend-join-button", Button).press()
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the question")
            assert app.screen.question == AIDS_QUESTION and not link.server.guest_present()
            await wait_for(pilot, lambda: bool(app.screen.query("#join")), "the dialog's buttons")
            app.screen.query_one("#join", Button).press()
            await wait_for(pilot, lambda: network_screen(app) is not None, "the joined game")
            screen = network_screen(app)
            assert screen.remote.state["aids"] and screen.aids_free and link.server.guest_present()
    finally:
        link.close()


KILLED_HOST_SCRIPT = """
import sys, time
from tui.net.link import HostLink
link = HostLink(sys.argv[1])
print(link.server.port, link.server.code, flush=True)
time.sleep(60)
"""


@pytest.mark.slow
async def test_a_guest_app_whose_host_was_killed_stops_once_nothing_listens(monkeypatch):
    """SIGKILL leaves the host no word to say: the guest's tries to join again are answered that nothing
    listens at the address, and after a few it says the host is gone and stops."""
    from app_pilot import wait_for
    from tui.app.screens import remote_turns

    monkeypatch.setattr(remote_turns, "RETRY_EVERY", 0.2)
    process = subprocess.Popen([sys.executable, "-c", KILLED_HOST_SCRIPT, NAME], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        port, code = process.stdout.readline().split()
        app = app_of(GuestLink(("127.0.0.1", int(port)), code))
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_for(pilot, lambda: network_screen(app) is not None, "the guest's game")
            screen = network_screen(app)
            os.kill(process.pid, signal.SIGKILL)
            await wait_for(pilot, lambda: "joining again" in screen.message_text, "the dropped line said")
            await wait_for(pilot, lambda: "the host is gone" in screen.message_text, "the host gone", 10)
            assert screen.ended
            await wait_for(pilot, lambda: not [w for w in screen.workers if w.group == "rejoin"], "no more tries")
    finally:
        process.kill()
        process.wait()
