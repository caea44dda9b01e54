"""The chess piece-square network: accumulators kept up to date equal a
recomputation, the evaluation is colour-symmetric, files are checked, and a
tiny network trains in seconds from a dataset."""

from __future__ import annotations

import io
import random
import zipfile
from pathlib import Path

import chess
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import game_kind, new_game
from games.chess.evaluation import NETWORK_FILE, network
from games.chess.network import FORMAT, FORMAT_1, INPUTS, OTHER_VIEW, Accumulators, Network, NetworkError, input_indices, piece_boards


def random_network(hidden: int = 16, seed: int = 0) -> Network:
    rng = np.random.default_rng(seed)
    return Network.from_float(rng.normal(0, 0.05, (INPUTS, hidden)), rng.normal(0, 0.05, hidden),
                              rng.normal(0, 1.0, 2 * hidden), 0.3)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), undo_rate=st.floats(0.0, 0.6))
def test_accumulators_kept_up_to_date_equal_a_recomputation(seed: int, undo_rate: float) -> None:
    net = random_network()
    accumulators = Accumulators(net)
    chooser = random.Random(seed)
    board = chess.Board()
    for _ in range(120):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(chooser.choice(moves))  # captures, castling, en passant, promotions all come up
        if board.move_stack and chooser.random() < undo_rate:
            board.pop()
        kept = accumulators.of(board)
        assert np.array_equal(kept, net.accumulate(piece_boards(board)))
        assert accumulators.evaluate(board) == net.evaluate(board)
    assert accumulators.updates > 0


def test_a_search_evaluates_mostly_by_updates() -> None:
    net = random_network()
    accumulators = Accumulators(net)
    board = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
    for move in list(board.legal_moves):  # siblings, as a search visits them
        board.push(move)
        for reply in list(board.legal_moves)[:5]:
            board.push(reply)
            accumulators.evaluate(board)
            board.pop()
        board.pop()
    assert accumulators.refreshes == 1 and accumulators.updates > 100


@pytest.mark.parametrize("fen", [chess.STARTING_FEN,
                                 "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                                 "8/2k5/8/3P4/8/8/5K2/8 b - - 0 1"])
def test_the_evaluation_is_colour_symmetric(fen: str) -> None:
    net = random_network()
    board = chess.Board(fen)
    assert net.evaluate(board) == pytest.approx(net.evaluate(board.mirror()))
    assert sorted(input_indices(board)) == sorted(input_indices(board.mirror()))


def test_batch_equals_one_by_one() -> None:
    net = random_network()
    boards = [chess.Board(), chess.Board("8/2k5/8/3P4/8/8/5K2/8 b - - 0 1")]
    inputs = np.zeros((len(boards), INPUTS), dtype=np.float32)
    for row, board in enumerate(boards):
        inputs[row, input_indices(board)] = 1
    assert net.batch(inputs) == pytest.approx([net.evaluate(board) for board in boards])


def test_a_network_file_round_trips_and_is_never_overwritten(tmp_path: Path) -> None:
    net = random_network(hidden=8)
    path = net.save(tmp_path / "n.npz")
    again = Network.load(path)
    board = chess.Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    assert again.evaluate(board) == pytest.approx(net.evaluate(board))
    with pytest.raises(FileExistsError):
        net.save(path)


def _npz(**arrays: object) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def _good(**changes: object) -> dict[str, object]:
    arrays: dict[str, object] = dict(format=np.array(FORMAT), w1=np.zeros((INPUTS, 4), np.int32),
                                     b1=np.zeros(4, np.int32), w2=np.zeros(8, np.float32), b2=np.float32(0),
                                     scale=np.int32(1024))
    arrays.update(changes)
    return arrays


@pytest.mark.parametrize(("content", "words"), [
    (b"", "not a network file"),
    (b"PK\x03\x04 junk", "not a network file"),
    (b"game_id,ply\n0,1\n", "not a NumPy .npz archive"),
    (_npz(**_good(format=np.array("something else"))), "format"),
    (_npz(**_good(w1=np.zeros((100, 4), np.int32))), "wrong shapes"),
    (_npz(**_good(w2=np.zeros(5, np.float32))), "wrong shapes"),
    (_npz(**_good(w1=np.zeros((INPUTS, 4), np.float32))), "wrong types"),
    (_npz(**_good(w2=np.full(8, np.nan, np.float32))), "non-finite"),
    (_npz(**_good(format=np.array(FORMAT_1))), "wrong shapes"),  # format 1 reads one view: 4 output weights
    (_npz(**_good(w1=np.full((INPUTS, 4), 2**30, np.int64))), "too large"),
    (_npz(**{k: v for k, v in _good().items() if k != "b2"}), "no array"),
    (_npz(**_good(w2=np.array([object()] * 8, dtype=object))), "not a network file"),
])
def test_a_bad_network_file_is_one_line(tmp_path: Path, content: bytes, words: str) -> None:
    path = tmp_path / "bad.npz"
    path.write_bytes(content)
    with pytest.raises(NetworkError) as error:
        Network.load(path)
    assert words in str(error.value) and "\n" not in str(error.value)


def test_a_missing_network_file_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(NetworkError, match="no such file"):
        Network.load(tmp_path / "none.npz")


def test_the_bundled_network_is_the_network_heuristic() -> None:
    assert zipfile.is_zipfile(NETWORK_FILE) and NETWORK_FILE.stat().st_size <= 2 * 2**20
    net = Network.load(NETWORK_FILE)
    game = new_game("chess")
    game.play(game.parse_move("e4"))
    value = network(game, 1)  # Black to move
    assert value == -network(game, 0) and value == int(net.evaluate(game.board))
    assert "network" in game.HEURISTICS and game_kind("chess").network is not None


# ------------------------------------------------------------------ training
def test_a_tiny_network_trains_from_a_dataset_in_seconds(tmp_path: Path) -> None:
    from engines.learning.network_training import train_network
    from engines.learning.train import read_dataset
    from games import game_class
    from learning_data import positions, write_dataset

    data = write_dataset(tmp_path / "chess.csv", "chess", positions("chess", 120, seed=5), depth=1)
    dataset = read_dataset(data, game_class("chess"))
    fit = train_network(game_kind("chess").network, dataset, hidden=8, max_iter=5)
    assert fit.positions <= 120 and set(fit.metrics) == {"train", "test"} and fit.rounding_cp < 5
    board = chess.Board(dataset.positions[0])
    inputs = np.zeros((1, INPUTS), dtype=np.float32)
    inputs[0, input_indices(board)] = 1
    assert fit.network.batch(inputs)[0] == pytest.approx(fit.network.evaluate(board))


def test_the_trainer_learns_a_piece_count_and_the_same_seed_gives_the_same_weights() -> None:
    # A target the network can express (the side to move's knights less the other's, in pawns),
    # through both views; a second fit with the seed must be identical.
    from scipy.sparse import csr_matrix

    from engines.learning.network_training import fit_views

    from learning_data import random_boards

    rows, target = [], []
    for board in random_boards(3000, seed=3, max_plies=40):
        rows.append(input_indices(board))
        own = len(board.pieces(chess.KNIGHT, board.turn))
        target.append(float(own - len(board.pieces(chess.KNIGHT, not board.turn))))
    columns = np.asarray([index for row in rows for index in row], dtype=np.int32)
    starts = np.cumsum([0] + [len(row) for row in rows])
    own = csr_matrix((np.ones(len(columns), np.float32), columns, starts), shape=(len(rows), INPUTS))
    other = csr_matrix((own.data, np.asarray(OTHER_VIEW, np.int32)[own.indices], own.indptr), shape=own.shape)
    y = np.asarray(target)
    rows = np.arange(len(y))

    def fit() -> dict[str, np.ndarray]:
        return fit_views(own, other, y, rows[:2500], rows[2500:], hidden=8, seed=4, max_iter=100, scale=4.0,
                         rate=1e-2)[0].params

    weights = fit()
    net = Network.from_float(weights["w1"], weights["b1"], weights["w2"] * 100, float(weights["b2"][0]) * 100)
    predicted = net.batch(own[2500:]) / 100
    # Held-out positions: well under the error of the best constant (0), which is 0.174 knights here.
    assert np.abs(predicted - y[2500:]).mean() < 0.6 * np.abs(y[2500:]).mean()
    assert all(np.array_equal(weights[name], again) for name, again in fit().items())


def test_datasets_labelled_alike_are_joined_and_others_refused(tmp_path: Path, capsys) -> None:
    import json

    from cli_run import assert_usage_error, run
    from learning_data import positions, write_dataset

    first = write_dataset(tmp_path / "a.csv", "chess", positions("chess", 40, seed=7), depth=1)
    second = write_dataset(tmp_path / "b.csv", "chess", positions("chess", 40, seed=8), depth=1)
    out = tmp_path / "net.npz"
    code, stdout, _ = run(capsys, "train", "chess", "--data", str(first), str(second), "--model", "network",
                          "--hidden", "4", "--max-iter", "2", "--out", str(out))
    assert code == 0 and "datasets a.csv, b.csv: 80 rows from 2 games" in stdout
    meta = json.loads(out.with_suffix(".json").read_text())
    assert [part["file"] for part in meta["data"]["files"]] == ["a.csv", "b.csv"]
    assert f"--data {first} {second}" in meta["command"]
    deeper = write_dataset(tmp_path / "c.csv", "chess", positions("chess", 20, seed=9), depth=2)
    assert_usage_error(capsys, ["train", "chess", "--data", str(first), str(deeper), "--model", "network",
                                "--out", str(tmp_path / "n2.npz")], "labelled alike")
    assert_usage_error(capsys, ["train", "chess", "--data", str(first), str(tmp_path / "." / "a.csv"), "--model",
                                "network", "--out", str(tmp_path / "n3.npz")], "given twice")


def test_train_network_command_writes_the_network_and_its_metadata(tmp_path: Path, capsys) -> None:
    import json

    from cli_run import assert_usage_error, run
    from learning_data import positions, write_dataset

    data = write_dataset(tmp_path / "chess.csv", "chess", positions("chess", 80, seed=6), depth=1)
    out = tmp_path / "net.npz"
    code, stdout, _ = run(capsys, "train", "chess", "--data", str(data), "--model", "network",
                          "--hidden", "4", "--max-iter", "3", "--out", str(out))
    assert code == 0 and "R²" in stdout and "wrote" in stdout
    Network.load(out)
    meta = json.loads(out.with_suffix(".json").read_text())
    assert meta["kind"] == "network" and meta["hidden"] == 4 and "--model network" in meta["command"]
    quixo = write_dataset(tmp_path / "quixo.csv", "quixo", positions("quixo", 20, seed=1), depth=1)
    assert_usage_error(capsys, ["train", "quixo", "--data", str(quixo), "--model", "network",
                                "--out", str(tmp_path / "q.npz")], "quixo has no network evaluation")


def test_bench_network_measures_both_heuristics_and_both_searches() -> None:
    from tui.bench.network import eval_rows, search_rows

    evals = eval_rows(["chess", "quixo"], quick=True)  # quixo has no network: no rows
    assert [(row.game, row.heuristic) for row in evals] == [("chess", "pesto"), ("chess", "network"),
                                                             ("chess", "network")]
    assert all(row.evaluations > 20 and row.micros > 0 for row in evals)
    searches = search_rows(["chess"], quick=True)
    assert [row.spec for row in searches] == ["pvs:depth=3,heuristic=pesto", "pvs:depth=3,heuristic=network"]
    assert all(row.nodes > 0 for row in searches)


def test_a_trained_network_file_is_a_heuristic(tmp_path: Path) -> None:
    # A network from 'train --model network' could be neither checked nor played.
    from engines import create_engine
    from engines.spec import SpecError
    from games import UnknownHeuristicError, game_class

    path = random_network(hidden=8, seed=3).save(tmp_path / "mine.npz")
    cls = game_class("chess")
    evaluate = cls.heuristic(f"network:{path}")
    assert cls.heuristic(f"network:{path}") is evaluate  # read once
    game = new_game("chess")
    game.play(game.parse_move("e4"))
    assert evaluate(game, 1) == int(Network.load(path).evaluate(game.board)) == -evaluate(game, 0)
    assert create_engine(f"pvs:depth=2,heuristic=network:{path}", cls).search(game).move is not None
    for bad, words in ((f"network:{tmp_path / 'none.npz'}", "no such file"), ("network:", "needs the path"),
                       (f"network:{tmp_path}", "network:FILE")):
        with pytest.raises(UnknownHeuristicError, match=words) as error:
            cls.heuristic(bad)
        assert "\n" not in str(error.value)
    with pytest.raises(SpecError, match="network:FILE"):
        create_engine("pvs:heuristic=nonsense", cls)
    with pytest.raises(UnknownHeuristicError):
        game_class("quixo").heuristic(f"network:{path}")


def test_a_network_trains_on_quiet_positions_only() -> None:
    quiet = game_kind("chess").network.quiet
    assert quiet(chess.STARTING_FEN)
    assert not quiet("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")  # in check (mate)
    assert not quiet("4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1")  # Rxd5: an undefended knight
    assert not quiet("rnbqkbnr/pppp1ppp/8/4p3/3Q4/8/PPP1PPPP/RNB1KBNR b KQkq - 0 2")  # exd4: a pawn takes a queen
    assert quiet("rnbqkbnr/ppp1pppp/8/3p4/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 1 2")  # dxe4 Nxe4: an even trade


def test_bench_network_costs_a_network_file_and_refuses_a_bad_one(tmp_path: Path, capsys) -> None:
    from cli_run import assert_usage_error
    from tui.bench.network import eval_rows

    path = random_network(hidden=8, seed=5).save(tmp_path / "mine.npz")
    rows = eval_rows(["chess"], quick=True, network=str(path))
    assert [row.heuristic for row in rows] == ["pesto", f"network:{path}", f"network:{path}"]
    (tmp_path / "bad.npz").write_bytes(b"nothing")
    assert_usage_error(capsys, ["bench", "network", "--network", str(tmp_path / "bad.npz")], "not a network file")
    assert_usage_error(capsys, ["bench", "network", "--network", str(path), "--game", "othello"],
                       "othello has no network evaluation")
