"""Move text: UCI both ways, SAN out and in, lenient human input, bad input."""
from micro960.rules.notation import parse_move, san, uci_text
from micro960.rules.ucimove import parse_uci
from micro960.rules.position import Position

from support import legal, raises

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def test_lenient_input_finds_the_same_move():
    pos = Position(START)
    move = parse_move(pos, "Nf3")
    for text in ("nf3", "Ng1f3", "g1f3", "g1-f3", "Ng1-f3", "N1f3", "Ngf3"):
        assert parse_move(pos, text) == move, text
    pawn = parse_move(pos, "e4")
    for text in ("e2e4", "e2-e4", "E4", "e4!", "e4?!"):
        assert parse_move(pos, text) == pawn, text


def test_castling_in_every_spelling():
    pos = Position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    short = parse_move(pos, "O-O")
    for text in ("0-0", "o-o", "OO", "e1h1", "e1g1", "O-O+"):
        assert parse_move(pos, text) == short, text
    assert uci_text(pos, short) == "e1h1"
    assert uci_text(pos, short, chess960=False) == "e1g1"
    long = parse_move(pos, "0-0-0")
    assert uci_text(pos, long, chess960=False) == "e1c1"
    assert san(pos, long) == "O-O-O"


def test_king_step_onto_castling_square_stays_a_king_step():
    # King f1, rook h1: f1g1 is a king move; castling is f1h1 or O-O.
    pos = Position("4k3/8/8/8/8/8/8/5K1R w H - 0 1")
    step = parse_move(pos, "f1g1")
    assert step >> 12 != 3
    assert parse_move(pos, "f1h1") >> 12 == 3
    assert san(pos, step) == "Kg1"


def test_disambiguation_and_promotion():
    pos = Position("4k3/1P6/8/8/8/8/4K3/R6R w - - 0 1")
    assert san(pos, parse_move(pos, "a1d1")) == "Rad1"
    assert raises(ValueError, parse_move, pos, "Rd1")  # ambiguous
    assert san(pos, parse_move(pos, "b8=Q")) == "b8=Q+"
    assert san(pos, parse_move(pos, "b7b8n")) == "b8=N"
    assert raises(ValueError, parse_move, pos, "b8")  # which piece?
    pos = Position("7k/6pp/8/8/8/8/8/R2R2K1 w - - 0 1")
    assert san(pos, parse_move(pos, "Rdd8")) == "Rd8#"


def test_checkmate_and_check_suffixes():
    pos = Position("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    assert san(pos, parse_move(pos, "Ra8")) == "Ra8#"
    pos = Position("6k1/5pp1/8/8/8/8/8/R5K1 w - - 0 1")
    assert san(pos, parse_move(pos, "Ra8")) == "Ra8+"


def test_bad_move_text_is_rejected_without_changing_the_position():
    pos = Position(START)
    before = pos.fen()
    for text in ("", "e5", "Nf4", "Ke2", "O-O", "zz9", "e2e5", "e7e5", "Qxh7", "e1e1",
                 "a" * 50, "e2e4e4", "\x00"):
        assert raises(ValueError, parse_move, pos, text), text
        assert pos.fen() == before
    for text in ("e2", "e2e4qq", "i2i4", "e9e4", "Nf3"):
        assert raises(ValueError, parse_uci, pos, text), text


def test_every_san_we_write_reads_back():
    pos = Position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    moves = legal(pos)
    for move in moves:
        assert parse_move(pos, san(pos, move, moves), moves) == move
        assert parse_move(pos, uci_text(pos, move), moves) == move


def test_a_promotion_without_its_piece_says_so():
    from micro960.rules.ucimove import parse_uci
    pos = Position("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    for parse in (parse_move, parse_uci):
        try:
            parse(pos, "a7a8")
            assert False, "a7a8 accepted"
        except ValueError as e:
            assert str(e) == "a7a8 needs a promotion piece: a7a8q, a7a8r, a7a8b or a7a8n", str(e)
    assert uci_text(pos, parse_move(pos, "a7a8n")) == "a7a8n"


def _error(pos, text):
    try:
        parse_move(pos, text)
    except ValueError as e:
        return str(e)
    return "accepted"


def test_a_king_move_only_castling_makes_points_to_o_o():
    """SAN writes every castling O-O or O-O-O: a Chess960 player's Kg8 (the
    king on f8, its rook on g8) or a classical Kg1 was a bare "illegal move"."""
    pos = Position("5kr1/8/8/8/8/8/8/4K3 b g - 0 1")  # king f8, rook g8: O-O is f8g8
    for text in ("Kg8", "Kxg8", "kg8", "Kf8g8", "Kfg8"):
        assert _error(pos, text) == "illegal move: %s; to castle, type O-O" % text, text
    pos = Position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    for text, castle in (("Kg1", "O-O"), ("Kh1", "O-O"), ("Ke1g1", "O-O"), ("Kc1", "O-O-O"),
                         ("Kxa1", "O-O-O")):
        assert _error(pos, text) == "illegal move: %s; to castle, type %s" % (text, castle)
    # No hint where castling is no answer: another square, another king
    # square, castling not legal now, rules without castling.
    assert _error(pos, "Kb1") == "illegal move: Kb1"
    assert _error(Position("5kr1/8/8/8/8/8/8/4K3 b g - 0 1"), "Kf7g8") == "illegal move: Kf7g8"
    attacked = Position("r3k2r/8/8/8/8/8/8/R3K1rR w KQkq - 0 1")  # g1 is attacked
    assert _error(attacked, "Kg1") == "illegal move: Kg1"
    assert _error(Position("5kr1/8/8/8/8/8/8/4K3 b - - 0 1"), "Kg8") == "illegal move: Kg8"
    # A king step onto the square castling also reaches stays a king step.
    step = parse_move(Position("4k3/8/8/8/8/8/8/5K1R w H - 0 1"), "Kg1")
    assert step >> 12 != 3
