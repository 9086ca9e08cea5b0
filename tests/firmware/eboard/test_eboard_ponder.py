"""Pondering at the sensor board (eboard/pondering.py): the engine searches its
answer to the move it expects while the person thinks; a hit keeps the
search and starts the engine's time at the hit, a miss stops it at the
first square the expected move does not touch, a typed line stops it, and
the board's events reach the game in order either way. On both runtimes.

The person is a scripted sensor queue: their lifts and placements come once
the pondering search has searched `after` nodes.
"""
import gc

from micro960.eboard.moves import gesture
from micro960.eboard.game import EBoardGame
from micro960.rules.notation import san
from micro960.eboard.scanner import PLACED
from micro960.eboard.sensorboard import NoLeds, SensorBoard

from game_text import san_moves
from support import Time
from test_eboard_clock import carry_out, play

WHITE, BLACK = 8, 16


class Hand:
    """The scanner as the loop sees it, filled by a person who waits until
    the engine has pondered `after` nodes before touching the board."""

    def __init__(self):
        self.queue = []
        self.after = None
        self.overflowed = False
        self.search = None

    def move(self, events, after):
        """(square, placed) events, to come `after` nodes into the ponder search."""
        self.queue = [square | PLACED if placed else square for square, placed in events]
        self.after = after

    def _ready(self):
        search = self.search
        if self.after is not None and search.limits is not None and search.limits.ponder \
                and search.nodes >= self.after:
            self.after = None  # all come now
        return self.after is None

    def get(self):
        return self.queue.pop(0) if self.queue and self._ready() else -1

    def pending(self):
        return len(self.queue) if self._ready() else 0


class Typing:
    """Lines typed on the serial console, the first after `after` polls."""

    def __init__(self, text, after):
        self.text = text
        self.after = after

    def poll(self):
        self.after -= 1
        if self.after == 0:
            return self.text
        return None


def at_the_board(**kwargs):
    """Black is the engine; White has played e4 and carried out its answer.
    The board loop, the person's hand and what was said."""
    gc.collect()  # the last test's game and engine are gone: room for these
    lines = []
    kwargs.setdefault("think_ms", 150)
    game = EBoardGame(number=518, engine=True, hash_kb=16, out=lines.append, settle_ms=None,
                      ponder=True, **kwargs)
    hand = Hand()
    hand.search = game.search
    board = SensorBoard(game, hand, NoLeds(), out=lines.append)
    game.search.poll = board.thinking
    play(game, "e2e4")
    board.step()  # the engine answers and lights its move
    carry_out(game)
    assert len(game.game.moves) == 2 and game.reply[0] == 2, game.reply
    return board, game, hand, lines


def test_a_hit_keeps_the_search_and_lights_its_answer_at_once():
    board, game, hand, lines = at_the_board()
    expected = game.reply[1]
    said = san(game.game.pos, expected)
    hand.move(gesture(game.game.pos, expected), after=300)
    assert game.may_ponder()
    board.step()  # ponders until the hit, then searches its 150 ms
    searched = game.search.nodes
    assert searched > 300 and san_moves(game.game)[2] == said
    assert lines.count("move " + said) == 1  # said at the hit, not again
    assert game.pondered and game.leds == ("off", 0)  # the answer waits for the loop
    board.step()
    assert game.leds[0] == "move" and game.search.nodes == searched  # no new search
    assert game.pondered is None and game.expected


def test_a_miss_stops_at_the_first_other_square_and_the_move_counts():
    board, game, hand, lines = at_the_board()
    expected = game.reply[1]
    pos = game.game.pos
    other = [m for m in game.game.legal_moves()
             if not gesture(pos, m)[0][0] in [s for s, p in gesture(pos, expected)]][0]
    text = san(pos, other)
    hand.move(gesture(pos, other), after=200)
    board.step()  # stops at the first lift, which the game has
    assert 200 <= game.search.nodes < 400 and game.pondered is None
    assert game.reply is None and len(game.game.moves) == 2  # pondered once for this move
    board.step()  # the rest of the move, and the engine's answer to it
    assert san_moves(game.game)[2] == text
    assert game.leds[0] == "move" and game.search.nodes > 0


def test_a_typed_line_stops_pondering_and_is_answered():
    board, game, hand, lines = at_the_board()
    board.lines = Typing("n", after=20)
    board.step()
    assert lines[-1] == "promotion: knight" and game.pondered is None
    assert len(game.game.moves) == 2 and game.game.pos.side == WHITE


def test_on_a_clock_the_person_is_timed_until_the_hit_and_the_engine_from_it():
    time = Time()
    board, game, hand, lines = at_the_board(clock="0.1", now=time)  # 6 s each
    clock = game.game.clock
    expected = game.reply[1]
    hand.move(gesture(game.game.pos, expected), after=100)
    time.wait(2.5)
    board.step()
    assert clock.marks == [6000, 6000, 3500]  # White's second move took 2.5 s
    assert clock.running == BLACK
    board.step()
    assert clock.running == WHITE and len(clock.marks) == 4


def test_no_pondering_for_beginners_or_when_it_is_off():
    for kwargs in ({"level": 5}, {"level": 20, "ponder": False}):
        game = None
        gc.collect()
        game = EBoardGame(number=518, engine=True, hash_kb=4, out=lambda text: None,
                          depth=1, **dict({"ponder": True}, **kwargs))
        play(game, "e2e4")
        game.think()
        carry_out(game)
        assert not game.may_ponder(), kwargs


def test_no_guess_on_a_king_step_that_may_become_castling():
    """Kf1-g1 with the rook on h1 may be castling under way: the board waits
    to see, so the engine does not ponder on it (it would say it too soon)."""
    from micro960.eboard.pondering import ponder
    from micro960.rules.notation import parse_move
    gc.collect()
    lines = []
    game = EBoardGame(fen="4rk1r/pppppppp/8/8/8/8/PPPPPPPP/4RK1R w KQkq - 0 1", engine=True,
                      hash_kb=4, out=lines.append, settle_ms=None, ponder=True)
    board = SensorBoard(game, Hand(), NoLeds(), out=lines.append)
    game.reply = (0, parse_move(game.game.pos, "Kg1"))
    assert game.may_ponder()
    ponder(board)
    assert game.search.nodes == 0 and game.reply is None and not lines
