"""The chess heuristics and the feature vector, from python-chess bitboards.

All scores are integer centipawn-like units (a pawn is about 100), computed
from White's side and negated for Black, so ``h(g, 0) == -h(g, 1)`` exactly.
See :mod:`games.chess` for what each heuristic is.  Mobility is counted from
bitboards (pseudo-legal moves, king moves to unattacked squares only), not
with ``board.legal_moves.count()``, which costs about 100 us per side in a
middlegame; see :func:`_scan`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import chess

from ..base import Heuristic
from .bitboards import (
    ALL, BLACK_MINOR_HOME, CENTRE, DIAG_ATTACKS, DIAG_MASKS, FILE_ATTACKS, FILE_MASKS, FILES_OF_SET,
    KING_ZONE, KNIGHT, NOT_A, NOT_H, RANK_1, RANK_3, RANK_6, RANK_8, RANK_ATTACKS, RANK_MASKS,
    WHITE_MINOR_HOME,
    WHITE_PLAYER, file_set, north_fill, south_fill,
)
from .tapered import pesto_start, tables_file, tapered
from .tables import (
    PESTO_EG_TABLES, PESTO_MG_TABLES, PESTO_PHASE, SOFT_KING_END, SOFT_KING_MIDDLE, SOFT_TABLES,
)

class ChessGame(Protocol):
    """What the heuristics read of a chess position (:class:`games.chess.ChessGame`)."""

    @property
    def board(self) -> chess.Board: ...


__all__ = ["HEURISTICS", "HEURISTIC_FILES", "NETWORK_FILE", "features", "pawn_terms", "material", "sef", "sef_phase",
           "soft", "hard", "pesto", "network", "network_file"]


def _ma_diff(b: chess.Board) -> int:
    """White's Material Advantage over Black: P 100, N 300, B 300, R 500, Q 900, K 2000."""
    w = b.occupied_co[chess.WHITE]
    k = b.occupied_co[chess.BLACK]
    pawns, knights, bishops, rooks, queens, kings = b.pawns, b.knights, b.bishops, b.rooks, b.queens, b.kings
    return (
        100 * ((pawns & w).bit_count() - (pawns & k).bit_count())
        + 300 * ((knights & w).bit_count() - (knights & k).bit_count())
        + 300 * ((bishops & w).bit_count() - (bishops & k).bit_count())
        + 500 * ((rooks & w).bit_count() - (rooks & k).bit_count())
        + 900 * ((queens & w).bit_count() - (queens & k).bit_count())
        + 2000 * ((kings & w).bit_count() - (kings & k).bit_count())
    )


def _phase(b: chess.Board) -> int:
    """Game phase from the pieces left: N 1, B 1, R 2, Q 4 (24 at the start, capped)."""
    phase = (b.knights | b.bishops).bit_count() + 2 * b.rooks.bit_count() + 4 * b.queens.bit_count()
    return phase if phase < 24 else 24


def _side_attacks(
    b: chess.Board,
    own: int,
    occ: int,
    white: bool,
    _knight: list[int] = KNIGHT,
    _diag_attacks: list[dict[int, int]] = DIAG_ATTACKS,
    _diag_masks: list[int] = DIAG_MASKS,
    _file_attacks: list[dict[int, int]] = FILE_ATTACKS,
    _file_masks: list[int] = FILE_MASKS,
    _rank_attacks: list[dict[int, int]] = RANK_ATTACKS,
    _rank_masks: list[int] = RANK_MASKS,
) -> tuple[int, int]:
    """(squares attacked, pseudo-legal non-king move count) of the side owning
    ``own``, sliders seeing through nothing but ``occ``.  (The keyword
    defaults only bind the tables to fast locals.)"""
    not_own = ~own
    attacks = 0
    moves = 0
    bb = b.knights & own
    while bb:
        low = bb & -bb
        a = _knight[low.bit_length() - 1]
        attacks |= a
        moves += (a & not_own).bit_count()
        bb ^= low
    bb = (b.bishops | b.queens) & own
    while bb:
        low = bb & -bb
        sq = low.bit_length() - 1
        a = _diag_attacks[sq][_diag_masks[sq] & occ]
        attacks |= a
        moves += (a & not_own).bit_count()
        bb ^= low
    bb = (b.rooks | b.queens) & own
    while bb:
        low = bb & -bb
        sq = low.bit_length() - 1
        a = _file_attacks[sq][_file_masks[sq] & occ] | _rank_attacks[sq][_rank_masks[sq] & occ]
        attacks |= a
        moves += (a & not_own).bit_count()
        bb ^= low
    pawns = b.pawns & own
    if pawns:
        occupied = b.occupied
        enemy = occupied & not_own
        empty = ~occupied
        if white:
            left = (pawns & NOT_A) << 7 & ALL
            right = (pawns & NOT_H) << 9 & ALL
            push = pawns << 8 & empty & ALL
            double = (push & RANK_3) << 8 & empty
            last = RANK_8
        else:
            left = (pawns & NOT_A) >> 9
            right = (pawns & NOT_H) >> 7
            push = pawns >> 8 & empty
            double = (push & RANK_6) >> 8 & empty
            last = RANK_1
        attacks |= left | right
        left &= enemy
        right &= enemy
        moves += left.bit_count() + right.bit_count() + push.bit_count() + double.bit_count()
        if (left | right | push) & last:
            moves += 3 * ((left & last).bit_count() + (right & last).bit_count() + (push & last).bit_count())
    return attacks, moves


def _scan(b: chess.Board) -> tuple[int, int, int, int]:
    """Attack maps and mobility of both sides: (att_w, att_b, mob_w, mob_b).

    Attacks are computed with the enemy king taken off the board, so squares
    behind it on a checking line count as attacked (the king cannot step
    there).  Mobility counts pseudo-legal moves from bitboards -- every
    promotion counted four times like python-chess -- plus king steps to
    squares the enemy does not attack; it ignores pins, checks, castling and
    en passant, so it equals the legal move count in most quiet positions.
    """
    occ_b, occ_w = b.occupied_co  # indexed by colour: [BLACK, WHITE]
    occ = b.occupied
    kings = b.kings
    kw = kings & occ_w
    kb = kings & occ_b
    att_w, mob_w = _side_attacks(b, occ_w, occ ^ kb, True)
    att_b, mob_b = _side_attacks(b, occ_b, occ ^ kw, False)
    if kw:
        zone = KING_ZONE[kw.bit_length() - 1]
        att_w |= zone
    if kb:
        zone_b = KING_ZONE[kb.bit_length() - 1]
        att_b |= zone_b
        mob_b += (zone_b & ~occ_b & ~att_w).bit_count()
    if kw:
        mob_w += (zone & ~occ_w & ~att_b).bit_count()
    return att_w, att_b, mob_w, mob_b


def pawn_terms(own: int, their: int, white: bool) -> tuple[int, int, int, int, list[int]]:
    """Pawn structure of the side with pawns ``own`` against pawns ``their``.

    Returns (doubled, isolated, on_doubled_files, backward, passed squares):
    ``doubled`` is pawns beyond the first on each file (the SEF's count),
    ``isolated`` pawns with no own pawn on a neighbour file,
    ``on_doubled_files`` every pawn sharing its file with another,
    ``backward`` pawns that no own pawn can support on their way whose stop
    square an enemy pawn attacks, and the squares of passed pawns.
    """
    if not own:
        return 0, 0, 0, 0, []
    files = file_set(own)
    doubled = own.bit_count() - files.bit_count()
    neighbours = ((files << 1) | (files >> 1)) & 0xFF
    isolated = (own & FILES_OF_SET[files & ~neighbours]).bit_count()
    if white:
        ahead = north_fill(own << 8)
        behind = south_fill(own >> 8)
        own_att = ((own & NOT_A) << 7 | (own & NOT_H) << 9) & ALL
        their_att = (their & NOT_A) >> 9 | (their & NOT_H) >> 7
        support = north_fill(own_att)
        stops = own << 8 & ALL
        backward = ((stops & their_att & ~support) >> 8).bit_count()
        span = south_fill(their >> 8)
    else:
        ahead = south_fill(own >> 8)
        behind = north_fill(own << 8)
        own_att = (own & NOT_A) >> 9 | (own & NOT_H) >> 7
        their_att = ((their & NOT_A) << 7 | (their & NOT_H) << 9) & ALL
        support = south_fill(own_att)
        stops = own >> 8
        backward = ((stops & their_att & ~support) << 8 & ALL).bit_count()
        span = north_fill(their << 8)
    on_doubled = (own & (ahead | behind)).bit_count()
    blocked = span | (span & NOT_A) >> 1 | ((span & NOT_H) << 1 & ALL)
    passers = own & ~blocked
    passed = []
    while passers:
        low = passers & -passers
        passed.append(low.bit_length() - 1)
        passers ^= low
    return doubled, isolated, on_doubled, backward, passed


# ---------------------------------------------------------------------------
# Heuristics
# ---------------------------------------------------------------------------


def material(game: ChessGame, player: int) -> int:
    """The seed's Material Advantage (P 1, N 3, B 3, R 5, Q 9, K 20) in centipawns."""
    score = _ma_diff(game.board)
    return score if player == WHITE_PLAYER else -score


#: SEF weights in tenths per phase: (material, pawn structure, centre, mobility, king safety).
SEF_WEIGHTS: dict[str, tuple[int, int, int, int, int]] = {
    "opening": (10, 2, 5, 5, 1),
    "middlegame": (10, 3, 3, 4, 3),
    "endgame": (15, 2, 1, 2, 5),
}


def sef_phase(b: chess.Board) -> str:
    """The SEF game phase.  The seed names three phases without defining them;
    ours: *endgame* when the pieces left are worth at most 8 phase points
    (N 1, B 1, R 2, Q 4; 24 at the start), *opening* while at least 20 points
    remain and at least four knights and bishops still stand on their home
    squares, *middlegame* otherwise."""
    phase = _phase(b)
    if phase <= 8:
        return "endgame"
    if phase >= 20:
        minors = b.knights | b.bishops
        home = (minors & b.occupied_co[chess.WHITE] & WHITE_MINOR_HOME) | (
            minors & b.occupied_co[chess.BLACK] & BLACK_MINOR_HOME
        )
        if home.bit_count() >= 4:
            return "opening"
    return "middlegame"


def sef(game: ChessGame, player: int) -> int:
    """The seed's Simplified Evaluation Function, in centipawns.

    Components, each White's minus Black's (the seed states them for one
    player; the difference makes the heuristic antisymmetric):

    * material M: the MA values (P 100 ... K 2000);
    * pawn structure P: -50 for each pawn beyond the first on a file, -50 for
      each isolated pawn (the seed also names backward pawns but gives them no
      penalty, so they are not scored);
    * centre C: +50 per own piece standing on d4, e4, d5 or e5 (the seed's
      formula counts pieces *on* those squares);
    * mobility Mv: +10 per move; the seed counts legal moves, we count
      pseudo-legal moves from bitboards (see :func:`_scan`), 10x cheaper;
    * king safety Ks: +20 per square next to the king that the enemy does not
      attack (the seed's -100 for a missing king cannot happen: kings are
      always there).

    Weighted by the seed's phase table :data:`SEF_WEIGHTS` (see
    :func:`sef_phase` for the phases).
    """
    b = game.board
    occ_w = b.occupied_co[chess.WHITE]
    occ_b = b.occupied_co[chess.BLACK]
    att_w, att_b, mob_w, mob_b = _scan(b)
    pw = b.pawns & occ_w
    pb = b.pawns & occ_b
    pawn_score = 0
    for own, sign in ((pw, 1), (pb, -1)):
        if own:
            files = file_set(own)
            neighbours = ((files << 1) | (files >> 1)) & 0xFF
            weak = own.bit_count() - files.bit_count() + (own & FILES_OF_SET[files & ~neighbours]).bit_count()
            pawn_score -= sign * 50 * weak
    centre = 50 * ((occ_w & CENTRE).bit_count() - (occ_b & CENTRE).bit_count())
    mobility = 10 * (mob_w - mob_b)
    kw = b.kings & occ_w
    kb = b.kings & occ_b
    safe_w = (KING_ZONE[kw.bit_length() - 1] & ~att_b).bit_count() if kw else 0
    safe_b = (KING_ZONE[kb.bit_length() - 1] & ~att_w).bit_count() if kb else 0
    king = 20 * (safe_w - safe_b)
    phase = sef_phase(b)
    wm, wp, wc, wmv, wk = SEF_WEIGHTS[phase]
    total = wm * _ma_diff(b) + wp * pawn_score + wc * centre + wmv * mobility + wk * king
    score = total // 10 if total >= 0 else -(-total // 10)  # round toward zero: colour-symmetric
    return score if player == WHITE_PLAYER else -score



def _is_simple_endgame(b: chess.Board) -> bool:
    """The seeds' endgame test for the king table: no queens, or every side
    with a queen has no rook and at most one minor piece."""
    queens = b.queens
    if not queens:
        return True
    minors = b.knights | b.bishops
    for color in (chess.WHITE, chess.BLACK):
        own = b.occupied_co[color]
        if queens & own and (b.rooks & own or (minors & own).bit_count() > 1):
            return False
    return True


#: soft/hard weights, centipawns.
SOFT_CENTRE = 10  # per centre square (d4 e4 d5 e5) the side attacks
SOFT_SHELTER = 10  # per own pawn next to the king
SOFT_DANGER = 15  # per square next to the king the enemy attacks (a penalty)
SOFT_TEMPO = 10  # for the side to move
HARD_MOBILITY = 4  # per pseudo-legal move
HARD_ISOLATED = 20
HARD_DOUBLED = 10  # per pawn on a file with another own pawn
HARD_BACKWARD = 15
#: Passed pawn bonus by rank counted from the pawn's own side (the seed gives a flat 50).
HARD_PASSED = (0, 10, 15, 25, 40, 60, 90, 0)


#: Pawn hash: (White pawns, Black pawns) -> (pawn material + table score for
#: soft/hard, hard's pawn-structure score), both from White's side.  Pawn
#: structures repeat all over a search tree, so this saves most of the pawn work.
_PAWN_CACHE: dict[tuple[int, int], tuple[int, int]] = {}
_PAWN_CACHE_LIMIT = 1 << 17


def _pawn_entry(pw: int, pb: int) -> tuple[int, int]:
    entry = _PAWN_CACHE.get((pw, pb))
    if entry is not None:
        return entry
    white_table, black_table = SOFT_TABLES[chess.PAWN]
    table = 0
    bb = pw
    while bb:
        low = bb & -bb
        table += white_table[low.bit_length() - 1]
        bb ^= low
    bb = pb
    while bb:
        low = bb & -bb
        table += black_table[low.bit_length() - 1]
        bb ^= low
    structure = 0
    for own, their, white_side, sign in ((pw, pb, True, 1), (pb, pw, False, -1)):
        _, isolated, on_doubled, backward, passed = pawn_terms(own, their, white_side)
        side = -(HARD_ISOLATED * isolated + HARD_DOUBLED * on_doubled + HARD_BACKWARD * backward)
        for sq in passed:
            rank = sq >> 3
            side += HARD_PASSED[rank if white_side else 7 - rank]
        structure += sign * side
    if len(_PAWN_CACHE) >= _PAWN_CACHE_LIMIT:
        _PAWN_CACHE.clear()
    entry = _PAWN_CACHE[(pw, pb)] = (table, structure)
    return entry


_SOFT_PIECE_TABLES = tuple(SOFT_TABLES[pt] for pt in (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN))


def _soft_white(b: chess.Board, with_extras: bool) -> int:
    occ_b, occ_w = b.occupied_co
    pawns = b.pawns
    pawn_table, pawn_structure = _pawn_entry(pawns & occ_w, pawns & occ_b)
    score = pawn_table
    for bb, (white, black) in zip((b.knights, b.bishops, b.rooks, b.queens), _SOFT_PIECE_TABLES):
        own = bb & occ_w
        bb ^= own
        while own:
            low = own & -own
            score += white[low.bit_length() - 1]
            own ^= low
        while bb:
            low = bb & -bb
            score += black[low.bit_length() - 1]
            bb ^= low
    king_white, king_black = SOFT_KING_END if _is_simple_endgame(b) else SOFT_KING_MIDDLE
    kings = b.kings
    kw = kings & occ_w
    kb = kings & occ_b
    att_w, att_b, mob_w, mob_b = _scan(b)
    score += SOFT_CENTRE * ((att_w & CENTRE).bit_count() - (att_b & CENTRE).bit_count())
    if kw:
        sq = kw.bit_length() - 1
        zone = KING_ZONE[sq]
        score += king_white[sq]
        score += SOFT_SHELTER * (zone & pawns & occ_w).bit_count() - SOFT_DANGER * (zone & att_b).bit_count()
    if kb:
        sq = kb.bit_length() - 1
        zone = KING_ZONE[sq]
        score += king_black[sq]
        score -= SOFT_SHELTER * (zone & pawns & occ_b).bit_count() - SOFT_DANGER * (zone & att_w).bit_count()
    score += SOFT_TEMPO if b.turn else -SOFT_TEMPO
    if with_extras:
        score += HARD_MOBILITY * (mob_w - mob_b) + pawn_structure
    return score


def soft(game: ChessGame, player: int) -> int:
    """The cheap cut heuristic (the seeds' ``SoftBoardEvaluationChessGame``).

    Material and Michniewski's piece-square tables (king table for the
    middlegame or, by the seeds' endgame test, the endgame), centre control
    (+10 per centre square attacked), king safety (+10 per own pawn next to the
    king, -15 per neighbour square the enemy attacks) and +10 for the side to
    move, in centipawns.  The seeds normalise each part to +-100 and mix them
    0.35/0.20/0.25/0.20, which makes a whole queen worth less than one attacked
    centre square; we keep their parts with centipawn weights instead.
    """
    score = _soft_white(game.board, False)
    return score if player == WHITE_PLAYER else -score


def hard(game: ChessGame, player: int) -> int:
    """``soft`` plus mobility and pawn structure (``HardBoardEvaluationChessGame``).

    Mobility: +4 per pseudo-legal move (see :func:`_scan`).  Pawn structure
    (the seed's terms): -20 per isolated pawn, -10 per pawn on a file shared
    with another own pawn, -15 per backward pawn, and a passed pawn bonus that
    grows with its rank (:data:`HARD_PASSED`; the seed gives a flat 50).
    """
    score = _soft_white(game.board, True)
    return score if player == WHITE_PLAYER else -score


#: A tapered PeSTO evaluation (see :mod:`games.chess.tapered`): midgame and endgame material and
#: piece-square tables blended by the game phase (N 1, B 1, R 2, Q 4 out of 24), plus a small tempo
#: bonus.  The strongest hand-made static evaluation here.
pesto = tapered(*pesto_start())
pesto.__name__ = pesto.__qualname__ = "pesto"
pesto.__doc__ = """A tapered PeSTO evaluation: midgame and endgame material and piece-square tables
blended by the game phase (N 1, B 1, R 2, Q 4 out of 24), plus a small tempo bonus."""


def features(board: chess.Board, player: int) -> list[float]:
    """The :attr:`FEATURE_NAMES` values seen by ``player`` (0 White, 1 Black).

    Counts are ``player``'s own then the opponent's (``opp_``); ``material``
    is the MA difference in pawns; ``doubled/isolated/passed_pawns`` and
    ``centre_control`` (centre squares attacked) and ``castling_rights``
    (0-2 each) are own minus opponent's; ``king_shelter`` counts own pawns
    next to the king, ``king_danger`` the king's neighbour squares the enemy
    attacks; ``in_check`` is 1 if ``player`` is in check, -1 if the
    opponent is; ``phase`` runs from 24 (all pieces) down to 0 (pawns and
    kings); ``to_move`` is 1 when ``player`` moves next.
    """
    b = board
    occ_w = b.occupied_co[chess.WHITE]
    occ_b = b.occupied_co[chess.BLACK]
    counts_w = [float((bb & occ_w).bit_count()) for bb in (b.pawns, b.knights, b.bishops, b.rooks, b.queens)]
    counts_b = [float((bb & occ_b).bit_count()) for bb in (b.pawns, b.knights, b.bishops, b.rooks, b.queens)]
    mat = _ma_diff(b) / 100.0
    att_w, att_b, mob_w, mob_b = _scan(b)
    kw = b.kings & occ_w
    kb = b.kings & occ_b
    zone_w = KING_ZONE[kw.bit_length() - 1] if kw else 0
    zone_b = KING_ZONE[kb.bit_length() - 1] if kb else 0
    pw = b.pawns & occ_w
    pb = b.pawns & occ_b
    shelter_w = float((zone_w & pw).bit_count())
    shelter_b = float((zone_b & pb).bit_count())
    danger_w = float((zone_w & att_b).bit_count())
    danger_b = float((zone_b & att_w).bit_count())
    dbl_w, iso_w, _, _, passed_w = pawn_terms(pw, pb, True)
    dbl_b, iso_b, _, _, passed_b = pawn_terms(pb, pw, False)
    centre = float((att_w & CENTRE).bit_count() - (att_b & CENTRE).bit_count())
    rights = b.clean_castling_rights()
    castle_w = float((rights & chess.BB_RANK_1).bit_count())
    castle_b = float((rights & chess.BB_RANK_8).bit_count())
    white_in_check = 0.0
    if b.is_check():
        white_in_check = 1.0 if b.turn else -1.0
    phase = float(_phase(b))
    white_to_move = 1.0 if b.turn else 0.0
    white_view = [
        *counts_w,
        *counts_b,
        mat,
        float(mob_w),
        float(mob_b),
        shelter_w,
        shelter_b,
        danger_w,
        danger_b,
        float(dbl_w - dbl_b),
        float(iso_w - iso_b),
        float(len(passed_w) - len(passed_b)),
        centre,
        castle_w - castle_b,
        white_in_check,
        phase,
        white_to_move,
    ]
    if player == WHITE_PLAYER:
        return white_view
    v = white_view
    negated = [0.0 - x for x in v[17:23]]  # "0.0 - x" avoids -0.0
    return [*v[5:10], *v[0:5], 0.0 - v[10], v[12], v[11], v[14], v[13], v[16], v[15], *negated, v[23], 1.0 - v[24]]

#: The network the ``network`` heuristic evaluates with (see :mod:`games.chess.network`).
NETWORK_FILE = Path(__file__).with_name("network.npz")
#: The bundled network's heuristic, made at its first evaluation (one per process).
_bundled_network: list[Any] = []


def network(game: ChessGame, player: int) -> int:
    """The bundled piece-square network's value of the position, learned from
    Stockfish's evaluations (see :mod:`games.chess.network` and docs/learning.md),
    in centipawns; updated piece by piece from the position evaluated before."""
    if not _bundled_network:
        _bundled_network.append(network_file(str(NETWORK_FILE)))
    return _bundled_network[0](game, player)


def network_file(path: str) -> Any:
    """The heuristic ``network:PATH``: the network in the file at ``path`` (one that
    ``tui-games train chess --model network`` wrote), evaluated like :func:`network`.
    Raises ``ValueError`` (one line) for a file that is not a network."""
    from .network import Accumulators, Network

    accumulators = Accumulators(Network.load(path))

    def evaluate(game: ChessGame, player: int) -> int:
        b = game.board
        value = int(accumulators.evaluate(b))  # toward zero: colour-symmetric
        return value if (player == WHITE_PLAYER) == b.turn else -value

    evaluate.__name__ = f"network:{path}"
    return evaluate


# ------------------------------------------------------------------ display


#: The heuristics by name (see :mod:`games.chess`).
HEURISTICS: dict[str, Heuristic] = {
    "material": material,
    "sef": sef,
    "soft": soft,
    "hard": hard,
    "pesto": pesto,
    "network": network,
}


def residual_file(path: str) -> Heuristic:
    """The heuristic ``residual:PATH``: ``pesto`` plus the residual network in the file at ``path``
    (see :mod:`games.chess.residual`).  Raises ``ValueError`` (one line) for a file that is not one."""
    from .residual import residual_file as read

    return read(path, pesto)


#: The heuristics read from a file, by kind (see :attr:`games.base.Game.HEURISTIC_FILES`).
HEURISTIC_FILES: dict[str, Callable[[str], Heuristic]] = {"network": network_file, "tables": tables_file,
                                                         "residual": residual_file}
