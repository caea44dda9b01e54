"""Playing a friend over the network: the wire protocol, the host (the referee) and the client.

``protocol`` says what a message is (newline-delimited JSON, versioned, each type with its
fields) and reads one line of the wire or refuses it in one line; ``referee`` is the game as the
host keeps it (no I/O: every change is a method that checks it first); ``host`` serves a referee on a
TCP socket (asyncio, in a thread of its own), ``client`` talks to one (a reader thread).  None of them
imports Textual: the app's friend screen and remote player sit on top (:mod:`tui.app.screens.friend`,
:mod:`tui.app.screens.remote_turns`).  Imports ``games`` only.  See ``docs/network.md``.
"""
