"""Game-independent search, tournaments and learning.

Everything here talks to games only through the :class:`games.Game` protocol
and never imports Textual (SPEC §2).
"""
