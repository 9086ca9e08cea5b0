"""Shuffle chess with the king on d (XBoard's wildcastle, the Internet Chess
Servers' shuffle) and classical castling rights, against references we did
not write.

No program at hand plays wildcastle (python-chess and Stockfish castle only
the Chess960 way or from e1), so perft is checked against a small generator
written here from the rule itself: python-chess's pseudo-legal moves with
no castling rights, kept when they leave the king safe, plus the castling
the shuffle seed describes ("the King can also start on the d-file, and you
can castle from there": two squares towards the rook, the rook to the square
the king crossed; every square between king and rook empty; the king's
square, the one it crosses and the one it lands on not attacked). With the
king on e the same generator gives python-chess's own counts, which checks
the generator.

Classical chess takes the castling rights python-chess's Board.status()
takes, and refuses those it flags STATUS_BAD_CASTLING_RIGHTS.
"""
import io
import random

import chess
import pytest

from fuzzing import LineProcess, micropython_command
from host_tools.bench import chess_perft
from micro960.text.commands import perft_batch
from micro960.rules.position import Position
from micro960.rules.variants import Rules
from micro960.rules.startpos import setup_fen

DEPTH = 3


# --------------------------------------------------------- the reference

def wild_moves(board, rights):
    """(board after, rights after) for each legal move; `board` carries no
    castling rights of its own, `rights` is the set of castling rooks' squares."""
    us = board.turn
    king = board.king(us)
    ours = {sq for sq in rights if chess.square_rank(sq) == (0 if us else 7)}
    for move in board.generate_pseudo_legal_moves():
        after = board.copy(stack=False)
        after.push(move)
        if after.is_attacked_by(not us, after.king(us)):
            continue
        left = rights - {move.from_square, move.to_square}
        yield after, (left - ours if move.from_square == king else left)
    if board.is_attacked_by(not us, king):
        return
    for rook in ours:
        step = 1 if rook > king else -1
        between = range(min(king, rook) + 1, max(king, rook))
        crossed, landing = king + step, king + 2 * step
        if any(board.piece_at(sq) for sq in between) or \
                board.is_attacked_by(not us, crossed) or board.is_attacked_by(not us, landing):
            continue
        after = board.copy(stack=False)
        after.remove_piece_at(king)
        after.remove_piece_at(rook)
        after.set_piece_at(landing, chess.Piece(chess.KING, us))
        after.set_piece_at(crossed, chess.Piece(chess.ROOK, us))
        after.turn = not us
        after.ep_square = None
        after.halfmove_clock += 1
        after.fullmove_number += 0 if us else 1
        yield after, rights - ours


def wild_perft(board, rights, depth):
    if depth == 0:
        return 1
    return sum(wild_perft(after, left, depth - 1) for after, left in wild_moves(board, rights))


def fen_of(board, rights):
    """X-FEN of the reference's state: its rights as rook files (Shredder letters)."""
    names = [chess.FILE_NAMES[chess.square_file(sq)] for sq in rights]
    white = sorted(n.upper() for n, sq in zip(names, rights) if chess.square_rank(sq) == 0)
    letters = "".join(white + sorted(n for n, sq in zip(names, rights) if chess.square_rank(sq)))
    fields = board.fen().split()
    fields[2] = letters or "-"
    return " ".join(fields)


def row(squares):
    """FEN text of a rank given as 8 letters, None for an empty square."""
    text, empty = "", 0
    for c in squares:
        if c is None:
            empty += 1
            continue
        text += (str(empty) if empty else "") + c
        empty = 0
    return text + (str(empty) if empty else "")


def king_on_d_rank(rng):
    """A back rank with the rooks in the corners, the king on d and the bishops
    on opposite colours (b1, f1 light; c1, e1, g1 dark)."""
    rank = ["R", None, None, "K", None, None, None, "R"]
    rank[rng.choice((1, 5))] = "B"
    rank[rng.choice((2, 4, 6))] = "B"
    rest = ["Q", "N", "N"]
    rng.shuffle(rest)
    for i in range(8):
        if rank[i] is None:
            rank[i] = rest.pop()
    return "".join(rank)


def positions(count, seed=960):
    """(board, rights) with the king on d: a set-up with some pieces taken off,
    so castling and attacks on the king's path come up, then a few random moves."""
    rng = random.Random(seed)
    cases = [(chess.Board("r2k3r/pppppppp/8/8/8/8/PPPPPPPP/R2K3R w - - 0 1"),
              {chess.A1, chess.H1, chess.A8, chess.H8})]
    while len(cases) < count:
        rank = king_on_d_rank(rng)
        rows = []
        for pieces, side in ((rank.lower(), 0.5), ("p" * 8, 0.3), ("P" * 8, 0.3), (rank, 0.5)):
            rows.append(row([None if c not in "KkRr" and rng.random() < side else c
                             for c in pieces]))
        board = chess.Board("%s/%s/8/8/8/8/%s/%s w - - 0 1" % tuple(rows))
        rights = {chess.A1, chess.H1, chess.A8, chess.H8}
        for _ in range(rng.randrange(9)):
            moves = list(wild_moves(board, rights))
            if not moves:
                break
            board, rights = rng.choice(moves)
        if any(True for _ in wild_moves(board, rights)):
            cases.append((board, rights))
    return cases


def test_the_reference_gives_python_chess_counts_with_the_king_on_e():
    rng = random.Random(18)
    for number in rng.sample(range(18), 3):
        board = chess.Board(setup_fen(Rules("shuffle"), number))
        assert wild_perft(board.copy(), set(), 1) == 20  # no rights: plain moves
        rights = {chess.A1, chess.H1, chess.A8, chess.H8}
        plain = board.copy()
        plain.castling_rights = 0
        assert wild_perft(plain, rights, DEPTH) == chess_perft(board, DEPTH), number
    for fen in ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",  # castlings both ways
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"):
        board = chess.Board(fen)
        plain = board.copy()
        plain.castling_rights = 0
        rights = {sq for sq in (chess.A1, chess.H1, chess.A8, chess.H8)
                  if board.castling_rights & chess.BB_SQUARES[sq]}
        assert wild_perft(plain, rights, DEPTH) == chess_perft(board, DEPTH), fen


# ------------------------------------------------------------- micro960

def cases(count=8):
    return [(fen_of(board, rights), wild_perft(board, rights, DEPTH))
            for board, rights in positions(count)]


def test_shuffle_with_the_king_on_d_perft_agrees_with_the_reference_on_cpython():
    pos = Position()
    Rules("shuffle").apply(pos)
    found = cases()
    out = io.StringIO()
    perft_batch(io.StringIO("".join("%s\t%d\n" % (fen, DEPTH) for fen, _ in found)), out, pos)
    assert [int(n) for n in out.getvalue().split()] == [count for _, count in found], found
    # Castling from d comes up in these trees: Chess960's castling counts otherwise.
    out = io.StringIO()
    perft_batch(io.StringIO("".join("%s\t%d\n" % (fen, DEPTH) for fen, _ in found)), out)
    differ = [n for n, (_, count) in zip(out.getvalue().split(), found) if int(n) != count]
    assert len(differ) >= 3, (differ, found)


def test_shuffle_with_the_king_on_d_perft_agrees_with_the_reference_on_micropython():
    process = LineProcess(micropython_command("perft", "--rules", "shuffle", "--batch"))
    process.start()
    try:
        for fen, count in cases(4):
            process.send("%s\t%d\n" % (fen, DEPTH))
            answer = process.read_until(lambda line: True, timeout=60)[-1]
            assert answer.strip() == str(count), (fen, answer)
    finally:
        process.stop()


# ------------------------------------------------ classical castling rights

def random_rights_fen(rng):
    """A position with kings and rooks on their back ranks, half the time
    where classical chess starts them, and castling letters of any kind
    (KQkq or rook files)."""
    rows, letters = [], []
    for king, rook in (("k", "r"), ("K", "R")):
        squares = [None] * 8
        files = [4, 0, 7] if rng.random() < 0.5 else rng.sample(range(8), 3)
        if rng.random() < 0.3:
            files[rng.randrange(3)] = rng.choice([f for f in range(8) if f not in files])
        squares[files[0]] = king
        for f in files[1:]:
            squares[f] = rook
        rows.append(row(squares))
        choices = ["k", "q", "abcdefgh"[files[1]], "abcdefgh"[files[2]], rng.choice("abcdefgh")]
        side = "".join(c for c in sorted(set(choices), key=choices.index) if rng.random() < 0.4)
        letters.insert(0, side.upper() if king == "K" else side)
    return "%s/pppppppp/8/8/8/8/PPPPPPPP/%s w %s - 0 1" % (rows[0], rows[1],
                                                          "".join(letters) or "-")


def accepted(pos, fen):
    try:
        pos.set_fen(fen)
        return True
    except ValueError:
        return False


def test_classical_castling_rights_are_those_python_chess_takes():
    """Among FENs Chess960 takes (their letters name real rooks on either
    side of the king), classical takes exactly those python-chess's
    orthodox Board.status() finds good."""
    rng = random.Random(518)
    chess960, classical = Position(), Position()
    Rules("classical").apply(classical)
    seen = {True: 0, False: 0}
    for _ in range(2000):
        fen = random_rights_fen(rng)
        if not accepted(chess960, fen) or \
                chess.Board(fen, chess960=True).status() != chess.STATUS_VALID:
            continue
        good = chess.Board(fen).status() & chess.STATUS_BAD_CASTLING_RIGHTS == 0
        assert accepted(classical, fen) == good, fen
        seen[good] += 1
    assert seen[True] > 50 and seen[False] > 100, seen  # both kinds were tried


@pytest.mark.parametrize("fen", [
    "r2k3r/pppppppp/8/8/8/8/PPPPPPPP/R2K3R w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBRN w KQkq - 0 1"])
def test_classical_refuses_bad_rights_as_a_command_too(fen):
    from micro960.text import commands
    assert commands.main(["perft", "--rules", "classical", fen, "1"]) == 1
    assert chess.Board(fen).status() & chess.STATUS_BAD_CASTLING_RIGHTS
