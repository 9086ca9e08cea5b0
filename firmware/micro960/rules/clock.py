"""A game on a chess clock: both players' time under one time control, as
players write it, and what the console and the sensor board do with it
(the move handed over, the flag, the engine's time).

    15+10      15 minutes each for the game, 10 seconds added after each move
    5          5 minutes each for the game
    40/90+30   90 minutes for every 40 moves (then 90 more), 30 seconds a move

A side's clock runs from start(side) until punch() counts its move (moved()
does both: the other side's runs). Each move's time left is kept (marks),
for the PGN's %clk comments and for undo. The console (and a saved game)
load this module only when a clock is set.

    >>> from micro960.rules.position import WHITE
    >>> now = [0]                          # the time in ms (ticks_ms by default)
    >>> clock = Clock("5+3", now=lambda: now[0])
    >>> clock.start(WHITE); now[0] = 1000; clock.punch(WHITE)  # White moved in a second
    >>> clock.left_text(WHITE)
    '5:02'
"""
from micro960.compat import const, ticks_diff, ticks_ms

_WHITE = const(8)  # rules/position.py's colours
_BLACK = const(16)
_BOTH = const(24)


def parse_control(text):
    """(moves a period or 0, period ms, increment ms) of a time control."""
    moves, _, rest = text.rpartition("/")
    minutes, _, increment = rest.partition("+")
    try:
        moves = int(moves) if moves else 0
        period = int(float(minutes) * 60000)
        increment = int(float(increment) * 1000) if increment else 0
    except (ValueError, OverflowError):  # OverflowError: inf, 1e308
        raise ValueError("a time control reads like 15+10, 5 or 40/90+30, not %r" % text)
    if not (0 <= moves <= 200 and 1000 <= period <= 36000000 and 0 <= increment <= 600000):
        raise ValueError("%r: 1 s to 600 minutes, up to 600 s a move, up to 200 moves a "
                         "period" % text)
    return moves, period, increment


class Clock:
    def __init__(self, control, plies=0, first_side=_WHITE, now=ticks_ms):
        """Full time for both; the game is `plies` plies along, `first_side` to move."""
        self.moves, self.period, self.increment = parse_control(control)
        self.control = control
        self.left = [self.period, self.period]  # ms, by side >> 4 (White 0, Black 1)
        self.first = plies  # the ply the clock started at
        self.first_side = first_side
        self.marks = []  # ms left to the mover after each ply from `first` on
        self.running = 0  # the side whose clock runs, or 0
        self.since = 0
        self.now = now

    def start(self, side):
        self.running = side
        self.since = self.now()

    def stop(self):
        """Stop the running clock, taking off the time it ran."""
        if self.running:
            self.left[self.running >> 4] = self.remaining(self.running)
        self.running = 0

    def remaining(self, side):
        """ms `side` has left now (below zero once its flag has fallen)."""
        left = self.left[side >> 4]
        if side == self.running:
            left -= ticks_diff(self.now(), self.since)
        return left

    def punch(self, side):
        """`side` made its move: stop its clock, add the increment (and a new
        period's time after the period's last move), mark the time left."""
        self.stop()
        done = self.moves_made(side, len(self.marks) + 1)
        left = self.left[side >> 4] + self.increment
        if self.moves and done % self.moves == 0:
            left += self.period
        self.left[side >> 4] = left
        self.marks.append(left)

    def moved(self, side):
        """`side` made its move: its clock stops (punch), the other's runs."""
        self.punch(side)
        self.start(side ^ _BOTH)

    def flag_fell(self, game):
        """True if the running side's time is gone in `game`, still undecided:
        then it loses (or draws: Game.flag) and the clock stops."""
        side = self.running
        if side and self.remaining(side) <= 0 and not game.outcome():
            game.flag(side)
            self.stop()
            return True
        return False

    def moves_made(self, side, plies):
        """Moves `side` made in the first `plies` plies of the clock."""
        return (plies + (side == self.first_side)) // 2

    def undo(self, plies):
        """Back to the clock after `plies` plies of the game (marks before are kept)."""
        self.stop()
        keep = max(0, plies - self.first)
        del self.marks[keep:]
        for side in (self.first_side, self.first_side ^ _BOTH):
            own = self.marks[0 if side == self.first_side else 1::2]
            self.left[side >> 4] = own[-1] if own else self.period

    def limits(self, side, limits):
        """The engine's time, `side` to move: a search's `limits` (engine/search.py's
        Limits) given the clock as UCI's go gives it (wtime, btime, winc, binc,
        movestogo), no time a move; returns them."""
        togo = 0
        if self.moves:
            togo = self.moves - self.moves_made(side, len(self.marks)) % self.moves
        limits.wtime = max(0, self.remaining(_WHITE))
        limits.btime = max(0, self.remaining(_BLACK))
        limits.winc = limits.binc = self.increment
        limits.movestogo = togo
        limits.movetime = 0
        return limits

    def left_text(self, side):
        return clock_text(self.remaining(side))

    def line(self):
        """As the console shows it: `Clock 5+3: White 4:51, Black 5:00.`"""
        return "Clock %s: White %s, Black %s." % (self.control, self.left_text(_WHITE),
                                                 self.left_text(_BLACK))

    def time_control_tag(self):
        """The PGN TimeControl tag: 900+10, 300, 40/5400+30."""
        text = "%d" % (self.period // 1000)
        if self.moves:
            text = "%d/%s" % (self.moves, text)
        if self.increment:
            text += "+%d" % (self.increment // 1000)
        return text

    def save_text(self):
        """`control first-side first-ply white-ms black-ms mark...` (load_clock
        reads it; the clocks as they stand now, stopped)."""
        return "".join(self.save_pieces())

    def save_pieces(self):
        """save_text a piece at a time: the marks one by one."""
        yield "%s %d %d %d %d " % (self.control, self.first_side, self.first,
                                   self.remaining(_WHITE), self.remaining(_BLACK))
        space = ""
        for mark in self.marks:
            yield space + str(mark)
            space = " "


def load_clock(text):
    """A stopped Clock from Clock.save_text(); ValueError if it is damaged."""
    words = text.split(None, 5)  # the marks are read one by one: a long game has many
    if len(words) < 5 or words[1] not in ("8", "16"):
        raise ValueError("damaged clock: %r" % text[:80])
    clock = Clock(words[0], int(words[2]), int(words[1]))
    clock.left = [int(words[3]), int(words[4])]
    marks = words[5] if len(words) > 5 else ""
    start = 0
    while start < len(marks):
        end = marks.find(" ", start)
        if end < 0:
            end = len(marks)
        if end > start:
            clock.marks.append(int(marks[start:end]))
        start = end + 1
    return clock


def clock_text(ms):
    """h:mm:ss, m:ss, or s.t under ten seconds; 0:00 once the time is gone."""
    if ms <= 0:
        return "0:00"
    if ms < 10000:
        return "%d.%d" % (ms // 1000, ms % 1000 // 100)
    seconds = ms // 1000
    if seconds >= 3600:
        return "%d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)
    return "%d:%02d" % (seconds // 60, seconds % 60)
