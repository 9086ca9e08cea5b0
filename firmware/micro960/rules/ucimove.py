"""Moves as UCI text: e2e4, e7e8q, and castling as king-takes-rook (e1h1) or
as the king's destination (e1g1).

This is all of the move text the UCI engine needs, so it lives apart from
SAN (rules/notation.py), which a board in UCI mode never loads.

    >>> from micro960.rules.position import Position
    >>> pos = Position()
    >>> move = parse_uci(pos, "g1f3")
    >>> uci_text(pos, move)
    'g1f3'
"""
from micro960.rules.movegen import legal_moves, move_buffer
from micro960.rules.position import (CASTLE, FILES, PROMOTE_N, TO120, castle_squares, parse_square,
                                     square_name)

PROMOTION_LETTERS = "nbrq"  # flags 4-7


def move_from(move):
    return TO120[move & 63]


def move_to(move):
    return TO120[(move >> 6) & 63]


def is_castle(move):
    return move >> 12 == CASTLE


def promotion_type(move):
    """Piece type promoted to (2-5), or 0."""
    flag = move >> 12
    return flag - 2 if flag >= PROMOTE_N else 0


def king_destination(pos, move):
    """Where the king lands: for castling the c- or g-file (two squares on,
    in Chess480), else the to-square."""
    return _king_lands(move, pos.side, pos.orthodox_castling)


def _king_lands(move, side, orthodox):
    if is_castle(move):
        return castle_squares(side, move_to(move), move_from(move), orthodox)[0]
    return move_to(move)


def uci_text(pos, move, chess960=True):
    """UCI text; castling is king-takes-rook (e1h1) with chess960, else e1g1."""
    return move_text(move, pos.side, chess960, pos.orthodox_castling)


def move_text(move, side, chess960=True, orthodox=False):
    """uci_text without the position: `side` moves, castling `orthodox`."""
    to = move_to(move) if chess960 else _king_lands(move, side, orthodox)
    text = square_name(move_from(move)) + square_name(to)
    if promotion_type(move):
        text += PROMOTION_LETTERS[(move >> 12) - PROMOTE_N]
    return text


def legal_list(pos):
    buf = move_buffer()
    return [buf[i] for i in range(legal_moves(pos, buf, 0))]


def needs_piece(text):
    """What is wrong with a pawn move to the last rank that names no piece."""
    return "%s needs a promotion piece: %sq, %sr, %sb or %sn" % (text, text, text, text, text)


def parse_uci(pos, text, moves=None):
    """Strict UCI move text (e2e4, e7e8q, e1h1 or e1g1 for castling)."""
    text = text.strip()
    if not (4 <= len(text) <= 5) or text[:2] == text[2:4]:
        raise ValueError("not a UCI move: " + repr(text))
    for i in (0, 2):
        if text[i] not in FILES or text[i + 1] not in "12345678":
            raise ValueError("not a UCI move: " + repr(text))
    if len(text) == 5 and text[4] not in PROMOTION_LETTERS:
        raise ValueError("not a UCI move: " + repr(text))
    if moves is None:
        moves = legal_list(pos)
    fr = parse_square(text[:2])
    to = parse_square(text[2:4])
    promotion = PROMOTION_LETTERS.index(text[4]) + PROMOTE_N if len(text) == 5 else 0
    # Compared as numbers, not as text: a GUI replays the whole game's moves
    # with every `position` command, and this makes no garbage per move.
    for move in moves:
        if move_from(move) == fr and move_to(move) == to:
            flag = move >> 12
            if (flag if flag >= PROMOTE_N else 0) == promotion:
                return move  # castling here is the king taking its rook (e1h1)
            if not promotion:
                raise ValueError(needs_piece(text))
    for move in moves:  # castling as the king's destination (e1g1), if no king move goes there
        if not promotion and is_castle(move) and move_from(move) == fr and \
                king_destination(pos, move) == to:
            return move
    raise ValueError("illegal move: " + text)
