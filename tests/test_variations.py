"""The tree of moves with variations, comments and NAGs, and every game's records of it."""

from __future__ import annotations

import io

import chess
import chess.pgn
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import GAME_NAMES, game_kind, new_game
from games.reading import read_records
from games.records import RecordError, RecordNotes
from games.variations import MoveTree, movetext_tokens, pgn_style_tokens, read_movetext


def _annotated_tree(name: str) -> tuple[MoveTree, object]:
    """The game's samples' line as the main line, with a comment and NAGs, a variation
    (another legal second move) holding a nested variation, and a starting comment;
    and the game at the main line's end."""
    line = game_kind(name).samples.line
    game = new_game(name)
    texts = []
    for text in line:
        texts.append(game.format_move(game.parse_move(text)))
        game.play(game.parse_move(text))
    tree = MoveTree.of_moves(texts, None, new_game(name).turn, 1)
    main = tree.mainline()
    main[0].comment = "a first move"
    main[0].nags = [1]
    main[1].nags = [5, 14]
    after_first = new_game(name)
    after_first.play(after_first.parse_move(texts[0]))
    other = next(move for move in after_first.legal_move_texts() if move != texts[1])
    variation = main[0].add_variation(other, comment="the other way")
    variation.starting_comment = "or"
    after_first.play(after_first.parse_move(other))
    replies = after_first.legal_move_texts()
    variation.add_variation(replies[0])
    if len(replies) > 1:
        variation.add_variation(replies[1]).nags = [4]  # nested: an alternative to the reply
    return tree, game


def test_follow_promote_remove_and_copy() -> None:
    tree = MoveTree.of_moves(["e4", "e5", "Nf3"])
    e4 = tree.variations[0]
    c5 = e4.follow("c5")
    assert e4.follow("e5") is e4.variations[0] and e4.follow("c5") is c5
    assert [node.move for node in e4.variations] == ["e5", "c5"] and not c5.is_main_line()
    copied = tree.copy()
    assert copied.key() == tree.key() and copied.find(c5.path()).move == "c5"
    assert c5.promote() and tree.mainline()[-1] is c5 and c5.is_main_line()
    assert copied.key() != tree.key()
    assert c5.remove() is e4 and [node.move for node in e4.variations] == ["e5"]
    with pytest.raises(ValueError):
        tree.remove()
    assert (tree.number(e4), tree.mover(e4), tree.label(e4.variations[0], numbered=True)) == (1, 0, "1...")


def test_movetext_numbers_variations_after_comments_and_marks() -> None:
    tree = MoveTree.of_moves(["e4", "e5", "Nf3", "Nc6"])
    e4, e5, nf3, _ = tree.mainline()
    e5.comment, e5.nags = "solid", [1, 14]
    c5 = e4.add_variation("c5", nags=[5])
    c5.add_variation("Nf3").add_variation("d6")
    c5.variations[0].add_variation("Nc3").starting_comment = "or"
    text = " ".join(movetext_tokens(tree))
    assert text == "1. e4 e5! $14 {solid} (1... c5!? 2. Nf3 d6 ({or} 2... Nc3)) 2. Nf3 Nc6"
    again = read_movetext(pgn_style_tokens(text), MoveTree())
    assert again.key() == tree.key()


@pytest.mark.parametrize("text", ["1. e4 (", "( 1. e4 )", "1. e4 e5 ) 2. d4", "1. e4 ( ) e5"])
def test_movetext_that_makes_no_tree_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        read_movetext(pgn_style_tokens(text), MoveTree())


@given(st.lists(st.sampled_from(["a", "b", "c"]), max_size=12), st.data())
@settings(max_examples=60, deadline=None)
def test_movetext_reads_back_any_tree(moves: list[str], data: st.DataObject) -> None:
    """Moves added one by one at random places (following or branching), with random
    comments and marks, read back from their move text as the same tree."""
    tree = MoveTree()
    nodes = [tree]
    for move in moves:
        node = data.draw(st.sampled_from(nodes)).follow(move)
        node.comment = data.draw(st.sampled_from(["", "hm", "a b"]))
        node.nags = data.draw(st.sampled_from([[], [1], [6], [2, 14]]))
        if node not in nodes:
            nodes.append(node)
    again = read_movetext(pgn_style_tokens(" ".join(movetext_tokens(tree))), MoveTree())
    assert again.key() == tree.key()


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_record_format_keeps_variations_comments_and_nags(name: str) -> None:
    tree, game = _annotated_tree(name)
    records = game_kind(name).records
    text = records.text(game, first_player="a", second_player="b", notes=RecordNotes(tree=tree))
    (loaded,) = read_records(name, text)
    assert loaded.tree is not None and loaded.tree.key() == tree.key()
    assert list(loaded.moves) == [node.move for node in tree.mainline()]
    assert loaded.tree.mainline()[0].comment == "a first move"


def test_python_chess_reads_a_saved_tree_as_it_was() -> None:
    tree, game = _annotated_tree("chess")
    text = game_kind("chess").records.text(game, first_player="a", second_player="b", notes=RecordNotes(tree=tree))
    pgn = chess.pgn.read_game(io.StringIO(text))
    assert pgn is not None and not pgn.errors
    assert [node.san() for node in pgn.mainline()] == [node.move for node in tree.mainline()]
    first = pgn.variations[0]
    assert first.comment == "a first move" and first.nags == {1}
    assert first.variations[0].nags == {5, 14}
    other = first.variations[1]
    assert other.starting_comment == "or" and other.comment == "the other way"
    assert len(other.variations) == 2 and other.variations[1].nags == {4}


def test_a_pdn_with_a_variation_reads_and_an_illegal_variation_is_cut() -> None:
    text = ('[Event "x"]\n\n1. 11-15 {Old Fourteenth} 23-19 (1... 24-20 $1 15-19 (2. 8-11 28-24)) '
            '2. 8-11?! *\n')
    (loaded,) = read_records("checkers", text)
    assert loaded.moves == ("11-15", "23-19", "8-11")
    tree = loaded.tree
    assert tree is not None
    first = tree.mainline()[0]
    assert [node.move for node in first.variations] == ["23-19", "24-20"]
    assert first.variations[1].nags == [1] and tree.mainline()[2].nags == [6]
    assert [node.move for node in first.variations[1].variations] == ["15-19", "8-11"]
    assert first.variations[1].variations[1].variations[0].move == "28-24"
    (bad,) = read_records("checkers", text.replace("28-24", "1-5"))  # a move that is no move here
    assert bad.tree is not None and [node.move for node in bad.tree.walk()][-1] == "8-11"


def test_a_move_list_with_unpaired_parentheses_names_its_line() -> None:
    name = next(name for name in GAME_NAMES if game_kind(name).records.extension == "txt")
    tree, game = _annotated_tree(name)
    text = game_kind(name).records.text(game, first_player="a", second_player="b", notes=RecordNotes(tree=tree))
    broken = text.replace(")", "", 1)
    with pytest.raises(RecordError, match="not closed|closes no"):
        read_records(name, broken)
