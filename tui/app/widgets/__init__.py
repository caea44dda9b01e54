"""Textual widgets of the game screen: the board, the move list, the engine panel."""
