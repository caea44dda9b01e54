"""``serve``: the whole app in a web browser, for its owner only.

Each browser tab gets its own ``tui-games`` in a terminal of the server's (textual-serve), behind
the guard of :class:`tui.web_server.OwnerServer`: a secret token in the address printed, the
server's own Host and Origin only, at most ``--max-sessions`` apps, each ended after
``--idle-minutes`` without a key.  The apps it starts open and save files in one folder only
(``--files``) and run no other program unless ``--allow-programs`` (:mod:`tui.served`).  It listens
on 127.0.0.1 unless told otherwise; another interface without ``--tls`` is said loudly on stderr,
and with ``--allow-programs`` refused.
"""

from __future__ import annotations

import argparse
import ipaddress
import math
import os
import shlex
import socket
import sys
from pathlib import Path

from .common import PROG, UsageError, path_arg, whole

#: The interface served by default.
LOOPBACK = "127.0.0.1"
#: The interface ``--public`` listens on: every one.
EVERY_INTERFACE = "0.0.0.0"


def minutes(text: str) -> float:
    """An argparse type: a number of minutes, more than 0 and at most a week."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not (math.isfinite(value) and 0 < value <= 7 * 24 * 60):
        raise argparse.ArgumentTypeError(f"expected minutes like 30 (more than 0, at most a week), got {text!r}")
    return value


def add_commands(sub: argparse._SubParsersAction) -> None:
    s = sub.add_parser("serve", help="serve the app to your web browser (textual-serve), for you only",
                       description="Serve the whole app at the address printed (it holds a secret token): each "
                                   "browser tab runs its own tui-games, which opens and saves files in --files only "
                                   "and runs no other program unless --allow-programs. Listens on 127.0.0.1.")
    s.add_argument("--port", type=whole(1), default=8000, help="the port (default 8000)")
    s.add_argument("--host", default=LOOPBACK,
                   help="the interface to listen on, by address or name (default 127.0.0.1)")
    s.add_argument("--public", action="store_true", help="listen on every interface (with --tls, or warned about)")
    s.add_argument("--tls", action="store_true", help="https, with a certificate made for this run")
    s.add_argument("--max-sessions", type=whole(1), default=4, metavar="N",
                   help="browser tabs (app processes) served at once, at most (default 4)")
    s.add_argument("--idle-minutes", type=minutes, default=30.0, metavar="M",
                   help="end a session whose browser sent nothing for M minutes (default 30)")
    s.add_argument("--files", type=path_arg, default=None, metavar="DIR",
                   help="the one folder the served app opens and saves files in (default: the folder 'served' "
                        "in tui-games' data folder; made if missing)")
    s.add_argument("--allow-programs", action="store_true",
                   help="let the served app run other programs (uci:path=..., stockfish): only for a browser "
                        "you alone use")
    s.set_defaults(run=_cmd_serve)


def address_name(host: str) -> str:
    """The host a browser reaches ``host`` at: itself, or for every interface this machine's address
    on its default route (its name when it has none)."""
    try:
        unspecified = ipaddress.ip_address(host.strip("[]")).is_unspecified
    except ValueError:
        return host
    if not unspecified:
        return host.strip("[]")
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
            return str(probe.getsockname()[0])
        except OSError:
            return socket.gethostname()


def default_files() -> Path:
    """The served folder by default: ``served`` in tui-games' data folder (``TUI_GAMES_DATA_DIR`` first)."""
    override = os.environ.get("TUI_GAMES_DATA_DIR")
    if override:
        return Path(override).expanduser() / "served"
    import platformdirs

    return Path(platformdirs.user_data_dir("tui-games", appauthor=False)) / "served"


def files_folder(named: str | None) -> Path:
    """The folder the served app is confined to, made if missing; a one-line UsageError otherwise."""
    folder = Path(named).expanduser() if named is not None else default_files()
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{PROG} serve", f"--files {folder}: not a folder")
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"{PROG} serve", f"--files {folder}: {error.strerror or error}") from None
    if not folder.is_dir():
        raise UsageError(f"{PROG} serve", f"--files {folder}: not a folder")
    return folder.resolve()


def app_command(folder: Path, allow_programs: bool) -> str:
    """The shell command that starts one browser tab's app: in the served folder, with the served
    limits in its environment.  ``exec``: the app is the server's own child, and ends with it.
    ``-P``: the folder (where the app saves what it is told to) is not on the import path."""
    from ..served import served_environment

    variables = " ".join(f"{name}={shlex.quote(value)}"
                         for name, value in served_environment(folder, allow_programs).items())
    return (f"cd {shlex.quote(str(folder))} && export {variables} && "
            f"exec {shlex.quote(sys.executable)} -P -m tui.launch")


def _cmd_serve(args: argparse.Namespace) -> int:
    prog = f"{PROG} serve"
    try:
        from ..web_server import OwnerServer, is_loopback, new_token
    except ImportError:
        raise UsageError(prog, "textual-serve is not installed: pip install textual-serve") from None
    if args.port >= 65536:
        raise UsageError(prog, f"bad port {args.port}: 1 to 65535")
    if args.public and args.host != LOOPBACK:
        raise UsageError(prog, "--public listens on every interface: give it or --host, not both")
    listen = EVERY_INTERFACE if args.public else args.host.strip("[]")
    if not listen:
        raise UsageError(prog, "--host: expected an address or a name, got an empty one")
    local = is_loopback(listen)
    if not local and not args.tls and args.allow_programs:
        raise UsageError(prog, f"--allow-programs on {listen} without --tls would let whoever reads the "
                               "address off the network run programs here: add --tls, or serve on 127.0.0.1")
    folder = files_folder(args.files)
    context, fingerprint = None, None
    if args.tls:
        from ..net.tls import TlsError, host_context

        try:
            context, fingerprint = host_context()
        except TlsError as error:
            raise UsageError(prog, str(error)) from None
    server = OwnerServer(app_command(folder, args.allow_programs), host=listen, port=args.port,
                         name=address_name(listen), token=new_token(), max_sessions=args.max_sessions,
                         idle=args.idle_minutes * 60, ssl_context=context)

    def ready() -> None:
        if not local:
            _warn(listen, server.origin, args.tls, folder)
        print(f"serving tui-games at {server.url}  (Ctrl-C stops)", flush=True)
        if fingerprint is not None:
            print(f"its certificate's fingerprint: {fingerprint} (your browser will ask: compare it)", flush=True)
        programs = "may run other programs" if args.allow_programs else "run no other program"
        print(f"the apps open and save files in {folder} only and {programs}; at most {args.max_sessions} at "
              f"once, each ended after {args.idle_minutes:g} idle minutes", flush=True)

    try:
        server.serve(ready=ready)
    except OSError as error:
        raise UsageError(prog, f"cannot listen on {listen}:{args.port}: {error.strerror or error}") from None
    return 0


def _warn(listen: str, origin: str, tls: bool, folder: Path) -> None:
    """Say loudly, on stderr, what serving on an interface other than loopback exposes, and to whom."""
    who = "anyone who can reach this machine" if listen == EVERY_INTERFACE else f"anyone who can reach {listen}"
    lines = [f"WARNING: {PROG} serve listens on {listen}, not only on this machine: {who} on the network can "
             f"connect to {origin}.",
             "With the token, they get the whole app: games, engines, and the files in "
             f"{folder} (read and written)."]
    if not tls:
        lines.append("Without --tls the address, its token and everything shown travel in clear: whoever "
                     "sees the traffic can take the session. Add --tls, or serve on 127.0.0.1.")
    for line in lines:
        print(line, file=sys.stderr, flush=True)
