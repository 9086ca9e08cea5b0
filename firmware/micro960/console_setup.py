"""The console's set-up phase (`new setup`): the players place the back-rank
pieces in turn (setup.py), typing the square for the piece named; the engine
places its own. Loaded only when asked for, so the console's heap is spared.
"""
import random

from .game import Game
from .notation import side_name
from .position import BLACK, WHITE, Position
from .setup import NAMES, SetUp

# What a set-up phase lets you type besides squares.
COMMANDS = ("new", "rules", "board", "flip", "unicode", "ascii", "undo", "help", "quit",
            "exit", "white", "black", "both", "level", "time", "color", "colour")
HOW = ("White and Black take turns to choose where the next piece goes on both back "
       "ranks (Northam's joint set-up).",
       "each side places its own pieces on its own back rank, White first (Pre-Chess).")


class SetUpPhase:
    def __init__(self, console, rules):
        self.console = console
        self.setup = SetUp(rules)
        console.out("Set-up phase (%s): %s" % (rules.name, HOW[rules.two_ranks]))
        self._next()

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
        while setup.placed and setup.side() == self.console.engine_side:
            setup.undo()  # the engine's placement goes back with yours
        self.console.out("Took back a placement.")
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
        while not setup.done() and setup.side() == console.engine_side:
            piece = setup.piece()
            rank = self._rank()
            file = random.choice(setup.allowed())
            setup.place(file)
            console.out("micro960 places its %s on %s%s." % (NAMES[piece], "abcdefgh"[file],
                                                             rank))
        if setup.done():
            from .startpos import setup_text
            game = Game(setup.rules, setup.fen())
            console.setup = None
            console.game = game
            console.out("Set-up done. New %s game. Start position %s."
                        % (game.rules.name, setup_text(game.rules, game.start_fen) or game.start_fen))
            console.show_board()
            console.announce()
            console.reply()
            return
        console.show_board()
        console.out(self.next_text())

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
