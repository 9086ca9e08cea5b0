"""FEN: reading a position from X-FEN or Shredder-FEN, checked as a game
could have reached it, and writing one.

Position.set_fen() and Position.fen() load this file when they need it,
through compat.load (rules/position.py does not import it: this module imports
rules/position.py). A
board reads a FEN when a game starts and writes one on request, so the
console releases it between those times (compat.release): its code would
otherwise sit in the heap the whole game. Taking moves back and replaying a
game set up the start position from a snapshot (Position.restore()) instead.
"""
from micro960.rules.position import (BISHOP, BLACK, BOTH, FILES, KING, KING_STEPS, KNIGHT,
                                     KNIGHT_STEPS, OFF, PAWN, PIECE_LETTERS, QUEEN, ROOK,
                                     ROOK_STEPS, TO64, WHITE, attacked, parse_square, side_name,
                                     square_name)
from micro960.rules.movegen import has_legal_ep


def parse(fen, king_capture=False, castle_kings=""):
    """The arguments of Position._load() for `fen`; ValueError if it is not
    a position a game can reach (`king_capture`: the rules need no kings;
    `castle_kings`: the files a castling king may stand on, see rules/variants.py)."""
    parts = fen.split()
    if len(parts) == 4:
        parts = parts + ["0", "1"]
    if len(parts) != 6:
        raise ValueError("FEN needs 6 fields, got " + str(len(parts)))
    board = _parse_placement(parts[0])
    if parts[1] not in ("w", "b"):
        raise ValueError("side to move must be w or b")
    side = WHITE if parts[1] == "w" else BLACK
    kings = bytearray(2)
    for sq in range(21, 99):
        p = board[sq]
        if p & 7 == KING and p != OFF:
            if kings[p >> 4]:
                raise ValueError("more than one king of a colour")
            kings[p >> 4] = sq
    if not king_capture and not (kings[0] and kings[1]):
        raise ValueError("each side needs a king")
    _check_material(board)
    rook_squares = _parse_castling(parts[2], board, kings)
    if castle_kings:
        _check_corners(parts[2], rook_squares, kings, castle_kings)
    ep = _parse_ep(parts[3], board, side)
    try:
        halfmove = int(parts[4])
        fullmove = int(parts[5])
    except ValueError:
        raise ValueError("move counters must be numbers")
    if halfmove < 0 or fullmove < 1 or halfmove > 9999 or fullmove > 9999:
        raise ValueError("move counters out of range")
    if not king_capture:
        if attacked(board, kings[(side ^ BOTH) >> 4], side):
            raise ValueError("the side not to move is in check")
        _check_checkers(board, kings[side >> 4], side, ep)
    return board, side, rook_squares, ep, halfmove, fullmove, kings


def write(pos, shredder=False, ep_when="legal"):
    """The FEN of `pos` (see Position.fen)."""
    ranks = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            p = pos.board[21 + file + 10 * rank]
            if p == 0:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            letter = PIECE_LETTERS[p & 7]
            row += letter if p & WHITE else letter.lower()
        ranks.append(row + (str(empty) if empty else ""))
    ep = "-"
    if pos.ep and (ep_when != "legal" or has_legal_ep(pos)):
        ep = square_name(pos.ep)
    return "%s %s %s %s %d %d" % (
        "/".join(ranks), "w" if pos.side == WHITE else "b",
        castling_text(pos, shredder), ep, pos.halfmove, pos.fullmove)


def castling_text(pos, shredder=False):
    text = ""
    for bit in range(4):
        if not pos.rights & (1 << bit):
            continue
        rook = pos.rook_squares[bit]
        letter = FILES[TO64[rook] & 7]
        if not shredder and _outermost(pos.board, rook, bit):
            letter = "k" if bit % 2 == 0 else "q"
        text += letter.upper() if bit < 2 else letter
    return text or "-"


def _outermost(board, rook, bit):
    step = 1 if bit % 2 == 0 else -1
    sq = rook + step
    while board[sq] != OFF:
        if board[sq] == board[rook]:
            return False
        sq += step
    return True


def _parse_placement(text):
    board = bytearray(OFF for _ in range(120))
    rows = text.split("/")
    if len(rows) != 8:
        raise ValueError("FEN board needs 8 ranks separated by /")
    for i, row in enumerate(rows):
        rank = 7 - i
        file = 0
        digit = False
        for ch in row:
            if ch in "12345678":
                if digit:
                    raise ValueError("two digits in a row in rank %d: %s" % (rank + 1, row))
                digit = True
                for _ in range(int(ch)):
                    if file < 8:
                        board[21 + file + 10 * rank] = 0
                    file += 1
            elif ch.upper() in "PNBRQK" and ch.upper() != ch.lower():
                digit = False
                if file < 8:
                    t = PIECE_LETTERS.index(ch.upper())
                    board[21 + file + 10 * rank] = t | (WHITE if ch.isupper() else BLACK)
                    if t == PAWN and rank in (0, 7):
                        raise ValueError("pawn on rank " + str(rank + 1))
                file += 1
            else:
                raise ValueError("bad character in FEN board: " + repr(ch))
        if file != 8:
            raise ValueError("rank %d has %d squares, not 8" % (rank + 1, file))
    return board


def _outermost_rook(board, king, step, rook):
    """The farthest rook of that colour from the king in direction `step`."""
    found = 0
    sq = king + step
    while board[sq] != OFF:
        if board[sq] == rook:
            found = sq
        sq += step
    return found


def _parse_castling(text, board, kings):
    rook_squares = bytearray(4)
    if text == "-":
        return rook_squares
    black = 0  # Black's letters so far
    for i, ch in enumerate(text):
        white = ch.isupper()
        black += not white
        if white and black or i - black > 1 or black > 2:
            raise ValueError("castling field %s: at most two letters a side, White's first"
                             % text)
        side = WHITE if white else BLACK
        king = kings[side >> 4]
        base = 21 if white else 91
        if not king or not base <= king <= base + 7:
            raise ValueError("castling right %s but the king is not on its back rank" % ch)
        rook = side | ROOK
        c = ch.lower()
        if c == "k":
            sq = _outermost_rook(board, king, 1, rook)
        elif c == "q":
            sq = _outermost_rook(board, king, -1, rook)
        elif c in FILES:
            sq = base + FILES.index(c)
            if board[sq] != rook:
                raise ValueError("castling right %s but no rook on %s" % (ch, square_name(sq)))
        else:
            raise ValueError("bad castling character " + repr(ch))
        if not sq:
            raise ValueError("castling right %s but no rook on that side" % ch)
        bit = (0 if sq > king else 1) + (0 if white else 2)
        if rook_squares[bit] not in (0, sq):
            raise ValueError("two castling rights for one side of the king: " + text)
        rook_squares[bit] = sq
    return rook_squares


def _check_corners(text, rook_squares, kings, files):
    """Rules that castle from the orthodox corners take a right only for a
    rook in its corner and a king on one of `files` (python-chess's status()
    calls the others bad castling rights)."""
    for bit in range(4):
        rook = rook_squares[bit]
        if rook and not (TO64[rook] & 7 in (0, 7) and
                         FILES[TO64[kings[bit >> 1]] & 7] in files):
            rank = "1" if bit < 2 else "8"
            raise ValueError("castling rights %s: these rules castle only with the king on %s "
                             "and the rook in its corner"
                             % (text, " or ".join([f + rank for f in files])))


def _parse_ep(text, board, side):
    if text == "-":
        return 0
    sq = parse_square(text)
    rank = (TO64[sq] >> 3) + 1
    if rank != (6 if side == WHITE else 3):
        raise ValueError("en passant square on the wrong rank: " + text)
    step = -10 if side == WHITE else 10  # from the ep square to the pushed pawn
    them = side ^ BOTH
    if board[sq + step] != them | PAWN or board[sq] or board[sq - step]:
        raise ValueError("en passant square %s: no pawn can just have moved two squares past it"
                         % text)
    return sq


def _check_material(board):
    """At most 16 pieces and 8 pawns a side: more cannot come from a game."""
    for side in (WHITE, BLACK):
        pieces = pawns = 0
        for sq in range(21, 99):
            p = board[sq]
            if p != OFF and p & BOTH == side:
                pieces += 1
                pawns += p == side | PAWN
        if pieces > 16 or pawns > 8:
            raise ValueError("%s has %d pieces and %d pawns; at most 16 and 8 are possible"
                             % (side_name(side), pieces, pawns))


def _check_checkers(board, king, side, ep):
    """Refuse checks on the side to move that no last move can have given:
    three checkers, two on one line through the king, or (after a double
    push, `ep`) any check other than by the pawn or uncovered by it."""
    them = side ^ BOTH
    found = checkers(board, king, them)
    if len(found) > 2:
        raise ValueError("%d pieces give check; at most two can" % len(found))
    if ep:
        pushed = ep + (-10 if side == WHITE else 10)
        origin = 2 * ep - pushed
        board[pushed], board[origin] = 0, side | PAWN  # the board before the push
        before = attacked(board, king, them)
        board[pushed], board[origin] = them | PAWN, 0
        if len(found) > 1 or found and found[0] != pushed and before:
            raise ValueError("the check cannot come from the double pawn push to "
                             + square_name(pushed))
    elif len(found) == 2 and _on_one_line(king, found[0], found[1]):
        raise ValueError("two checks along one line cannot come from one move")


def checkers(board, sq, by):
    """The squares of the pieces of side `by` that attack square `sq`."""
    found = []
    forward = -10 if by == WHITE else 10  # towards the pawns that attack sq
    for d in (forward - 1, forward + 1):
        if board[sq + d] == by | PAWN:
            found.append(sq + d)
    for d in KNIGHT_STEPS:
        if board[sq + d] == by | KNIGHT:
            found.append(sq + d)
    for d in KING_STEPS:
        s = sq + d
        while board[s] == 0:
            s += d
        p = board[s]
        if p == by | QUEEN or p == by | (ROOK if d in ROOK_STEPS else BISHOP) \
                or p == by | KING and s == sq + d:
            found.append(s)
    return found


def _on_one_line(a, b, c):
    """Does a lie on the rank, file or diagonal through b and c?"""
    fa, ra, fb, rb, fc, rc = a % 10, a // 10, b % 10, b // 10, c % 10, c // 10
    rank_file_or_diagonal = fb == fc or rb == rc or abs(fb - fc) == abs(rb - rc)
    return rank_file_or_diagonal and (fb - fa) * (rc - ra) == (rb - ra) * (fc - fa)
