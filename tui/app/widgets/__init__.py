"""Textual widgets of the game screen: the board and its painter, the move list and
the move input, the engine panel, the clocks (one side's view, and the game's two
with their timer) and the score chart."""
