"""The console's set-up phase (`new setup`): the players place the back-rank
pieces in turn (setup.py), typing the square for the piece named; the engine
places its own. Loaded only when asked for, so the console's heap is spared.
"""
import random

from micro960.rules.notation import side_name
from micro960.rules.position import BLACK, WHITE, Position
from micro960.rules.setup import NAMES, SetUp

# What a set-up phase lets you type besides squares.
COMMANDS = ("new", "rules", "board", "flip", "unicode", "ascii", "undo", "help", "quit",
            "exit", "white", "black", "both", "level", "time", "color", "colour")
HOW = ("White and Black take turns to choose where the next piece goes on both back "
       "ranks (Northam's joint set-up).",
       "each side places its own pieces on its own back rank, White first (Pre-Chess).")


class SetUpPhase:
    def __init__(self, console, rules, placed=None):
        """A new set-up phase; or, with `placed` (the files placed, as
        placements() gave them), one taken up again from a saved game."""
        self.console = console
        self.setup = SetUp(rules)
        if placed is None:
            # Until the set-up is done the game is a stand-in, saved with the
            # placements (Console.keep); its clock stands still.
            self._restart(None)
        console.setup = self  # the board drawn from now on is the set-up's
        if placed is None:
            console.out("Set-up phase (%s): %s" % (rules.name, HOW[rules.two_ranks]))
            self._next()
        else:
            try:
                for file in placed:
                    self.setup.place(int(file))
            except ValueError:  # damaged: the placements that were good
                console.out("warning: the saved set-up is damaged; it goes on from here")

    def _restart(self, fen):
        """The console's game starts again, in the same Game (a small heap
        has no room for a second one): from `fen`, or (None) from where it
        began, without reading a FEN (the FEN reader would need room too)."""
        console = self.console
        game = console.game
        if fen:
            game.new(fen)
        else:
            game.truncate(0)
            game.ended = None
        game.date = None
        console.expected = console.draw_offer = None
        if game.clock:  # full time for both, running only once the game begins
            game.clock.undo(0)
            game.clock.first_side = game.pos.side

    def placements(self):
        """The files placed so far, for the saved game: `-` then a digit each."""
        return "-" + "".join(str(file) for _, file in self.setup.placed)

    def takes(self, command):
        """True for a command the set-up phase lets through."""
        return command in COMMANDS

    def place(self, text):
        """A square (or piece and square: `c1`, `Bc1`) for the piece to place."""
        setup = self.setup
        if len(text) == 3 and text[0].upper() == setup.piece():
            text = text[1:]
        if len(text) != 2 or text[0] not in "abcdefgh" or text[1] not in "18":
            raise ValueError("the set-up goes on: %s" % self.next_text())
        rank = self._rank()
        if text[1] != rank and setup.rules.two_ranks:
            raise ValueError("%s places on rank %s" % (side_name(setup.side()), rank))
        setup.place("abcdefgh".index(text[0]))
        self._next()

    def undo(self):
        setup = self.setup
        setup.undo()
        count = 1
        # The engine's placements and forced ones go back with yours: else
        # they would be made again at once.
        while setup.placed and (setup.side() == self.console.engine_side or
                                len(setup.allowed()) == 1):
            setup.undo()
            count += 1
        self.console.out("Took back %s." % ("a placement" if count == 1 else
                                            "%d placements" % count))
        self._next()

    def next_text(self):
        setup = self.setup
        rank = self._rank()
        return "%s places a %s: %s" % (side_name(setup.side()), NAMES[setup.piece()],
                                       " ".join("abcdefgh"[f] + rank for f in setup.allowed()))

    def _rank(self):
        """The rank the next piece goes on (both, where Black mirrors White: 1 names it)."""
        return "8" if self.setup.rules.two_ranks and self.setup.side() == BLACK else "1"

    def _next(self):
        """Say who places what next; the engine places its own; start the game when done."""
        setup = self.setup
        console = self.console
        while not setup.done():
            allowed = setup.allowed()
            engine = setup.side() == console.engine_side
            if not engine and len(allowed) > 1:
                break
            piece = setup.piece()
            square = "abcdefgh"[allowed[0]] + self._rank()
            if engine:
                square = "abcdefgh"[random.choice(allowed)] + square[1]
                console.out("micro960 places its %s on %s." % (NAMES[piece], square))
            else:  # no choice: not asked
                console.out("%s's %s goes on %s, the only square left." % (
                    side_name(setup.side()), NAMES[piece], square))
            setup.place("abcdefgh".index(square[0]))
        if setup.done():
            from micro960.rules.startpos import setup_text
            self._restart(setup.fen())
            console.setup = None
            console.start_clock()
            game = console.game
            console.out("Set-up done. New %s game. Start position %s." % (
                game.rules.name, setup_text(game.rules, game.start_fen) or game.start_fen))
            console.show_board()
            console.announce()  # (then the engine moves if it plays White: Console.reply)
            return
        console.show_board()  # with who places what next

    def engine_places(self):
        """Place the engine's pieces if it is its turn (after `black`, say):
        Console.reply, after every line. True if it was."""
        setup = self.setup
        if setup.done() or setup.side() != self.console.engine_side:
            return False
        self._next()
        return True

    def view(self):
        """The board so far, for console.board_lines: pawns and the back ranks."""
        return _View(self.setup)


class _View:
    def __init__(self, setup):
        self.pos = pos = Position()
        self.moves = ()
        for index, row in ((0, 21), (1, 91)):
            for file in range(8):
                letter = setup.ranks[index][file]
                pos.board[row + file] = ((BLACK if index else WHITE) |
                                         " PNBRQK".index(letter)) if letter else 0
