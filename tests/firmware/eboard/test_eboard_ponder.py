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
    gc.collect()  # the last test's match and engine are gone: room for these
    lines = []
    kwargs.setdefault("think_ms", 150)
    match = EBoardGame(number=518, engine=True, hash_kb=16, out=lines.append, settle_ms=None,
                       ponder=True, **kwargs)
    hand = Hand()
    hand.search = match.search
    board = SensorBoard(match, hand, NoLeds(), out=lines.append)
    match.search.poll = board.thinking
    play(match, "e2e4")
    board.step()  # the engine answers and lights its move
    carry_out(match)
    plies, expected = match.reply
    assert len(match.game.moves) == 2 and plies == 2, match.reply
    return board, match, hand, lines


def test_a_hit_keeps_the_search_and_lights_its_answer_at_once():
    board, match, hand, lines = at_the_board()
    plies, expected = match.reply
    said = san(match.game.pos, expected)
    hand.move(gesture(match.game.pos, expected), after=300)
    assert match.may_ponder()
    board.step()  # ponders until the hit, then searches its 150 ms
    searched = match.search.nodes
    assert searched > 300 and san_moves(match.game)[2] == said
    assert lines.count("move " + said) == 1  # said at the hit, not again
    assert match.pondered and match.leds == ("off", 0)  # the answer waits for the loop
    board.step()
    assert match.leds[0] == "move" and match.search.nodes == searched  # no new search
    assert match.pondered is None and match.expected


def test_with_two_threads_a_hit_keeps_both_searches():
    try:
        import _thread  # noqa: F401
    except ImportError:
        return  # a MicroPython without threads: one search (test_smp)
    board, match, hand, lines = at_the_board(threads=2)
    search = match.search
    plies, expected = match.reply
    said = san(match.game.pos, expected)
    hand.move(gesture(match.game.pos, expected), after=300)
    board.step()  # both search on the person's time, then on after the hit
    assert san_moves(match.game)[2] == said
    assert search.helping.search.nodes > 0 and not search.helping.running.locked()
    assert match.pondered and search.all_nodes() > search.nodes
    board.step()
    assert match.leds[0] == "move"


def test_a_miss_stops_at_the_first_other_square_and_the_move_counts():
    board, match, hand, lines = at_the_board()
    plies, expected = match.reply
    pos = match.game.pos
    other = [m for m in match.game.legal_moves()
             if not gesture(pos, m)[0][0] in [s for s, p in gesture(pos, expected)]][0]
    text = san(pos, other)
    hand.move(gesture(pos, other), after=200)
    board.step()  # stops at the first lift, which the match has
    assert 200 <= match.search.nodes < 400 and match.pondered is None
    assert match.reply is None and len(match.game.moves) == 2  # pondered once for this move
    board.step()  # the rest of the move, and the engine's answer to it
    assert san_moves(match.game)[2] == text
    assert match.leds[0] == "move" and match.search.nodes > 0


def test_a_typed_line_stops_pondering_and_is_answered():
    board, match, hand, lines = at_the_board()
    board.lines = Typing("n", after=20)
    board.step()
    assert lines[-1] == "promotion: knight" and match.pondered is None
    assert len(match.game.moves) == 2 and match.game.pos.side == WHITE


def test_on_a_clock_the_person_is_timed_until_the_hit_and_the_engine_from_it():
    time = Time()
    board, match, hand, lines = at_the_board(clock="0.1", now=time)  # 6 s each
    clock = match.game.clock
    plies, expected = match.reply
    hand.move(gesture(match.game.pos, expected), after=100)
    time.wait(2.5)
    board.step()
    assert clock.marks == [6000, 6000, 3500]  # White's second move took 2.5 s
    assert clock.running == BLACK
    board.step()
    assert clock.running == WHITE and len(clock.marks) == 4


def test_no_pondering_for_beginners_or_when_it_is_off():
    for kwargs in ({"level": 5}, {"level": 1300}, {"level": 20, "ponder": False}):
        match = None
        gc.collect()
        match = EBoardGame(number=518, engine=True, hash_kb=4, out=lambda text: None,
                           depth=1, **dict({"ponder": True}, **kwargs))
        play(match, "e2e4")
        match.think()
        carry_out(match)
        assert not match.may_ponder(), kwargs


def test_a_rating_is_a_level_and_from_level_10s_it_ponders():
    gc.collect()
    match = EBoardGame(number=518, engine=True, hash_kb=4, out=lambda text: None, ponder=True,
                       level=1700)
    assert match.search.level == 1700 and match.ponder
    match = None
    gc.collect()
    try:
        EBoardGame(number=518, engine=True, hash_kb=4, out=lambda text: None, level=99999)
    except ValueError as e:
        assert str(e).startswith("levels are 0-20"), e
    else:
        assert False, "level 99999 was taken"


def test_no_guess_on_a_king_step_that_may_become_castling():
    """Kf1-g1 with the rook on h1 may be castling under way: the board waits
    to see, so the engine does not ponder on it (it would say it too soon)."""
    from micro960.eboard.pondering import ponder
    from micro960.rules.notation import parse_move
    gc.collect()
    lines = []
    match = EBoardGame(fen="4rk1r/pppppppp/8/8/8/8/PPPPPPPP/4RK1R w KQkq - 0 1", engine=True,
                       hash_kb=4, out=lines.append, settle_ms=None, ponder=True)
    board = SensorBoard(match, Hand(), NoLeds(), out=lines.append)
    match.reply = (0, parse_move(match.game.pos, "Kg1"))
    assert match.may_ponder()
    ponder(board)
    assert match.search.nodes == 0 and match.reply is None and not lines
