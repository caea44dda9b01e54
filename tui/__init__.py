"""The ``tui-games`` command line and (Textual) terminal app: the only layer that draws.

Importing this package does not import Textual; the app's modules do, and the
command line loads them only when the app is started.
"""
