"""The sensor board's game played by random steps, for the property test
tests/test_fuzz_eboard_game.py, on CPython and on MicroPython.

    micropython -c "...; import eboard_driver; eboard_driver.main()"

A step is a person's action at the board, chosen by two numbers (which move,
which square, which way round): a legal move made with one of the gestures
(castling and captures in several orders), the engine's lit reply carried
out, another move than the lit one, a stray piece, a piece lifted and held,
a bounce, a move taken back, a pause (a flag may fall), a power cut (the
game taken up from its save), a promotion choice typed, the commands typed
(resign, draw, accept, new), a whole-board reading (one square misread, then
right), the board put right, the flash filling up or getting room again
(games.pgn cannot grow while it is full). Steps are events fed through the device
loop (SensorBoard.step(), a scanner that replays them), one event a turn of
the loop, so the engine thinks when it would on a board.

After every step check() says which rules are broken:
- the engine's side to move, the game not over and no move half made: the
  engine has lit its reply;
- the game saved on "flash" is the game, move for move (a finished one is
  archived and its save cleared);
- a game that ended (or was left by new) while games.pgn could not take
  it is never lost: game.txt keeps it, over the next games and power cuts,
  until games.pgn has it (the games after it are not saved meanwhile; a
  power cut takes an unfinished one up again);
- the game follows the board: its sensors' view is the board's, and when it
  says all is well the board shows its position;
- every move played was said (`move`), every one taken back too;
- a power cut takes the same game up again, the same position and moves;
- only the side offered a draw agrees to it; a new game has no moves.

Standard input, a line each: `start RULES NUMBER ENGINE CLOCK SETUP FOLDER
[FEN]` (ENGINE white, black or none; CLOCK a time control or -, the clocks'
time passing with each event and each pause; SETUP `setup` for a set-up
phase first, where the moves place pieces where the LEDs say, or -) or `STEP A B` (STEP a number in
STEPS); after each line the driver prints `PROBLEM ...` for each rule
broken, then `END`.
"""
import gc
import sys

from micro960.device.storage import GameStore
from micro960.eboard.game import EBoardGame
from micro960.eboard.moves import OK, PENDING, gesture, occupancy
from micro960.eboard.scanner import PLACED
from micro960.device.led_ws2812 import COLOURS
from micro960.eboard.sensorboard import SensorBoard
from micro960.engine.search import Limits
from micro960.rules.game import UNDECIDED
from micro960.rules.position import CASTLE, PROMOTE_N
from power_cut import FullArchive
from game_text import uci_moves

STEPS = ("move", "castle", "reply", "other", "stray", "hold", "bounce", "takeback", "wait",
         "power", "promote", "reading", "fix", "resign", "draw", "accept", "new", "full")
NODES = 60  # the engine's search: tiny, the invariants do not care how well it plays


class ReplayScanner:
    """A scanner whose queue the driver fills; `board` is the occupancy."""

    def __init__(self, board):
        self.board = board
        self.events = []
        self.overflowed = False

    def get(self):
        return self.events.pop(0) if self.events else -1

    def pending(self):
        return len(self.events)

    def prime(self):
        pass

    def occupancy(self):
        return self.board

    def resync(self):
        self.overflowed = False
        self.events = []
        return self.board

    def start(self, machine, period):
        pass

    def stop(self):
        pass


class Leds:
    """The LEDs, taking only the instructions the drivers know (their colours)."""

    def show(self, kind, mask):
        if kind not in COLOURS:
            raise ValueError("unknown LED instruction %r" % (kind,))


class TypedLines:
    """The serial console's lines, as lines.StdinLines gives them: poll()
    never waits."""

    def __init__(self):
        self.lines = []

    def poll(self):
        return self.lines.pop(0) if self.lines else None


class Driver:
    def start(self, rules, number, engine, clock, setup, folder, fen=None):
        """A new board: set-up `number` of `rules` (for both sides, where each
        has its own) or the position `fen`, the engine playing `engine`, on
        the time control `clock` ("-": none), with a set-up phase first if
        `setup` ("setup"), games kept in `folder`."""
        import random
        from micro960.rules.variants import Rules
        random.seed(number)  # the engine's squares in a set-up phase: the same each run
        rules = Rules(rules)
        number = 518 if rules.name == "classical" else number % rules.setups
        self.numbers = (number, number) if rules.two_ranks else (number,)
        self.rules, self.engine, self.fen = rules, engine, fen
        self.clock = None if clock == "-" else clock
        self.setup = setup == "setup"
        self.time = 0  # the clocks' time, ms: it passes as the driver says
        self.folder = folder
        self.files = FullArchive()
        self.files.full = False  # the "full" step fills the flash, and the next empties it
        GameStore(folder).clear()
        # (game moves, result): a game games.pgn has yet to take, which
        # game.txt must keep meanwhile; how many games of each result it has.
        self.pending = None
        self.archived = self.archive_counts()
        self.left = self.taken_back = None  # the game a new one replaced; a takeback's
        self.board = None  # the occupancy on the board: what the sensors see
        self._boot()

    def _boot(self):
        """Power on: a match from its settings, taken up from its save. (The
        old match's heap is freed first, as a power cut would.)"""
        self.match = self.loop = self.scanner = None
        gc.collect()
        self.said = []
        self.store = GameStore(self.folder, self.files)  # (a board's, new at each start)
        engine = {"white": "white", "black": True, "none": False}[self.engine]
        match = EBoardGame(self.rules, *self.numbers, engine=engine, hash_kb=4, fen=self.fen,
                           out=self.said.append, settle_ms=None, occupied=self.board,
                           clock=self.clock, now=self.now, setup=self.setup)
        match.limits = lambda: Limits(nodes=NODES)
        if self.board is None:
            self.board = match.physical  # the pawns alone for a set-up phase
        match.resume(self.store, self.board)
        self.match = match
        self.scanner = ReplayScanner(self.board)
        self.typed = TypedLines()
        self.loop = SensorBoard(match, self.scanner, Leds(), out=self.said.append,
                                lines=self.typed)
        self.first = len(match.game.moves)  # moves the words said count from
        self.was_over = match.game.result() != UNDECIDED  # (its result said before)
        self.over_before = self.was_over  # (whether the game was over at the last check)
        self.loop.start()  # (the board read whole, as the device loop begins)
        self.loop.step()

    def now(self):
        return self.time

    # ------------------------------------------------------------ events

    def event(self, sq, placed):
        """One lift or placement, then a turn of the device loop."""
        bit = 1 << sq
        self.time += 300
        self.board = self.board | bit if placed else self.board & ~bit
        self.scanner.board = self.board
        self.scanner.events.append(sq | PLACED if placed else sq)
        self.loop.step()

    def type(self, line):
        """A line typed at the serial console, read by the next turn of the loop."""
        self.typed.lines.append(line)
        self.loop.step()

    def events(self, pairs):
        for sq, placed in pairs:
            self.event(sq, placed)

    def put_right(self):
        """The pieces put back as the game's position has them."""
        setting_up = self.match.setting_up
        base = setting_up.expected if setting_up else self.match.board.base
        for sq in range(64):
            if self.board >> sq & 1 and not base >> sq & 1:
                self.event(sq, False)
        for sq in range(64):
            if base >> sq & 1 and not self.board >> sq & 1:
                self.event(sq, True)

    def make(self, move, style):
        """Make `move` on the board with gesture `style` (a promotion chosen first)."""
        flag = move >> 12
        if flag >= PROMOTE_N:
            self.type("nbrq"[flag - PROMOTE_N])
        self.events(gesture(self.match.game.pos, move, style))

    # ------------------------------------------------------------ steps

    def step(self, kind, a, b):
        match = self.match
        pos = match.game.pos
        name = STEPS[kind % len(STEPS)]
        self.left = self.taken_back = None
        legal = match.game.legal_moves() if match.game.result() == UNDECIDED else []
        if name in ("move", "castle", "other", "reply") and match.setting_up:
            self.put_right()
            kind, squares = match.setting_up.leds()
            squares = [sq for sq in range(64) if squares >> sq & 1]
            if kind == "place" and squares:
                self.event(squares[a % len(squares)], True)  # a piece where it may go
        elif name in ("move", "castle", "other", "reply"):
            self.put_right()
            if match.expected and name != "other":
                self.make(match.expected, b)  # the engine's reply carried out
                return
            if name == "castle":
                legal = [m for m in legal if m >> 12 == CASTLE] or legal
            if match.expected:
                legal = [m for m in legal if m != match.expected]
            if legal:
                self.make(legal[a % len(legal)], b)
        elif name == "stray":
            empty = [sq for sq in range(64) if not self.board >> sq & 1]
            self.event(empty[a % len(empty)], True)
        elif name == "hold":
            full = [sq for sq in range(64) if self.board >> sq & 1]
            if full:
                self.event(full[a % len(full)], False)
        elif name == "bounce":
            sq = a % 64
            there = self.board >> sq & 1
            self.events([(sq, not there), (sq, there)])
        elif name == "takeback":
            self.taken_back = self.match.game.result() != UNDECIDED
            self._take_back()
        elif name == "wait":  # a while, up to 200 s
            self.time += 200 * a
            match.settle()
            self.loop.step()
        elif name == "power":
            self._power_cut()
        elif name in ("draw", "accept"):
            self._draw(name)
        elif name == "resign":
            self.type(name)
        elif name == "new":
            del self.said[:]
            if match.game.moves and match.game.result() == UNDECIDED:
                self.left = (uci_moves(match.game), UNDECIDED)
            self.type(name)
            self.first, self.was_over = 0, False
            if match.game.moves:
                self.problems.append("a new game with %d moves" % len(match.game.moves))
        elif name == "promote":
            self.type("qrbn"[b % 4])
        elif name == "full":
            self.files.full = not self.files.full
        elif name == "reading":
            misread = self.board ^ 1 << (a % 64)
            for mask in (misread, self.board):
                match.snapshot(mask)
                self.loop.step()
        else:
            self.put_right()

    def _take_back(self):
        """The last move's pieces moved back, as far as the board says it can
        (the engine's own move may not be taken back)."""
        masks = self.match.board.undo_masks
        if not masks:
            return
        self.put_right()
        before, filled = masks[-1]
        for sq in range(64):
            if filled >> sq & 1:
                self.event(sq, False)
        for sq in range(64):
            if before >> sq & 1 and not self.board >> sq & 1:
                self.event(sq, True)

    def _draw(self, word):
        """A draw offered or accepted: agreed only by the side offered it
        (micro960 when a pawn or more worse, by its last judgement)."""
        match = self.match
        game = match.game
        offer, score, over = match.draw_offer, match.score, game.result() != UNDECIDED
        now = (game.pos.side, len(game.moves))
        self.type(word)
        if over or game.reason() != "draw agreed":
            return
        if match.engine_side is None:
            if word != "accept" or offer is None or now != (offer[0] ^ 24, offer[1] + 1):
                self.problems.append("a draw agreed by %s after an offer %r" % (word, offer))
        elif word != "draw" or score is None or score > -100:
            self.problems.append("micro960 took a draw at %r" % (score,))

    def _power_cut(self):
        game = self.match.game
        expect = None
        if game.result() == UNDECIDED and game.moves and self.pending is None:
            expect = (game.pos.fen(), " ".join(uci_moves(game)))
        game = None
        self._boot()
        pending = self.pending
        if pending and pending[1] == UNDECIDED and uci_moves(self.match.game) == pending[0]:
            self.pending = None  # the game left by new, taken up again (nothing is lost)
        if expect is not None:
            now = self.match.game
            got = (now.pos.fen(), " ".join(uci_moves(now)))
            if got != expect:
                self.problems.append("a power cut took up %r, not %r" % (got, expect))

    # ------------------------------------------------------------ rules

    def check(self):
        problems = self.problems
        match = self.match
        game = match.game
        board = match.board
        over = game.result() != UNDECIDED
        if (not over and match.engine_to_move() and not board.setup and not match.setting_up
                and board.status != PENDING and not match.expected):
            problems.append("the engine is to move but lights no move (%s)" % game.pos.fen())
        if match.expected and match.leds[0] not in ("move", "error"):
            problems.append("the engine's move is not lit: leds %s" % match.leds[0])
        if over and match.expected:
            problems.append("the game is over, but a move is lit")
        if (board.status == OK and not board.setup and not match.expected
                and not match.setting_up
                and match.leds != ("off", 0)):
            problems.append("nothing to do, but leds %s %x" % match.leds)
        if over and not self.was_over and not [line for line in self.said
                                               if line.startswith("result ")]:
            problems.append("the game is over, but its result was not said")
        if match.physical != self.board:
            problems.append("the game sees %x, the board is %x" % (match.physical, self.board))
        if board.status == OK and not board.setup and board.physical != occupancy(game.pos):
            problems.append("the board is called right but shows %x, not the position's %x"
                            % (board.physical, occupancy(game.pos)))
        said = 0
        for line in self.said:
            said += line.startswith("move ") - line.startswith("takeback ")
        if said != len(game.moves) - self.first:
            problems.append("%d moves said, %d played" % (said, len(game.moves) - self.first))
        self._check_kept(game, over)
        self.over_before = over
        if self.pending is None:  # (else the games after the one kept are not saved)
            self._check_save(game, over)
        return problems

    def archive_counts(self):
        """How many games of each result games.pgn holds."""
        try:
            with open(self.folder + "/games.pgn") as f:
                text = f.read()
        except OSError:
            text = ""
        return dict((result, text.count('[Result "%s"]' % result))
                    for result in ("1-0", "0-1", "1/2-1/2", UNDECIDED))

    def _check_kept(self, game, over):
        """A game that ended, or that a new game took the place of, is in
        games.pgn or, till it is, in game.txt (as it stood then)."""
        before, now = self.archived, self.archive_counts()
        self.archived = now
        if self.pending is None:
            if over and not self.over_before:
                self.pending = (uci_moves(game), game.result())
            elif self.left:
                self.pending = self.left
            else:
                return
        moves, result = self.pending
        if now[result] > before[result]:
            self.pending = None  # games.pgn has it
        elif self.taken_back and not over and moves[:len(game.moves)] == uci_moves(game):
            self.pending = None  # taken back from its end: the game goes on
        else:
            saved = self.store.load()
            if saved is None or uci_moves(saved) != moves or saved.result() != result:
                self.problems.append("a game (%s %s) is neither in games.pgn nor in game.txt"
                                     % (result, " ".join(moves)))

    def _check_save(self, game, over):
        saved = self.store.load()
        if self.store.problem:
            self.problems.append("the save is damaged: " + self.store.problem)
        elif over:
            if saved is not None:
                self.problems.append("a finished game is still saved as unfinished")
        elif game.moves or saved is not None:
            if saved is None:
                self.problems.append("%d moves played, no game saved" % len(game.moves))
            elif (uci_moves(saved) != uci_moves(game) or saved.pos.fen() != game.pos.fen()
                  or saved.result() != game.result()):
                self.problems.append("saved %s, played %s" % (
                    " ".join(uci_moves(saved)), " ".join(uci_moves(game))))

    def run_line(self, line):
        """One input line; the problems found after it."""
        self.problems = []
        words = line.split()
        if words[0] == "start":
            fen = " ".join(words[7:]) or None
            self.start(words[1], int(words[2]), words[3], words[4], words[5], words[6], fen)
        else:
            self.step(int(words[0]), int(words[1]), int(words[2]))
        return self.check()


def main():
    driver = Driver()
    while True:
        line = sys.stdin.readline()
        if not line:
            break
        if not line.strip():
            continue
        try:
            problems = driver.run_line(line)
        except Exception as e:  # the board must never stop: a problem, with its story
            sys.print_exception(e) if hasattr(sys, "print_exception") else __import__(
                "traceback").print_exc(file=sys.stdout)
            problems = ["%s: %r" % (type(e).__name__, e)]
        for problem in problems:
            print("PROBLEM " + problem)
        print("END")
