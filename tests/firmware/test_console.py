"""The console game: commands work, and every bad line is refused with a reason."""
from micro960.console import Console
from micro960.search import Limits


def console(*args, **kwargs):
    """A two-player console (the engine only moves when asked) and what it says."""
    said = []
    kwargs.setdefault("engine_side", None)
    kwargs.setdefault("hash_kb", 4)
    c = Console(*args, out=said.append, **kwargs)
    c.limits = Limits(nodes=300)  # keep engine moves quick and repeatable
    return c, said


def state(c):
    return c.game.pos.fen(), list(c.game.moves), c.game.result()


def test_bad_lines_get_one_line_and_change_nothing():
    c, said = console("chess960", 518)
    c.handle("e4")
    before = state(c)
    for line in ("Ke3", "e5e4", "Nd2", "xyzzy", "new 960", "new fen 8/8/8 w - - 0 1",
                 "new dice 1 2", "rules atomic", "draw", "undo now please" * 30,
                 "e4\x1b[A", "\x00", "Rd1", "new RNBQKBNX", "fen\x7f"):
        del said[:]
        c.handle(line)
        assert len(said) == 1 and said[0].startswith("error: "), (line, said)
        assert state(c) == before, line


def test_a_short_game_with_castling_by_king_onto_rook_and_undo():
    c, said = console("chess960", 518)
    for line in ("e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "e1h1"):
        c.handle(line)
    assert "4. O-O" in said
    c.handle("undo")
    c.handle("e1g1")  # the king's destination: here it can only mean castling
    c.handle("fen")
    assert said[-1] == "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4"


def test_results_are_announced_with_their_reason():
    c, said = console("chess960", 518)
    for line in ("f3", "e5", "g4", "Qh4#"):
        c.handle(line)
    assert "Game over: 0-1 (checkmate)" in said
    c.handle("a3")
    assert said[-1].startswith("error: the game is over")
    c.handle("new 0")
    assert c.game.result() == "*" and c.game.pos.fen().startswith("bbqnnrkr/")
    c.handle("resign")
    assert "Game over: 0-1 (White resigns)" in said


def test_set_ups_and_views():
    c, said = console()
    c.handle("new dice 1 1 1 1 1")
    assert c.game.pos.fen().startswith("bbqnnrkr/")  # SP 0
    c.handle("new RKRNNQBB")
    assert c.game.pos.fen().startswith("rkrnnqbb/")
    c.handle("new classical")
    c.handle("flip")
    assert said[-2].startswith("    h g f")
    c.handle("unicode")
    assert "\u2654" in "".join(said[-12:])
    c.handle("rules lrs")
    assert c.game.rules.name == "lrs"
    c.handle("moves")
    assert said[-1].split()[0] == "Na3"
    c.handle("help")
    assert "resign" in said[-1]
    c.handle("pgn")
    assert '[Variant "LRS"]' in said[-1]


def test_playing_the_engine():
    c, said = console("chess960", 518, engine_side=8 * 2)  # the engine plays Black
    c.handle("e4")
    assert any(line.startswith("micro960 plays 1...") for line in said)
    assert any(line.startswith("  depth 1 ") for line in said)
    assert len(c.game.moves) == 2
    c.handle("undo")  # takes back the engine's reply and your move
    assert len(c.game.moves) == 0
    c.handle("hint")
    assert said[-1].startswith("Hint: ")
    c.handle("level 3")
    c.handle("black")  # the engine takes White and moves at once
    assert len(c.game.moves) == 1
    c.handle("level 21")
    assert said[-1].startswith("error: ")
    c.handle("both")
    c.handle("go")  # the engine plays the side to move now
    assert len(c.game.moves) == 2
