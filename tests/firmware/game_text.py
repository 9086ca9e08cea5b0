"""A game's moves as lists of SAN or UCI text, its save as one text, and
the games of PGN lines, for the tests on both runtimes.

The firmware makes these only a piece at a time (Game.replay,
Game.save_pieces, pgn.PgnReader.feed): only tests want them whole, and in the
firmware their code would take every board's heap.
"""
from micro960.rules.ucimove import uci_text


def san_moves(game):
    """The game's moves from its start, in SAN."""
    from micro960.rules.notation import san
    return [san(pos, move) for pos, move in game.replay()]


def uci_moves(game):
    """The game's moves from its start as its rules' UCI writes them
    (castling king takes rook where that is Chess960's UCI)."""
    chess960 = game.rules.uci_chess960
    return [uci_text(pos, move, chess960) for pos, move in game.replay()]


def save_text(game):
    """The save of the game (Game.save_pieces) as one text: what
    storage.load_game rebuilds it from."""
    return "".join(game.save_pieces())


def read_games(lines):
    """Yield (tags, move tokens) for every game in an iterable of PGN lines."""
    from micro960.rules.pgn import PgnReader
    reader = PgnReader()
    for line in lines:
        game = reader.feed(line)
        if game:
            yield game
    game = reader.finish()
    if game:
        yield game
