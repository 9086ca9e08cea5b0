"""A hint for a king move typed in SAN that only castling makes.

notation.parse_move loads this module only when such a move is refused, so
a board's heap holds it only then (the console releases it after the line).
"""
from micro960.rules.position import square_name
from micro960.rules.ucimove import is_castle, king_destination, move_from, move_to


def castling_hint(pos, wanted, moves):
    """'; to castle, type O-O' when `wanted` (normalised input) is a king
    move in SAN that only castling could make: onto its own castling rook
    (Kg8 with the king on f8, the rook on g8) or to where castling puts it
    (Kg1 from e1). SAN writes every castling O-O or O-O-O."""
    if len(wanted) < 3:
        return ""
    to = wanted[-2:].lower()
    origin = wanted[1:-2].lower()  # Kf8g8, Kfg8: the king's square or a part of it
    for m in moves:
        king, rook = move_from(m), move_to(m)
        if is_castle(m) and origin in square_name(king) and \
                to in (square_name(rook), square_name(king_destination(pos, m))):
            return "; to castle, type " + ("O-O" if rook > king else "O-O-O")
    return ""
