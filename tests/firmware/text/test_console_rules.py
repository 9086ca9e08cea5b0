"""The console under each rule set: set-ups in the rules' own numbering, back
ranks wherever legal, games played to the end, and draws offered.

(Apart from test_console: a small heap holds one of these modules at a time.)
"""
from test_console import console


def test_a_shuffle_game_is_numbered_by_its_own_set_ups_and_plays_to_the_end():
    c, said = console("shuffle", 8)
    c.handle("new 549")
    assert said[-1] == "error: shuffle set-ups run from 0 to 17"
    for line in ("new classical", "new RNBQKBNR", "new 8"):
        c.handle(line)
        assert "New shuffle game. Start position set-up 8 (RNBQKBNR)." in said, line
    c.handle("new RBNBKNQR")  # bishops on one colour
    assert said[-1].startswith("error: bishops must stand on opposite colours")
    for line in ("f3", "e5", "g4", "Qh4#"):
        c.handle(line)
    assert "Game over: 0-1 (checkmate)" in said
    c.handle("pgn")
    assert '[Variant "Shuffle"]' in said[-1] and said[-1].endswith("2. g4 Qh4# 0-1")
    c.handle("rules shuffle")
    c.handle("resign")
    # (a test of a small heap: no one string of all that was said)
    assert said[-1] == "Type new for another game." and any("White resigns" in line
                                                            for line in said)


def test_lrs_set_ups_are_random_any_rank_and_without_castling_or_check():
    c, said = console("lrs")
    ranks = set()
    for _ in range(6):
        c.handle("new")
        ranks.add(c.game.start_fen.split("/")[7][:8])
    assert len(ranks) > 1 and "RNBQKBNR" not in ranks or len(ranks) > 2
    for rank in ("RNBQKBNR", "RKRNNQBB", "BBKNNQRR"):
        del said[:]  # (the lines said so far would fill a small heap: the last ones tell)
        c.handle("new " + rank)
        assert c.game.start_fen.split()[0].endswith("/" + rank), (rank, said[-3:])
    c.handle("new fen r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1")
    assert c.game.start_fen.split()[2:4] == ["-", "-"]
    c.handle("new fen 4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    c.handle("Ra8")
    assert "Check." not in said
    c.handle("draw")
    assert said[-1] == "error: lrs has no draws but the one after 1024 plies"


def test_double960_announces_both_set_ups_and_takes_two_numbers_at_most():
    c, said = console("double960")
    c.handle("new 3 900")
    assert "New double960 game. Start position SP 3 / SP 900 (BQNNRKRB / RBBKQRNN)." in said
    fen = c.game.start_fen
    c.handle("new 3 4 5")
    assert said[-1] == "error: double960 takes White's and Black's set-up"
    del said[:]
    c.handle("new fen " + fen)
    assert said[0] == "New double960 game. Start position SP 3 / SP 900 (BQNNRKRB / RBBKQRNN)."
    c.handle("new 5")
    assert "New double960 game. Start position SP 5 (QNBBNRKR)." in said


def test_a_draw_is_offered_and_accepted_or_declined():
    c, said = console("chess960", 518)
    c.handle("draw")  # two people: White offers
    assert said[-1] == "White offers a draw; Black may type accept before their next move."
    c.handle("e4")
    c.handle("accept")
    assert c.game.result() == "1/2-1/2" and "Game over: 1/2-1/2 (draw agreed)" in said
    c.handle("new 518")
    c.handle("draw")
    c.handle("accept")  # White cannot take its own offer (it once could: issue 40)
    assert said[-1] == "error: White offered the draw: Black may accept it, after White's move"
    assert c.game.result() == "*"
    c.handle("e4")
    c.handle("e5")  # Black moved on: the offer has lapsed
    c.handle("accept")
    assert said[-1] == "error: no draw offer to accept"
    c, said = console("chess960", 518, engine_side=16)
    c.engine_score = 30  # the engine stands better
    c.handle("draw")
    assert said[-1] == "micro960 declines the draw; play on." and c.game.result() == "*"
    c.engine_score = -250
    c.handle("draw")
    assert "micro960 accepts the draw." in said and c.game.result() == "1/2-1/2"


def test_a_set_up_phase_places_the_pieces_in_turn_then_the_game_begins():
    c, said = console("chess960", 518)
    c.handle("new setup")
    assert said[-1] == "White places a bishop: a1 b1 c1 d1 e1 f1 g1 h1"
    for line, error in (("e4", "error: the set-up goes on: White places a bishop"),
                        ("Qc1", "error: the set-up goes on"), ("c1", None),
                        ("e1", "error: no start position of chess960 has a bishop on e1"),
                        ("c1", "error: c1 is taken"), ("d1", None), ("Qa1", None),
                        ("b1", None), ("undo", None), ("b1", None), ("f1", None),
                        ("g1", "error: no start position of chess960 has a rook on g1"),
                        ("h1", None)):
        before = c.setup and list(c.setup.setup.placed)
        c.handle(line)
        if error:
            assert said[-1].startswith(error), (line, said[-1])
            assert c.setup and c.setup.setup.placed == before, line
    # The king has one square left, and then the rook: they are not asked
    # for (the king on e1 was refused here before, and g1 and e1 typed).
    assert "White's king goes on g1, the only square left." in said
    assert "Black's rook goes on e1, the only square left." in said
    assert not any(text.startswith("White places a king") for text in said)
    assert c.setup is None
    assert c.game.start_fen == "qnbbrnkr/pppppppp/8/8/8/8/PPPPPPPP/QNBBRNKR w KQkq - 0 1"
    assert any(line.startswith("Set-up done. New chess960 game. Start position SP ")
               for line in said)
    c.handle("e4")
    assert c.game.moves and said[-1] == "Black to move"


def test_the_engine_places_at_once_when_it_takes_the_side_to_place():
    """After `black` in a set-up phase the engine plays White, whose piece
    is to be placed: it once waited, and the person placed it (issue 40)."""
    c, said = console("chess960", 518, engine_side=16)
    c.handle("new setup")
    c.handle("black")
    assert any(line.startswith("micro960 places its bishop on ") for line in said), said[-4:]
    assert said[-1].startswith("Black places a bishop: "), said[-4:]


def test_the_engine_places_its_own_pieces_and_each_side_its_own_rank():
    c, said = console("double960", engine_side=16)  # the engine is Black
    c.handle("new setup")
    assert "each side places its own pieces" in " ".join(said)
    c.handle("d8")
    assert said[-1] == "error: White places on rank 1"
    for _ in range(8):
        if c.setup:
            c.handle("abcdefgh"[c.setup.setup.allowed()[0]] + "1")
    assert c.setup is None and c.game.rules.name == "double960"
    assert sum(line.startswith("micro960 places its ") for line in said) == 8
    fields = c.game.start_fen.split("/")
    assert fields[0].islower() and fields[7].split()[0].isupper()


def test_every_rule_set_starts_announces_and_plays_on_the_console():
    from micro960.rules.variants import NAMES
    c, said = console()  # one console: a 192K heap holds only a few engines' tables
    for name in NAMES:
        del said[:]
        c.handle("rules " + name)
        assert said[0].startswith("Rules: %s. Start position " % name), said[0]
        assert ("SP " in said[0]) == (name in ("chess960", "classical", "double960", "chess480")) \
            or "set-up " in said[0], said[0]
        c.handle("e4")
        assert len(c.game.moves) == 1, (name, said[-3:])
        c.handle("pgn")
        tag = {"classical": None, "chess960": "Chess960", "double960": "Double960",
               "shuffle": "Shuffle", "chess480": "Chess480", "transcendental": "Transcendental",
               "lrs": "LRS"}[name]
        assert ('[Variant "%s"]' % tag in said[-1]) if tag else "Variant" not in said[-1]


def test_chess480_castles_on_the_console():
    c, said = console("chess480")
    c.handle("new fen rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1")
    c.handle("O-O-O")  # the king beside its rook in the corner: they swap
    c.handle("O-O")  # Kb8-d8, Rh8-c8
    assert c.game.pos.fen().split()[0] == "r1rk4/pppppppp/8/8/8/8/PPPPPPPP/KR5R", said[-3:]


def test_a_bad_new_leaves_a_set_up_phase_as_it_was():
    c, said = console("chess960")
    c.handle("new setup")
    c.handle("c1")
    for line in ("new 9999", "rules atomic", "new RNBQKBNX"):
        c.handle(line)
        assert said[-1].startswith("error"), line
        assert c.setup and c.setup.setup.placed == [(0, 2)], line
    c.handle("rules shuffle")  # a good one ends it
    assert c.setup is None and c.game.rules.name == "shuffle"


def test_a_set_up_phase_shows_its_own_board_and_says_what_undo_took_back():
    c, said = console("chess960", 518, engine_side=16)  # the engine is Black
    c.handle("e4")  # (the engine answers)
    del said[:]
    c.handle("new setup")
    boards = [line for line in said if line.startswith("2 |")]
    assert boards and all(line == "2 | P P P P P P P P |" for line in boards), said
    assert said[-1] == "White places a bishop: a1 b1 c1 d1 e1 f1 g1 h1"
    c.handle("c1")
    assert any(line.startswith("micro960 places its bishop on ") for line in said)
    del said[:]
    c.handle("undo")  # yours and the engine's
    assert said[0] == "Took back 2 placements." and not c.setup.setup.placed, said
    c.handle("undo")
    assert said[-1] == "error: no piece placed yet"


def test_new_setup_with_words_after_it_says_so():
    c, said = console("chess960", 518)
    c.handle("new setup extra")
    assert said[-1] == "error: new setup takes nothing after it, not 'extra'", said[-1]
    assert c.setup is None


def test_a_claimed_draw_reads_without_nested_parentheses():
    c, said = console("chess960", 518)
    for line in ("Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8", "draw"):
        c.handle(line)
    assert "Game over: 1/2-1/2 (threefold repetition claimed)" in said, said[-12:]
