"""The sensor board's move inference (eboard) and its game (eboard_game), on
both runtimes: every castling gesture from positions where king and rook
stand in each special way, captures, en passant, promotion, hovering,
glitches, errors, the set-up check, takebacks, snapshots, and the engine's
replies with their LEDs.
"""
import gc

from micro960.eboard.moves import (
    ERROR, OK, PENDING, SETUP, WAITING, EBoard, castle_squares64, gesture, move_squares,
    occupancy, parse_square64, squares_text,
)
from micro960.eboard.game import EBoardGame
from micro960.rules.game import Game
from micro960.rules.notation import parse_move, san

from support import raises


def sq(name):
    return parse_square64(name)


def events(board, text):
    """'-e2 +e4' lifts e2 and places on e4."""
    for word in text.split():
        if word[0] == "-":
            board.lift(sq(word[1:]))
        else:
            board.place(sq(word[1:]))


def new_board(rules="chess960", fen=None, number=None):
    game = Game(rules, fen, number)
    board = EBoard(game)
    board.log = []
    board.on_move = lambda move, text: board.log.append(text)
    board.on_undo = lambda move: board.log.append("-" + san(game.pos, move))
    board.on_error = lambda text: board.log.append("error")
    return board


def test_squares_and_masks():
    assert sq("a1") == 0 and sq("h1") == 7 and sq("a2") == 8 and sq("h8") == 63
    assert raises(ValueError, parse_square64, "i1") and raises(ValueError, parse_square64, "e")
    assert squares_text((1 << 4) | (1 << 63)) == "e1 h8"
    assert occupancy(Game("chess960", number=518).pos) == 0xFFFF00000000FFFF


def test_quiet_moves_and_hovering():
    board = new_board(number=518)
    events(board, "-g1 +g1 -e7 +e7")  # hover own piece, hover opponent's piece
    assert board.log == [] and board.status == OK
    events(board, "-e2")
    assert board.status == WAITING
    events(board, "+e4 -e7 +e5 -g1 +f3")
    assert board.log == ["e4", "e5", "Nf3"]


def test_captures_with_either_piece_lifted_first():
    board = new_board(number=518)
    events(board, "-e2 +e4 -d7 +d5")
    events(board, "-d5 -e4 +d5")  # the taken piece first
    events(board, "-d8 -d5 +d5")  # the capturing piece first
    assert board.log == ["e4", "d5", "exd5", "Qxd5"]
    # A capturing piece in the hand is no capture yet: Nc3 attacks d5, but the
    # knight held over the board only counts once the queen is gone.
    events(board, "-b1")
    assert board.status == WAITING and len(board.log) == 4
    events(board, "+c3")
    assert board.log[-1] == "Nc3"


def test_one_piece_with_two_captures_takes_the_one_lifted():
    board = new_board(number=518)
    events(board, "-e2 +e4 -d7 +d5 -d5 -e4 +d5 -d8 -d5 +d5 -b1 +c3")
    # The queen on d5 can take a2 and g2; a2 touched and put back, g2 taken.
    events(board, "-a2 +a2 -d5 -g2 +g2")
    assert board.log[-1] == "Qxg2"


def test_en_passant_with_the_pawn_taken_before_or_after():
    for order in ("-d5 -e5 +d6", "-e5 +d6 -d5", "-e5 -d5 +d6"):
        board = new_board(number=518)
        events(board, "-e2 +e4 -a7 +a6 -e4 +e5 -d7 +d5")
        events(board, order)
        assert board.log[-1] == "exd6", order
        assert board.game.pos.fen().startswith("rnbqkbnr/1pp1pppp/p2P4/8/8/8/")


def test_promotion_queen_by_default_and_chosen_underpromotion():
    fen = "r3k3/1PP5/8/8/8/8/1p4p1/4K2R w K - 0 1"
    board = new_board(fen=fen)
    events(board, "-c7 +c8")
    assert board.log == ["c8=Q+"]
    board = new_board(fen=fen)
    assert raises(ValueError, board.promote, "k")
    board.promote("n")
    events(board, "-b7 -a8 +a8")
    board.promote("r")
    events(board, "-b2 +b1")
    assert board.log == ["bxa8=N", "b1=R+"]
    events(board, "-e1 +d2 -g2 -h1 +h1")  # the choice counted once: a queen again
    assert board.log[-1] == "gxh1=Q"


def castling_positions():
    """Positions with only kings, rooks and pawns, so castling is legal at once:
    each special placement of king and rook, for White and for Black."""
    rows = ("R3K2R", "RK5R", "1R4KR", "3RK1R1", "2RK3R", "R4KR1", "R1K4R", "1R3K1R",
            "R2K3R", "2R2KR1", "1RK2R2", "R5KR", "RK4R1", "3RKR2", "RKR5")
    positions = []
    for row in rows:
        row = _pad(row)
        rights = ""
        file = 0
        for ch in row:
            if ch == "R":
                rights += "abcdefgh"[file]
            file += int(ch) if ch.isdigit() else 1
        rights = rights.upper() + rights
        white = "%s/pppppppp/8/8/8/8/PPPPPPPP/%s w %s - 0 1" % (row.lower(), row, rights)
        positions.append(white)
        positions.append(white.replace(" w ", " b "))
    return positions


def _pad(row):
    """Fill a short back rank out to eight squares with digits (FEN)."""
    squares = 0
    for ch in row:
        squares += int(ch) if ch.isdigit() else 1
    return row + (str(8 - squares) if squares < 8 else "")


def castling_gestures(move):
    """Every castling gesture for this move, as (name, [(square, placed)])."""
    k0, r0, k1, r1 = castle_squares64(move)
    up = lambda s: (s, False)
    down = lambda s: (s, True)
    both = [up(k0), up(r0)]
    found = [("K R r k", both + [down(r1), down(k1)]), ("K R k r", both + [down(k1), down(r1)]),
             ("R K r k", [up(r0), up(k0), down(r1), down(k1)])]
    king = [up(k0), down(k1)] if k0 != k1 else []
    rook = [up(r0), down(r1)] if r0 != r1 else []
    swap = k1 == r0 and r1 == k0
    if not swap and k1 != r0:
        found.append(("king then rook", king + rook))
    if not swap and r1 != k0:
        found.append(("rook then king", rook + king))
    if k1 != k0 and r1 != r0:
        # The king put down on its own rook's square, the rook to its place,
        # then the king on.
        found.append(("king onto rook", [up(k0), up(r0), down(r0), down(r1), up(r0), down(k1)]))
    step = 1 if k1 > k0 else -1
    via = k0 + 2 * step
    if (k1 - k0) * step >= 3 and via != r0 and via != r1:
        found.append(("king part-way", [up(k0), down(via)] + rook + [up(via), down(k1)]))
    return found


def test_every_castling_gesture_from_special_placements():
    tried = 0
    for fen in castling_positions():
        game = Game("chess960", fen)
        castles = [m for m in game.legal_moves() if m >> 12 == 3]
        assert castles, fen
        for move in castles:
            for name, steps in castling_gestures(move):
                board = new_board(fen=fen)
                for square, placed in steps:
                    if placed:
                        board.place(square)
                    else:
                        board.lift(square)
                board.settle()
                assert board.game.moves and board.game.moves[-1] == move, (fen, name, board.log)
                assert "error" not in board.log, (fen, name, board.log)
                tried += 1
    assert tried > 150


def test_a_king_step_that_may_be_castling_waits_for_the_board():
    fen = "4rkbr/pppppppp/8/8/8/8/PPPPPPPP/4RKBR w KQkq - 0 1"
    # Kf1-g1 is legal (the bishop gone) and also castling's first half.
    fen = fen.replace("RKBR", "RK1R").replace("rkbr", "rk1r")
    board = new_board(fen=fen)
    events(board, "-f1 +g1")
    assert board.status == PENDING and board.log == []
    events(board, "-h1 +f1")
    assert board.log == ["O-O"]
    # Black's Kg8 stays a king move when White lifts a piece next.
    events(board, "-f8 +g8")
    assert board.status == PENDING
    events(board, "-a2")
    assert board.log == ["O-O", "Kg8"]
    events(board, "+a3")
    assert board.log[-1] == "a3"
    # Or it is made when time passes (settle).
    events(board, "-a7 +a6 -g1 +h1 -g8 +f8")  # no castling rights left: plain moves
    assert board.log[-2:] == ["Kh1", "Kf8"] and board.status == OK
    board = new_board(fen=fen)
    events(board, "-f1 +g1")
    board.settle()
    assert board.log == ["Kg1"] and board.status == OK


def test_swapped_king_and_rook_castle_only_when_both_were_up():
    fen = "4rkr1/pppppppp/8/8/8/8/PPPPPPPP/4RKR1 w KQkq - 0 1"
    board = new_board(fen=fen)
    events(board, "-f1 +f1 -g1 +g1 -f1 +f1")
    assert board.log == [] and board.status == OK
    events(board, "-g1 -f1 +g1 +f1")
    assert board.log == ["O-O"]
    assert board.game.pos.fen().split()[0].endswith("4RRK1")


def test_a_board_no_move_explains_is_an_error_until_put_right():
    board = new_board(number=518)
    events(board, "-e2 +e5")  # no pawn goes there
    assert board.status == ERROR and board.log == ["error"]
    assert board.wrong == (1 << sq("e2")) | (1 << sq("e5"))
    events(board, "-e5")  # the pawn in the hand: a move is possible again
    assert board.status == WAITING
    events(board, "+e4")
    assert board.log == ["error", "e4"] and board.status == OK


def test_impossible_sensor_reports_change_nothing():
    board = new_board(number=518)
    events(board, "-e4 +e2")
    assert board.log == ["error", "error"]
    assert board.physical == board.base and board.status == OK
    board.lift(64)
    assert board.log[-1] == "error" and board.physical == board.base


def test_sensor_bounces_are_not_moves():
    board = new_board(number=518)
    events(board, "-a1 +a1 +e5 -e5")
    assert board.log == ["error"] and board.status == OK and not board.game.moves
    events(board, "-g1 +d4 -d4 +f3")  # a bounce while the knight is in the hand
    assert board.log[-1] == "Nf3" and len(board.game.moves) == 1


def test_knocked_over_piece_put_back():
    board = new_board(number=518)
    events(board, "-g1 -d7 +f3")
    assert board.status == WAITING and not board.game.moves
    events(board, "+d7")
    assert board.log == ["Nf3"]


def test_start_position_check():
    game = Game("chess960", number=518)
    board = EBoard(game, occupied=0xFFFF00000000FFFF ^ (1 << sq("e2")) ^ (1 << sq("e4")))
    assert board.setup and board.status == SETUP
    assert board.wrong == (1 << sq("e2")) | (1 << sq("e4"))
    board.lift(sq("e4"))
    board.place(sq("d4"))  # wrong again: not a move
    assert board.setup and not game.moves
    board.lift(sq("d4"))
    board.place(sq("e2"))
    assert not board.setup and board.status == OK and not game.moves
    events(board, "-e2 +e4")
    assert len(game.moves) == 1


def test_takeback_by_moving_back_when_allowed():
    board = new_board(number=518)
    events(board, "-e2 +e4 -d7 +d5 -d5 -e4 +d5")
    events(board, "-d5 +e4 +d5")  # the capture undone, the taken pawn back
    assert board.log[-1] == "-exd5" and len(board.game.moves) == 2
    events(board, "-d5 +d7 -e4 +e2")
    assert board.log[-2:] == ["-d5", "-e4"] and not board.game.moves
    board.can_take_back = lambda: False
    events(board, "-e2 +e4")
    events(board, "-e4 +e2")
    assert board.status == ERROR and len(board.game.moves) == 1
    events(board, "-e2 +e4")
    assert board.status == OK


def test_snapshots_give_the_same_moves_as_events():
    board = new_board(number=518)
    start = board.base
    board.snapshot(start ^ (1 << sq("e2")))
    board.snapshot(start ^ (1 << sq("e2")) ^ (1 << sq("e4")))
    assert board.log == ["e4"]
    board.snapshot(board.base ^ (1 << sq("g8")) ^ (1 << sq("f6")))  # one scan, both squares
    assert board.log == ["e4", "Nf6"]


def lcg(seed):
    """A small deterministic generator, the same on both runtimes."""
    state = [seed]

    def next_int(n):
        state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
        return (state[0] >> 8) % n
    return next_int


def test_random_games_made_with_every_gesture_style():
    for seed in range(4):
        rand = lcg(seed)
        game = Game("chess960", number=rand(960))
        board = EBoard(game)
        for ply in range(40):
            moves = game.legal_moves()
            if not moves or game.result() != "*":
                break
            move = moves[rand(len(moves))]
            if move >> 12 >= 4:
                board.promote("nbrq"[(move >> 12) - 4])
            for square, placed in gesture(game.pos, move, rand(4)):
                if placed:
                    board.place(square)
                else:
                    board.lift(square)
            board.settle()
            assert game.moves[-1] == move and board.status == OK, (seed, ply)
            assert len(game.moves) == ply + 1


# ------------------------------------------------------------ the game

def collect():
    lines = []
    return lines, lines.append


def test_engine_lights_its_only_move_and_waits_for_it():
    lines, out = collect()
    g = EBoardGame(fen="7k/8/8/8/8/8/8/KRR5 w - - 0 1", engine=True, depth=2, hash_kb=4,
                   out=out, settle_ms=None)
    assert g.leds == ("off", 0) and g.think() == 0  # White (the player) to move
    g.lift(sq("b1"))
    g.place(sq("b7"))
    assert g.think()
    assert g.leds == ("move", (1 << sq("h8")) | (1 << sq("g8")))
    assert lines == ["move Rb7", "leds move g8 h8"]
    assert g.think() == 0  # it thinks once
    g.lift(sq("h8"))
    g.place(sq("g8"))
    assert g.leds == ("off", 0) and lines[-2:] == ["move Kg8", "leds off"]
    g.lift(sq("c1"))
    g.place(sq("c8"))
    assert lines[-2:] == ["move Rc8#", "result 1-0 checkmate"] and g.think() == 0


def test_a_different_move_for_the_engine_is_reported_not_played():
    lines, out = collect()
    g = EBoardGame(fen="r5k1/5ppp/8/8/8/8/6PP/7K b - - 0 1", engine="black", depth=2,
                   hash_kb=4, out=out, settle_ms=None)
    g.lift(sq("a8"))
    g.place(sq("a2"))  # before the engine has even chosen
    assert g.leds[0] == "error" and "wait" in lines[0]
    g.lift(sq("a2"))
    g.place(sq("a8"))
    move = g.think()
    assert san(g.game.pos, move) == "Ra1#"
    g.lift(sq("a8"))
    g.place(sq("a2"))
    assert lines[-2:] == ["error the board shows Ra2, but micro960 plays Ra1#",
                          "leds error a2 a8"]
    assert not g.game.moves
    g.lift(sq("a2"))
    g.place(sq("a8"))  # put back: the lit move again
    assert g.leds == ("move", (1 << sq("a1")) | (1 << sq("a8")))
    events(g, "-a8 +a2 -a2 +a1")  # via a2 after all: the board shows the right move
    assert lines[-3:] == ["move Ra1#", "result 0-1 checkmate", "leds off"]


def test_leds_for_castling_and_en_passant_cover_every_square_that_changes():
    game = Game("chess960", "4rk1r/pppppppp/8/8/8/8/PPPPPPPP/4RK1R w KQkq - 0 1")
    castle = parse_move(game.pos, "O-O")
    assert squares_text(move_squares(game.pos, castle)) == "f1 g1 h1"
    game = Game("chess960", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
    ep = parse_move(game.pos, "exf6")
    assert squares_text(move_squares(game.pos, ep)) == "e5 f5 f6"


def test_takeback_of_your_move_while_the_engine_reply_is_lit():
    lines, out = collect()
    g = EBoardGame(number=518, engine=True, depth=1, hash_kb=4, out=out, settle_ms=None)
    events(g, "-e2 +e4")
    assert g.think() and g.leds[0] == "move"
    events(g, "-e4 +e2")
    assert lines[-2:] == ["takeback e4", "leds off"] and not g.game.moves and not g.expected
    assert g.think() == 0  # White to move again


def test_a_pending_king_step_waits_for_settle_ms_before_the_engine_thinks():
    fen = "4rk1r/pppppppp/8/8/8/8/PPPPPPPP/4RK1R w KQkq - 0 1"
    lines, out = collect()
    g = EBoardGame(fen=fen, engine=True, depth=1, hash_kb=4, out=out, settle_ms=0)
    events(g, "-f1 +g1")
    assert g.board.status == PENDING and g.game.moves == g.game.moves[:0]
    assert g.think()  # settle_ms = 0: made at once, then the engine replies
    assert lines[0] == "move Kg1"


def test_heap_of_a_game_with_inference_and_engine():
    gc.collect()
    try:
        before = gc.mem_alloc()
    except AttributeError:  # CPython
        return
    lines, out = collect()
    g = EBoardGame(number=518, engine=True, depth=2, out=out, settle_ms=None)
    for text in ("-e2 +e4", "-g1 +f3", "-f1 +c4"):
        events(g, text)
        move = g.think()
        if move:
            for square, placed in gesture(g.game.pos, move):
                if placed:
                    g.place(square)
                else:
                    g.lift(square)
    gc.collect()
    used = gc.mem_alloc() - before
    print("heap used by a game with inference and engine: %d bytes" % used)
    assert len(g.game.moves) >= 5
