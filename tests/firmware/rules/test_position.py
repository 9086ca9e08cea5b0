"""The board: FEN in and out, make/unmake, hashing, allocation-free move generation."""
import gc

from micro960.rules.movegen import legal_moves, move_buffer, perft
from micro960.rules.notation import parse_move, uci_text
from micro960.rules.position import Position

from support import legal, raises

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

BAD_FENS = (
    "",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",  # 7 ranks
    "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",  # 9 squares
    "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",  # 7 squares
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",  # side
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0 1",  # castling letter
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1",  # ep rank
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",  # ep without pawn
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",  # counter
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",  # piece letter
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQQBNR w KQkq - 0 1",  # no white king
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1",  # two kings
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/PNBQKBNR w kq - 0 1",  # pawn on rank 1
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w Q - 0 1",  # no rook for Q
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KC - 0 1",  # no rook on c1
    "4k3/8/8/8/8/8/8/4K1RR w HG - 0 1",  # h-side twice
    "4k3/8/8/8/8/8/4K3/R7 w Q - 0 1",  # king off the back rank
    "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",  # side not to move in check
    "11qrkrnn/pp1pp3/2p4p/5pp1/3P2P1/4P1bN/PPP2P1P/BBQR1RKN w - - 1 6",  # 11 (fuzzing)
)


def test_bad_fens_raise_and_leave_the_position_alone():
    pos = Position(KIWIPETE)
    before = pos.fen(), pos.key
    for fen in BAD_FENS:
        assert raises(ValueError, pos.set_fen, fen), fen
        assert (pos.fen(), pos.key) == before, fen


# Positions no game can reach, each with a word its error must name: every
# one is a FEN python-chess's Board.status() calls invalid.
IMPOSSIBLE = (
    # A white pawn on a3 beside eight more: today's nine pawns crashed perft.
    ("rnbqkbnr/pppppppp/8/8/8/P7/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "pawns"),
    ("rnbqkbnr/pppppppp/p7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "pawns"),
    ("rnbqkbnr/pppppppp/n7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "pieces"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNp w Qkq - 0 1", "rank"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQQBNR w kq - 0 1", "king"),
    ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "rook"),
    ("4k3/8/8/8/8/8/4K3/7R w K - 0 1", "back rank"),
    ("4k3/8/8/8/8/8/8/R3K3 w Qk - 0 1", "rook"),
    ("4k2r/8/8/8/8/8/8/4K2R w kK - 0 1", "first"),
    ("4k3/8/8/8/4P3/8/4N3/4K3 b - e3 0 1", "en passant"),  # e2 taken: no double push
    ("4k3/8/8/8/8/4P3/8/4K3 b - e3 0 1", "en passant"),  # a pawn on the ep square
    ("4k3/8/8/1B6/8/8/8/4K3 w - - 0 1", "not to move"),
    ("4k3/3P1P2/5N2/8/8/8/8/4K3 b - - 0 1", "3 pieces"),
    ("R3k2R/8/8/8/8/8/8/4K3 b - - 0 1", "line"),  # two rooks on the 8th rank
    # After e2-e4 only the pawn, or a piece it uncovered, can give check:
    # not the knight on c6.
    ("8/8/2N5/k7/4P3/8/8/4K3 b - e3 0 1", "double pawn push"),
)


def test_impossible_positions_are_refused_with_their_reason():
    pos = Position(KIWIPETE)
    before = pos.fen(), pos.key
    for fen, reason in IMPOSSIBLE:
        try:
            pos.set_fen(fen)
            assert False, "accepted " + fen
        except ValueError as e:
            assert reason in str(e), (fen, str(e))
        assert (pos.fen(), pos.key) == before, fen


def test_unusual_but_possible_positions_are_accepted():
    for fen in (
            "8/8/8/8/4P3/8/R6k/4K3 b - e3 0 1",  # e2-e4 uncovered the rook's check
            "4k3/8/8/8/8/8/8/4K1RR w G - 0 1",  # the inner rook keeps its right
            "4k3/8/8/8/8/8/8/4K2R w KH - 0 1",  # one right written twice
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1"):
        Position(fen)


def test_xfen_uses_file_letters_for_inner_rooks():
    # Two white rooks on the h-side: the right belongs to the inner one (f1).
    pos = Position("4k3/8/8/8/8/8/8/4KRRR w F - 0 1")
    assert pos.fen() == "4k3/8/8/8/8/8/8/4KRRR w F - 0 1"
    pos = Position("4k3/8/8/8/8/8/8/4K1RR w K - 0 1")
    assert pos.fen(shredder=True) == "4k3/8/8/8/8/8/8/4K1RR w H - 0 1"
    pos = Position("rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1")
    assert pos.fen() == "rk2r3/8/8/8/8/8/8/RK2R3 w KQkq - 0 1"


def test_four_field_fen_gets_default_counters():
    assert Position("4k3/8/8/8/8/8/8/4K3 b - -").fen() == "4k3/8/8/8/8/8/8/4K3 b - - 0 1"


def test_en_passant_written_only_when_legal():
    pos = Position("4k3/8/8/8/5p2/8/4P3/4K3 w - - 0 1")
    pos.push(parse_move(pos, "e4"))
    assert pos.fen().split()[3] == "e3"
    # Same double push, but the capturing pawn is pinned to its king.
    pos = Position("8/8/8/8/5p1k/8/4P3/K1B5 w - - 0 1")
    pos.set_fen("8/8/8/8/5p2/8/4P3/K1B4k w - - 0 1")
    pos.push(parse_move(pos, "e4"))
    assert pos.fen().split()[3] == "e3"
    pos = Position("8/8/8/8/5p2/8/4P1k1/K1B5 w - - 0 1")
    pos.set_fen("8/8/8/8/k4p2/8/4P3/K5R1 w - - 0 1")
    pos.push(parse_move(pos, "e4"))
    assert pos.fen().split()[3] == "e3"
    pos = Position("8/8/8/8/R4p1k/8/4P3/K7 w - - 0 1")
    pos.push(parse_move(pos, "e4"))
    # e4 and f4 both leave the fourth rank: the rook would give check.
    assert pos.fen().split()[3] == "-"


def test_push_pop_restores_everything_and_keys_stay_incremental():
    pos = Position(KIWIPETE)
    start = pos.fen(), pos.key, bytes(pos.board)
    for move in legal(pos):
        pos.push(move)
        assert pos.key == pos.compute_key(), uci_text(pos, move)
        for reply in legal(pos):
            pos.push(reply)
            assert pos.key == pos.compute_key()
            pos.pop(reply)
        pos.pop(move)
        assert (pos.fen(), pos.key, bytes(pos.board)) == start


def test_a_snapshot_sets_the_position_up_again_without_its_fen():
    """What a game keeps of its start position (history.py): restore() gives
    back the board, rights, en passant square, counters and key."""
    fens = ("rk2r3/8/8/8/3pP3/8/8/RK2R3 b AEae e3 3 31", KIWIPETE, "7k/8/8/8/8/8/8/3RK3 w D - 0 1")
    for fen in fens:
        pos = Position(fen)
        snapshot = pos.snapshot()
        for move in legal(pos)[:3]:
            pos.push(move)
            pos.commit()
        pos.restore(snapshot)
        fresh = Position(fen)
        assert (pos.fen(), pos.key, sorted(legal(pos))) == (fresh.fen(), fresh.key,
                                                             sorted(legal(fresh)))
        copy = Position(stack_size=2, start=snapshot)
        assert (copy.fen(), copy.key) == (fresh.fen(), fresh.key)


def test_chess960_castling_corners():
    # King on b1 castles a-side to c1 (it moves towards the h-file) with the a1 rook.
    pos = Position("1k6/8/8/8/8/8/8/RK6 w A - 0 1")
    pos.push(parse_move(pos, "O-O-O"))
    assert pos.fen().split()[0] == "1k6/8/8/8/8/8/8/2KR4"
    # Rook on the king's destination: king e1, rook g1 -> Kg1, Rf1.
    pos = Position("4k3/8/8/8/8/8/8/4K1R1 w G - 0 1")
    pos.push(parse_move(pos, "O-O"))
    assert pos.fen().split()[0] == "4k3/8/8/8/8/8/8/5RK1"
    # The king does not move: king g1, rook h1.
    pos = Position("6k1/8/8/8/8/8/8/6KR w H - 0 1")
    pos.push(parse_move(pos, "O-O"))
    assert pos.fen().split()[0] == "6k1/8/8/8/8/8/8/5RK1"
    # The rook does not move: rook d1 is already home for O-O-O.
    pos = Position("7k/8/8/8/8/8/8/3RK3 w D - 0 1")
    pos.push(parse_move(pos, "O-O-O"))
    assert pos.fen().split()[0] == "7k/8/8/8/8/8/8/2KR4"
    # King f1 and rook g1 swap squares.
    pos = Position("5k2/8/8/8/8/8/8/5KR1 w G - 0 1")
    move = parse_move(pos, "O-O")
    assert uci_text(pos, move) == "f1g1"
    pos.push(move)
    assert pos.fen().split()[0] == "5k2/8/8/8/8/8/8/5RK1"


def test_castling_attack_rules():
    # A square only the rook passes may be attacked.
    pos = Position("1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1")
    assert parse_move(pos, "O-O-O")
    # A square the king passes may not.
    pos = Position("3rk3/8/8/8/8/8/8/R3K3 w Q - 0 1")
    assert raises(ValueError, parse_move, pos, "O-O-O")
    # Nor may its destination, even when the castling rook shields it now:
    # king f1, rook b1, enemy rook a1 -> after O-O-O the king on c1 is in check.
    pos = Position("4k3/8/8/8/8/8/8/rR3K2 w B - 0 1")
    assert raises(ValueError, parse_move, pos, "O-O-O")
    # Every square between king and rook and their destinations must be empty.
    pos = Position("4k3/8/8/8/8/8/8/1RN1K3 w B - 0 1")
    assert raises(ValueError, parse_move, pos, "O-O-O")
    # No castling out of check.
    pos = Position("4k3/8/8/8/8/8/4r3/R3K3 w Q - 0 1")
    assert raises(ValueError, parse_move, pos, "O-O-O")


def test_en_passant_discovered_check_is_illegal():
    pos = Position("8/8/8/KPp4r/8/8/8/7k w - c6 0 1")
    texts = [uci_text(pos, m) for m in legal(pos)]
    assert "b5c6" not in texts
    pos = Position("8/8/8/1Pp5/8/8/8/K6k w - c6 0 1")
    assert "b5c6" in [uci_text(pos, m) for m in legal(pos)]


def test_move_generation_allocates_nothing_per_node():
    if not hasattr(gc, "mem_alloc"):
        return  # CPython has no heap counter; this check is for MicroPython
    pos = Position(KIWIPETE)
    buf = move_buffer(1024)
    perft(pos, 2, buf)
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc()
        nodes = perft(pos, 3, buf)
        after = gc.mem_alloc()
    finally:
        gc.enable()
    assert nodes == 97862
    assert after - before == 0, after - before


def test_perft_counts_from_stack_of_positions():
    pos = Position(KIWIPETE)
    buf = move_buffer(1024)
    assert perft(pos, 1, buf) == 48
    assert legal_moves(pos, buf, 0) == 48


def test_the_fen_code_is_loaded_through_compat_and_given_back():
    """Position reaches fen.py through compat.load, the one place that loads a
    module used now and then; compat.release gives its heap back (MicroPython
    forgets it; CPython keeps what it loads)."""
    import sys
    from micro960 import compat
    name = "micro960.rules.fen"
    package, _, leaf = name.rpartition(".")
    assert compat.load("rules.fen") is sys.modules[name]
    assert Position().fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    compat.release("rules.fen")
    if compat.IS_MICROPYTHON:
        assert name not in sys.modules and leaf not in sys.modules[package].__dict__
    assert compat.load("rules.fen").write(Position(KIWIPETE)) == KIWIPETE
    assert name in sys.modules
