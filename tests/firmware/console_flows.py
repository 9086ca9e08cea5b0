"""Flows a player takes at the console, step by step, with the checks that
must hold after each, on CPython and on MicroPython (a driver process).

A step is a move (`m7`: the 8th legal move of the position, counted round;
`x`: the reply the engine expects, a ponder hit when it ponders), a command
(`new`, `new 518`, `undo`, `rules lrs`, `go`, `both`, `black`, `white`,
`draw`, `accept`, `resign`, `setup` for `new setup`), `^C` (Ctrl-C: it
comes at the next poll or read of the input, so after a move it stops the
engine's thinking; at the prompt it ends the program) or `resume` (the
program starts again: a fresh Console takes up the game saved in the same
folder, as main.py and play.py do). The console reads its lines as the
programs do (next_line, so the engine ponders, then handle), the engine at
NODES nodes a move. After every step, and whenever the engine starts to
think on its own time or hears a ponder hit (a power cut could come then):

- the engine has moved if its side is to move and the game is not over
  (or placed its piece, in a set-up phase);
- the saved game (game.txt) holds every move played, from the same start,
  and the engine's side; an ended game is in games.pgn, not in game.txt;
- only the other side may accept a draw offer, before its next move
  (`accept` is typed after every step where it must be refused);
- a resume gives the same position, moves, side and set-up phase.

    flows = Flows(folder)
    problems = flows.run(["m3", "x", "new 518", "resume"])

    micropython -c "...; import console_flows; console_flows.main(FOLDER)"

reads one case a line (its steps joined by `|`) and prints `PROBLEM ...`
for each problem found, then `END`. tests/test_fuzz_console_flows.py runs
both (this is not a test module: mprun does not run it).
"""
import gc
import sys

from micro960.text.console import Console
from micro960.engine.search import Limits
from micro960.device.storage import GameStore
from micro960.rules.game import UNDECIDED
from micro960.rules.notation import side_name
from micro960.rules.ucimove import uci_text
from game_text import uci_moves
from power_cut import empty_folder

WHITE, BLACK, BOTH = 8, 16, 24
NODES = 200  # a move: quick, and deep enough (some 12 polls) for an expected reply
CTRL_C = "^C"


class Typed:
    """The person's lines typed ahead, each taken by the next poll or read;
    CTRL_C raises KeyboardInterrupt there instead, as the signal does. Once
    they are all taken the input has ended: pondering stops at once."""

    def __init__(self):
        self.lines = []
        self.ended = True

    def poll(self):
        if not self.lines:
            return None
        line = self.lines.pop(0)
        self.ended = not self.lines
        if line == CTRL_C:
            raise KeyboardInterrupt
        return line

    readline = poll


class Flows:
    def __init__(self, folder):
        self.folder = folder
        self.said = []
        self.problems = []
        self.step_text = "start"
        self.steps = []
        self.offer = None  # (side, plies) of the last draw offer heard, as the driver saw it
        self.ended = None  # the last game seen to end
        self.console = None
        self.start()

    # ------------------------------------------------------------ the program

    def start(self):
        """The program starts (again): a fresh Console takes up the saved
        game, then the engine moves if it is to (main.py, play.py)."""
        before = self.described(self.console) if self.console else None
        self.console = None  # (a small heap holds one console at a time)
        gc.collect()
        console = Console("chess960", 518, out=self.said.append, engine_side=BLACK, hash_kb=4)
        console.limits = Limits(nodes=NODES)
        console.input = self.typed = Typed()
        self.watch(console.engine)
        self.console = console
        resumed = console.resume(GameStore(self.folder))
        self.offer = None  # (an offer is not saved: it lapses at a restart)
        if before is not None:
            if before[0] != UNDECIDED:
                if resumed:
                    self.problem("an ended game was taken up again")
            elif not resumed:
                if before[2] or before[4]:  # (a game without moves need not be saved)
                    self.problem("the unfinished game was not taken up again")
            elif self.described(console) != before:
                self.problem("resumed as %r, left as %r" % (self.described(console), before))
        console.reply()
        console.forget()

    def watch(self, engine):
        """Check the save whenever the engine starts to think on its own
        time or a ponder hit comes: a power cut then must lose nothing."""
        think, ponderhit = engine.think, engine.ponderhit

        def watched_think(game, limits):
            if not limits.ponder:
                self.check_saved(game, "as the engine starts to think")
            return think(game, limits)

        def watched_ponderhit():
            self.check_saved(self.console.game, "at a ponder hit")
            ponderhit()

        engine.think = watched_think
        engine.ponderhit = watched_ponderhit

    # ------------------------------------------------------------ the steps

    def run(self, steps):
        """Take the steps (texts as above); the problems found."""
        i = 0
        while i < len(steps):
            step = steps[i]
            i += 1
            interrupted = False
            while i < len(steps) and steps[i] == CTRL_C and step != CTRL_C:
                interrupted = True  # typed right after the step: it stops the engine's thinking
                i += 1
            self.steps.append(step + (" ^C" if interrupted else ""))
            self.step_text = " | ".join(self.steps)
            del self.said[:]
            if step == "resume":
                self.start()
            else:
                self.take(step, interrupted)
            self.check()
        return self.problems

    def take(self, step, interrupted):
        console = self.console
        game = console.game
        before = (game.pos.side, len(game.moves), game.result())
        line = self.line_for(step)
        typed = self.typed
        typed.lines = [line] + ([CTRL_C] if interrupted else [])
        typed.ended = False
        try:
            while typed.lines and console.running:
                line = console.next_line()  # the engine ponders meanwhile
                if line is None:
                    break
                console.handle(line)
        except KeyboardInterrupt:  # at the prompt: the program ends
            console = typed = None  # (and its heap is free for the next start)
            self.start()
            return
        self.heard(step, before)

    def line_for(self, step):
        """What the person types for `step`."""
        console = self.console
        game = console.game
        if step == "setup":
            return "new setup"
        if step == "x":
            expected = console.expected
            if expected and expected[0] is game and expected[1] == len(game.moves):
                return uci_text(game.pos, expected[2], game.rules.uci_chess960)
            step = "m0"
        if step[0] != "m" or not step[1:].isdigit():
            return step
        k = int(step[1:])
        if console.setup:  # the squares the piece may go on, as the console lists them
            squares = console.setup.next_text().split(": ")[1].split()
            return squares[k % len(squares)]
        moves = game.legal_moves()
        if not moves or game.result() != UNDECIDED:
            return "e4"  # (refused: the game is over)
        return uci_text(game.pos, moves[k % len(moves)], game.rules.uci_chess960)

    def heard(self, step, before):
        """Keep track of draw offers; a draw agreed must be the other side's."""
        side, plies, result = before
        game = self.console.game
        refused = [line for line in self.said if line.startswith("error:")]
        if not refused and (step in ("new", "undo", "setup") or
                            step.startswith(("new ", "rules "))):
            self.offer = None  # (an undo refused, say, leaves the offer standing)
        if step == "draw" and [line for line in self.said if "offers a draw" in line]:
            self.offer = (side, plies)
        if step == "accept" and result == UNDECIDED and game.reason() == "draw agreed" and \
                not self.may_accept(side, plies):
            self.problem("%s accepted a draw at ply %d; the offer was %r" % (
                side_name(side), plies, self.offer))

    def may_accept(self, side, plies):
        """Only the other side may accept an offer, after the offering
        side's move and before its own."""
        offer = self.offer
        return offer is not None and (plies, side) == (offer[1] + 1, offer[0] ^ BOTH)

    # ------------------------------------------------------------ the checks

    def check(self):
        console = self.console
        game = console.game
        if game.result() == UNDECIDED:
            if console.setup:
                setup = console.setup.setup
                if not setup.done() and setup.side() == console.engine_side:
                    self.problem("the engine's side is to place a piece, and it has not")
            elif game.pos.side == console.engine_side:
                self.problem("the engine's side is to move, and it has not moved")
        self.check_saved(game, "after the step")
        if game.result() != UNDECIDED and self.ended is not game:
            self.ended = game  # (its record names the players as they were then)
            self.check_archived(game)
        self.try_to_accept()

    def try_to_accept(self):
        """Where no side may accept a draw, `accept` typed now is refused
        (and, refused, changes nothing): tried after every step, as a flow
        seldom has `accept` just where it must be refused."""
        console = self.console
        game = console.game
        side, plies = game.pos.side, len(game.moves)
        if console.setup or game.result() != UNDECIDED or self.may_accept(side, plies):
            return
        console.handle("accept")
        if game.result() != UNDECIDED:
            self.problem("accept typed by %s at ply %d agreed a draw; the offer was %r" % (
                side_name(side), plies, self.offer))

    def check_saved(self, game, when):
        """game.txt holds the game as it stands (the moves of `game`, read
        without its position, which the search is moving about)."""
        saved = GameStore(self.folder).load()
        console = self.console
        if game.ended or when == "after the step" and game.result() != UNDECIDED:
            if saved is not None:
                self.problem("%s: an ended game is still in game.txt" % when)
            return
        if saved is None:
            if game.moves or console.setup and console.setup.setup.placed:
                self.problem("%s: nothing saved, with %d moves played" % (when, len(game.moves)))
            return
        mine, kept = self.record(game), self.record(saved)
        if mine != kept:
            self.problem("%s: game.txt holds %r, the game is %r" % (when, kept, mine))
        if when == "after the step":
            fen = saved.pos.fen()
            if fen != game.pos.fen():
                self.problem("game.txt gives %s, the board is %s" % (fen, game.pos.fen()))
            settings = saved.settings + " "
            side = console.ENGINE_SIDES[(console.engine_side or 0) >> 3]
            if ("engine %s " % side) not in settings:
                self.problem("game.txt has settings %r, the engine plays %s" % (settings, side))
            placed = console.setup.placements() if console.setup else None
            if placed is not None and ("setup %s " % placed) not in settings:
                self.problem("game.txt has settings %r, the set-up is at %s" % (settings, placed))

    def check_archived(self, game):
        """An ended game is the last in games.pgn."""
        from micro960.rules.pgn import game_pgn
        store = GameStore(self.folder)
        try:
            with open(store.archive_path) as f:
                archive = f.read()
        except OSError:
            archive = ""
        if not archive.rstrip().endswith(game_pgn(game).rstrip()):
            self.problem("the ended game is not the last in games.pgn")

    @staticmethod
    def record(game):
        return game.start_fen, " ".join(uci_moves(game))

    @staticmethod
    def described(console):
        """What a resume must give back."""
        game = console.game
        setup = console.setup.placements() if console.setup else None
        return (game.result(), game.start_fen, " ".join(uci_moves(game)), console.engine_side,
                setup, game.pos.fen())

    def problem(self, text):
        self.problems.append("after %s: %s" % (self.step_text, text))


def main(folder):
    while True:
        line = sys.stdin.readline()
        if not line:
            break
        empty_folder(folder)
        flows = Flows(folder)
        for problem in flows.run(line.strip().split("|")):
            print("PROBLEM " + problem)
        flows = None
        gc.collect()
        print("END")
