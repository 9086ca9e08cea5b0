"""Move text: SAN out and in, lenient input, and (from rules/ucimove.py) UCI text.

    >>> from micro960.rules.position import Position
    >>> pos = Position()                   # the classical start position
    >>> move = parse_move(pos, "Nf3")
    >>> uci_text(pos, move), san(pos, move)
    ('g1f3', 'Nf3')
"""
from micro960.rules.position import (EN_PASSANT, PAWN, PIECE_LETTERS, side_name,  # noqa: F401
                                     square_name)
# UCI move text has a module of its own (the UCI engine needs nothing else
# from here); it is part of this module's interface all the same.
from micro960.rules.ucimove import (  # noqa: F401
    PROMOTION_LETTERS, is_castle, king_destination, legal_list, move_from, move_to, needs_piece,
    promotion_type, uci_text,
)


def san(pos, move, moves=None):
    """Standard algebraic notation with minimal disambiguation, +, # and =Q."""
    if moves is None:
        moves = legal_list(pos)
    text = _san_core(pos, move, moves)
    if pos.king_capture:
        return text
    pos.push(move)
    if pos.in_check():
        text += "#" if not legal_list(pos) else "+"
    pos.pop(move)
    return text


def san_line(pos, line):
    """The SAN of a line of moves played from `pos` (a search's best line);
    `pos` is as it was after."""
    texts = []
    for move in line:
        texts.append(san(pos, move))
        pos.push(move)
    for move in reversed(line):
        pos.pop(move)
    return texts


def _san_core(pos, move, moves):
    if is_castle(move):
        return "O-O" if move_to(move) > move_from(move) else "O-O-O"
    fr, to = move_from(move), move_to(move)
    kind = pos.board[fr] & 7
    capture = pos.board[to] != 0 or move >> 12 == EN_PASSANT
    if kind == PAWN:
        text = (square_name(fr)[0] + "x" if capture else "") + square_name(to)
        if promotion_type(move):
            text += "=" + PIECE_LETTERS[promotion_type(move)]
        return text
    text = PIECE_LETTERS[kind] + _disambiguation(pos, move, moves, kind, fr, to)
    return text + ("x" if capture else "") + square_name(to)


def _disambiguation(pos, move, moves, kind, fr, to):
    rivals = [m for m in moves if m != move and not is_castle(m) and move_to(m) == to
              and pos.board[move_from(m)] & 7 == kind]
    if not rivals:
        return ""
    name = square_name(fr)
    if all(square_name(move_from(m))[0] != name[0] for m in rivals):
        return name[0]
    if all(square_name(move_from(m))[1] != name[1] for m in rivals):
        return name[1]
    return name


def _spellings(pos, move, moves):
    """Every text we accept for a move, in the normal form _normalise gives input."""
    fr, to = move_from(move), move_to(move)
    f, t = square_name(fr), square_name(to)
    promo = PIECE_LETTERS[promotion_type(move)] if promotion_type(move) else ""
    keys = [f + t + promo]
    if is_castle(move):
        keys.append("OO" if to > fr else "OOO")
        dest = square_name(king_destination(pos, move))
        if dest != t and not any(m != move and move_from(m) == fr and move_to(m) ==
                                 king_destination(pos, move) for m in moves):
            keys.append(f + dest)
        return keys
    kind = pos.board[fr] & 7
    if kind == PAWN:
        keys.append(t + promo if f[0] == t[0] else f[0] + t + promo)
        if promo:  # "e8" alone names all four promotions, so it is ambiguous
            keys.append(t if f[0] == t[0] else f[0] + t)
    else:
        letter = PIECE_LETTERS[kind]
        keys += [letter + t, letter + f[0] + t, letter + f[1] + t, letter + f + t]
    return keys


def _normalise(text):
    """Strip what SAN input may carry but does not decide: x, -, =, +, #, !, ?."""
    text = text.strip()
    if text.replace("0", "O").replace("o", "O") in ("O-O", "O-O-O", "OO", "OOO"):
        return text.replace("0", "O").replace("o", "O").replace("-", "")
    out = ""
    for ch in text:
        if ch not in "x-:=+#!?()":
            out += ch
    if len(out) == 5 and out[4] in "nbrq" and out[1] in "12345678":
        out = out[:4] + out[4].upper()  # UCI promotion letter: e7e8q
    return out


def parse_move(pos, text, moves=None):
    """SAN, UCI (either castling form) or lenient input -> a legal move.

    Raises ValueError saying whether the text is illegal or ambiguous.
    """
    if moves is None:
        moves = legal_list(pos)
    wanted = _normalise(text)
    if not wanted or len(wanted) > 8:
        raise ValueError("not a move: " + repr(text))
    exact = []
    folded = []  # matches in either case: nf3, E4, o-o
    lower = wanted.lower()
    for m in moves:
        keys = _spellings(pos, m, moves)
        if wanted in keys:
            exact.append(m)
        elif lower in [k.lower() for k in keys]:
            folded.append(m)
    found = exact or folded
    if len(found) == 1:
        return found[0]
    if found:
        names = ", ".join(san(pos, m, moves) for m in found)
        raise ValueError("ambiguous move %s: could be %s" % (text, names))
    for m in moves:
        if promotion_type(m) and uci_text(pos, m)[:4] == lower:
            raise ValueError(needs_piece(text.strip()))
    hint = ""
    if wanted[:1] in ("K", "k"):  # SAN writes castling O-O: perhaps a king move meant it
        from micro960.rules.castling_hint import castling_hint  # (loaded for it alone)
        hint = castling_hint(pos, wanted, moves)
    raise ValueError("illegal move: " + text + hint)
