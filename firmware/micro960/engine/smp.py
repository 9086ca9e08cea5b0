"""Lazy SMP: a second search, on a thread of its own (on a Pico, the
second core), searching the same position in the same transposition table.

The helper iterates a ply deeper than the main search (Search.skip) and
never answers: what it stores in the table (scores, bounds, best moves of
positions the main search has yet to reach) lets the main search cut or
order sooner. The main search alone decides, reports and keeps the clock;
when it stops, it stops the helper and waits for it to end, so that no
thread outlives a search.

The helper has its own buffers, network accumulators and copy of the game
(made when Threads is set to 2, set_threads below: a quarter of a second
on a Pico); the weights and the table are shared. Two threads may write
one table entry at once: an entry torn so is taken only if its key
matches (its score may then be another position's, now and then, as in
any engine whose threads share a table), and its move is played only if
it is one of the position's moves, as any hash move is.

Every object both threads touch is made before the helper's thread
starts: MicroPython on a Pico has no GIL, and a dict growing on one core
while the other looks a key up may miss it.
"""
import _thread

from micro960.rules.history import History
from micro960.rules.position import CLASSICAL_FEN


def set_threads(search, threads, Search, Limits):
    """Give `search` a helper (threads 2) or take it away (1). It is made
    here, not at the next search, whose clock would count the quarter of a
    second a Pico takes to make it. A table sized from the free heap is
    sized again around it, so that the game keeps its room (engine/tt.py's
    GAME_KB). ValueError if there is no heap for it. Search and Limits:
    engine/search.py's (which imports this module; this one not it)."""
    tt = search.tt
    sized = not tt.asked
    search.helper = search.helping = helper = None
    if sized:
        tt.resize(1)  # (the least: its heap for the helper until sized again)
    try:
        if threads == 2:
            helper = Search(tt=tt)
            helper.net = search.net.twin()
            search.helper = Helper(helper, Limits())
    except MemoryError:
        helper = None  # (what was made of it goes before the table is sized again)
        raise ValueError("not enough memory for a second search")
    finally:
        if sized:
            tt.resize()


class Helper:
    def __init__(self, search, limits):
        """`search`: a Search of its own but for the table and the weights
        (set_threads makes it); `limits`: a Limits for its searches."""
        search.skip = 1
        search.poll = self._stopping
        self.search = search
        self.limits = limits  # no limit: it searches until finish()
        self.game = History("chess960", CLASSICAL_FEN)  # each search's game is copied in
        self.running = _thread.allocate_lock()
        self.stop = False

    def _stopping(self):
        return self.stop

    def start(self, game, generate):
        """Search `game`'s position (a copy of it) on a thread of its own,
        its tree's moves made by `generate` (Limits.generate)."""
        self.limits.generate = generate  # go searchmoves: the same root moves
        copy = self.game
        if copy.rules is not game.rules:
            copy.rules = game.rules
            game.rules.apply(copy.pos)
        copy.start_position = game.start_position
        copy.moves[0:] = game.moves
        copy.rebuild()
        self.stop = False
        # Counted from now: the thread may take a while to reach think().
        self.search.nodes = 0
        self.running.acquire()
        try:
            _thread.start_new_thread(self._run, ())
        except BaseException:
            self.running.release()
            raise

    def _run(self):
        try:
            self.search.think(self.game, self.limits)
        finally:
            self.running.release()

    def finish(self):
        """Stop the helper's search and wait until its thread has ended."""
        self.stop = True
        self.running.acquire()
        self.running.release()

