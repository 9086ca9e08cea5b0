"""The console game: a text protocol for people at a serial terminal or a PC.

Every line is a move or a command. Bad input gets a one-line reason and the
game stays exactly as it was. The board is drawn in ASCII, which every
terminal shows; `unicode` draws chess symbols and `color` paints the squares
with ANSI escape codes, the last move's two squares highlighted.
"""
from micro960.compat import const, release, ticks_ms
from micro960.rules.game import Game, UNDECIDED
from micro960.lines import CONSOLE_LIMIT
from micro960.rules.notation import parse_move, san, san_line, side_name
from micro960.rules.position import BLACK, CASTLE, OFF, TO64, TO120, WHITE, castle_squares
from micro960.engine.search import MATE, MATE_BOUND, Limits, Search


_ASCII_PIECES = const(" PNBRQK")
_UNICODE_WHITE = const(" \u2659\u2658\u2657\u2656\u2655\u2654")
_UNICODE_BLACK = const(" \u265f\u265e\u265d\u265c\u265b\u265a")

# ANSI colours (the 16 every terminal has): square backgrounds, piece colours.
LIGHT_SQUARE = "\x1b[43m"  # yellow
DARK_SQUARE = "\x1b[42m"  # green
LAST_MOVE_SQUARE = "\x1b[46m"  # cyan: the last move's from- and to-square
WHITE_PIECE = "\x1b[1;97m"  # bold bright white
BLACK_PIECE = "\x1b[22;30m"  # black
RESET = "\x1b[0m"


class Console:
    # The engine's side as saved: index * 8 is WHITE (8) or BLACK (16); none for two players.
    ENGINE_SIDES = ("none", "white", "black")

    def __init__(self, rules="chess960", number=None, black_number=None, fen=None,
                 unicode=False, out=None, engine_side=BLACK, seconds=5, hash_kb=None,
                 color=False):
        self.out = out or _print
        self.game = Game(rules, fen, number, black_number)
        self.unicode = unicode
        self.color = color
        self.last_move = None  # (game, plies, text) of the last move shown
        self.flipped = False
        self.running = True
        self.engine = Search(hash_kb)
        self.engine.on_info = self._thinking
        self.engine.poll = self.typed_while_thinking
        self.input = None  # the StdinLines typed on, looked at while the engine thinks
        self.engine_side = engine_side  # WHITE, BLACK or None (two people)
        self.limits = Limits(movetime=int(seconds * 1000))  # `time`; a clock's when on one
        self.store = None  # a storage.GameStore: the game is saved after every change
        self.draw_offer = None  # (side, plies) of a draw offered by a person
        self.setup = None  # a console_setup.SetUpPhase while the players place their pieces
        self.engine_score = None  # the engine's last score, for its side
        self.now = ticks_ms  # the clocks' time (ms)
        self.pondering = True  # think on the person's time (text/pondering.py)
        self.expected = None  # (game, plies, move): the reply the engine expects
        self.said = None  # (score, line, first move) of this search's last thinking line shown
        self.reached = 0  # the depth of this search's last finished iteration
        self.typed = []  # the lines typed while the engine thought, refused once it is done
        self.forget()

    # ---------------------------------------------------------------- input

    def handle(self, line):
        """Act on one input line; everything said goes through self.out."""
        problem = _check_line(line)
        if problem:
            self.out("error: " + problem)
            return
        words = line.split()
        if not words:
            return
        command = words[0].lower()
        name = COMMANDS.get(command)
        try:
            try:
                if self._check_flag() and not name:
                    pass  # a move that came after the flag fell: the game is over
                elif self.setup and not self.setup.takes(command):
                    self.setup.place(line.strip())
                elif name:
                    self.command(name, words[1:])
                else:
                    self.move(line.strip())
            except ValueError as e:
                self.out("error: %s" % e)
            self.keep()
            # Whatever the line was (a move, new, rules, undo, white, go, a
            # placement...), the engine moves if it has left its side to move.
            self.reply()
        except MemoryError:  # (a game is saved after every move: nothing is lost)
            self.out("error: out of memory; the game goes on")
        self.forget()  # (at a game's end too: the next game needs the room)

    def command(self, name, args):
        """Carry out the command `name` (a value of COMMANDS) with its words."""
        function = getattr(Console, name, None)
        if function is None:
            from . import console_commands
            function = getattr(console_commands, name)
        function(self, args)

    def resume(self, store):
        """Keep games in `store`; take up a saved unfinished game. True if one was."""
        from .console_resume import resume
        return resume(self, store)

    def forget(self):
        """Give a board back the heap of the modules used now and then."""
        release("text.console_commands", "text.console_help", "text.console_setup",
                "text.console_resume", "rules.startpos", "rules.pgn", "rules.fen", "rules.setup",
                "rules.castling_hint", "engine.levels")

    def keep(self):
        """Save the game after every change, so a power cut loses nothing; when
        it ends, add it to the archive and clear the save (GameStore.keep)."""
        if not self.store:
            return
        game = self.game
        game.settings = "engine %s level %d" % (self.ENGINE_SIDES[(self.engine_side or 0) >> 3],
                                                self.engine.level)
        if self.limits.movetime:
            game.settings += " time %d" % self.limits.movetime
        if not self.pondering:
            game.settings += " ponder off"
        if self.engine.helper:
            game.settings += " threads 2"
        # How the board is drawn: unicode 1, color 2, flipped 4.
        game.settings += " look %d" % (self.unicode | self.color << 1 | self.flipped << 2)
        if self.setup:  # the placements so far, to take the set-up phase up again
            game.settings += " setup " + self.setup.placements()
        if game.date is None:  # the day of its first save: the day it began
            from micro960.device.storage import today
            game.date = today()
        problem = self.store.keep(game)
        if problem:
            self.warn(problem, game.result() == UNDECIDED)

    def warn(self, problem, going_on=True):
        """Say why the game could not be saved or archived, if it could not."""
        if problem:
            self.out("warning: %s%s" % (problem, "; the game goes on" if going_on else ""))

    def _check_flag(self):
        """End the game (True) if the side to move has run out of time."""
        clock = self.game.clock
        if clock and clock.flag_fell(self.game):
            self.announce()  # (which archives the game)
            return True
        return False

    def start_clock(self):
        """The side to move's clock runs (unless the game is over)."""
        game = self.game
        if game.clock and game.result() == UNDECIDED:
            game.clock.start(game.pos.side)

    def not_over(self):
        game = self.game
        if game.result() != UNDECIDED:
            raise ValueError("the game is over (%s); type new" % game.reason())

    def move(self, text):
        self.not_over()
        game = self.game
        moves = game.legal_moves()
        try:
            move = parse_move(game.pos, text, moves)
        except ValueError as e:
            if " " in text or not any(c.isdigit() for c in text) and "-" not in text:
                raise ValueError("unknown command or move %r (type help)" % text)
            raise e
        self._played(move, moves)
        self.keep()  # your move is on flash before the engine thinks
        self.show_board()
        self.announce()

    def reply(self):
        """If it is the engine's turn, think and play (in a set-up phase,
        place its pieces). handle() calls it after every line."""
        if self.setup and self.setup.engine_places():  # (which may end the set-up phase)
            self.keep()
        game = self.game
        if self.setup or game.pos.side != self.engine_side or game.result() != UNDECIDED:
            return
        self.said = None
        try:
            move, self.engine_score = self.engine.think(game, self._limits())
        except KeyboardInterrupt:
            # Ctrl-C stops the search, not the program: the engine plays the
            # best move it has (the moves it was trying are taken back first).
            game.rebuild()
            moves = game.legal_moves()
            move = self.engine.best if self.engine.best in moves else moves[0] if moves else 0
            self.out("Stopped: the engine plays the best move it has found.")
        if move:
            self.answer(move)

    def answer(self, move):
        """Play the engine's move, and remember the reply it expects; then
        refuse what was typed while it thought."""
        game = self.game
        said = self.said
        if said and said[2] != move:  # the last thinking line began with another move
            from .console_commands import show_choice  # (seldom: loaded for then)
            show_choice(self, move)
        line = self.engine.pv(move, 2)
        self._played(move, None, "micro960 plays ")
        self.expected = (game, len(game.moves), line[1]) if len(line) == 2 else None
        self.keep()
        self.show_board()
        self.announce()
        if self.typed:
            from .console_commands import say_typed  # now and then: loaded for then
            say_typed(self)

    def next_line(self):
        """The next line typed; meanwhile the engine ponders, where it may."""
        while self.may_ponder():
            from .pondering import ponder
            line = ponder(self)  # None after a hit, which the engine answered
            if line is not None or getattr(self.input, "ended", False):
                return line
        return self.input.readline()

    def may_ponder(self):
        game = self.game
        expected = self.expected
        if self.engine.level != 20:
            from micro960.engine.levels import ponders
            if not ponders(self.engine.level):
                return False
        return (self.pondering and self.input is not None
                and self.running and not self.setup and expected is not None
                and expected[0] is game and expected[1] == len(game.moves)
                and game.pos.side != self.engine_side and game.result() == UNDECIDED)

    def taken(self, side, text):
        """`side`'s move, played while the engine pondered on it (the game has
        it already): say it, start the engine's clock and save it before the
        engine thinks on, as any move (not through keep(): game.pos is the
        search's, and the game is not over, or the engine would not ponder)."""
        game = self.game
        self.out(text)
        self.last_move = (game, len(game.moves), text)
        if game.clock:
            game.clock.moved(side)
        if self.store and self.store.waiting is None:  # (else game.txt keeps that game)
            self.warn(self.store.save(game))

    def typed_while_thinking(self):
        """Polled by the search: True makes the engine move now (Enter or
        stop; quit too, then the program ends). Any other line was typed for
        the position before the engine's move, so it is refused, not played
        in the position after it."""
        line = self.input.poll() if self.input else None
        if line is None:
            return False
        word = line.strip().lower()
        if word in ("quit", "exit"):
            self.running = False
        elif word not in ("", "stop"):
            # Said once the engine is done (say_typed): now it would be refused again.
            self.typed.append(line.strip()[:CONSOLE_LIMIT].replace("\x1a", "?"))  # as echoed
            return False
        return True

    def _limits(self):
        """The engine's limits: from its clock if there is one, else `time`."""
        clock = self.game.clock
        return clock.limits(self.game.pos.side, Limits()) if clock else self.limits

    def _played(self, move, moves, who=""):
        """Say the move, remember how it reads for the board, and play it;
        on a clock, only if the mover's time has not run out."""
        game = self.game
        clock = game.clock
        side = game.pos.side
        if clock and clock.flag_fell(game):  # (the mover's time ran out as it thought)
            return
        text = self.move_text(game.pos, move, moves)
        self.out(who + text)
        game.push(move)
        self.last_move = (game, len(game.moves), text)
        if clock:
            clock.punch(side)
            self.start_clock()

    def last_move_text(self):
        """The last move as `12...Nf6`, or None before the first move."""
        game = self.game
        plies = len(game.moves)
        if not plies:
            return None
        known = self.last_move
        if known is None or known[0] is not game or known[1] != plies:
            text = None
            for i, (pos, move) in enumerate(game.replay()):  # only after undo or resume
                if i == plies - 1:
                    text = self.move_text(pos, move)
            known = self.last_move = (game, plies, text)
        return known[2]

    def _thinking(self, depth, seldepth, score, nodes, ms, pv):
        """A line for each finished search depth that changed the score or
        the best line: depth, score, nodes, time, best line, and on a clock
        the time the engine has left. (A mate found early is not repeated at
        every depth after.)"""
        self.reached = depth
        line = " ".join(san_line(self.game.pos, pv))
        said = self.said
        if said and said[0] == score and said[1] == line:
            return
        self.said = (score, line, pv[0] if pv else 0)
        self.say_line(depth, self.score_text(score), nodes, ms, line)

    def say_line(self, depth, score, nodes, ms, line):
        """A thinking line; `score` is its text (or, after a search, why the
        line of the move chosen has none: console_commands.show_choice)."""
        clock = self.game.clock
        self.out("  depth %d  %s  %d nodes  %d.%d s  %s%s" % (
            depth, score, nodes, ms // 1000, ms % 1000 // 100, line,
            "  (clock %s)" % clock.left_text(self.game.pos.side) if clock else ""))

    def announce(self):
        game = self.game
        if game.result() != UNDECIDED:
            self.keep()  # the game is archived first, whatever befalls the summary
            from .console_commands import summary  # once a game: loaded for the moment
            summary(self)
            return
        if game.pos.in_check() and not game.rules.king_capture:  # LRS has no check
            self.out("Check.")
        claim = game.claimable_draw()
        if claim:
            self.out("%s may claim a draw (%s): type draw." % (
                side_name(game.pos.side), claim))

    # ------------------------------------------------------------- commands

    @staticmethod
    def move_text(pos, move, moves=None):
        """A move as written in a game record: `12. Nf3` for White, `12...Nf6` for Black."""
        if pos.side == WHITE:
            return "%d. %s" % (pos.fullmove, san(pos, move, moves))
        return "%d...%s" % (pos.fullmove, san(pos, move, moves))

    @staticmethod
    def score_text(score):
        """The engine's score as a person reads it: `+0.35`, `mate in 3`, `mated in 2`."""
        if abs(score) > MATE_BOUND:
            moves = (MATE - abs(score) + 1) // 2
            return "mate in %d" % moves if score > 0 else "mated in %d" % moves
        return "%+.2f" % (score / 100)

    def cmd_quit(self, args):
        self.running = False

    # --------------------------------------------------------------- board

    def show_board(self, game=None):
        """The board (of `game`, else the game's), turned round when the
        person plays Black unless flipped back."""
        flipped = self.flipped != (self.engine_side == WHITE)
        if self.setup:  # the back ranks so far, and who places what
            for line in board_lines(self.setup.view(), self.unicode, flipped,
                                    self.color)[:-1]:
                self.out(line)
            self.out(self.setup.next_text())
            return
        # (once the game is over, nobody is to move)
        for line in board_lines(game or self.game, self.unicode, flipped, self.color,
                                self.last_move_text(), self.game.result() == UNDECIDED):
            self.out(line)
        if self.game.clock:
            self.out(self.game.clock.line())


# Each command word and its function: a Console method, or else one of
# text/console_commands.py, loaded when it is typed.
COMMANDS = {
    "new": "cmd_new", "rules": "cmd_rules", "board": "cmd_board", "flip": "cmd_flip",
    "unicode": "cmd_unicode", "ascii": "cmd_ascii", "moves": "cmd_moves", "undo": "cmd_undo",
    "fen": "cmd_fen", "pgn": "cmd_pgn", "draw": "cmd_draw", "accept": "cmd_accept",
    "resign": "cmd_resign", "help": "cmd_help", "quit": "cmd_quit", "exit": "cmd_quit",
    "white": "cmd_white", "black": "cmd_black", "both": "cmd_both", "go": "cmd_go",
    "hint": "cmd_hint", "level": "cmd_level", "time": "cmd_time", "color": "cmd_color",
    "colour": "cmd_color", "clock": "cmd_clock", "ponder": "cmd_ponder",
    "threads": "cmd_threads",
    "analyze": "cmd_analyze", "analyse": "cmd_analyze",
}


def board_lines(game, unicode=False, flipped=False, color=False, last_move=None,
                to_move=True):
    """The board as lines of text, White at the bottom unless flipped, then
    the last move (its text, e.g. `12...Nf6`) and, with `to_move`, who is to move."""
    pos = game.pos
    ranks = range(8) if flipped else range(7, -1, -1)
    files = range(7, -1, -1) if flipped else range(8)
    marked = last_squares(game) if color else ()
    lines = [] if color else ["  +-----------------+"]
    for rank in ranks:
        cells = []
        for file in files:
            p = pos.board[21 + file + 10 * rank]
            dark = (rank + file) % 2 == 0
            if color:  # the square's colour shows; an empty one needs no dot
                glyph = _painted(_glyph(p, unicode, False), p, dark, rank * 8 + file in marked)
            else:
                glyph = _glyph(p, unicode, dark)
            cells.append(glyph)
        if color:
            lines.append("%d %s%s" % (rank + 1, "".join(cells), RESET))
        else:
            lines.append("%d | %s |" % (rank + 1, " ".join(cells)))
    if color:
        lines.append("   " + "  ".join("abcdefgh"[f] for f in files))
    else:
        lines.append("  +-----------------+")
        lines.append("    " + " ".join("abcdefgh"[f] for f in files))
    if last_move:
        lines.append("Last move: " + last_move)
    if to_move:
        lines.append("%s to move" % side_name(pos.side))
    return lines


def last_squares(game):
    """The from- and to-square (0-63) of the last move; for castling the
    king's, as a player sees it. Empty before the first move."""
    if not game.moves:
        return ()
    move = game.moves[-1]
    start = move & 63
    end = (move >> 6) & 63
    if move >> 12 == CASTLE:  # "king takes own rook": where the king lands
        side = WHITE if start < 8 else BLACK
        end = TO64[castle_squares(side, TO120[end], TO120[start], game.rules.orthodox_castling)[0]]
    return (start, end)


def _glyph(p, unicode, dark):
    if p == 0 or p == OFF:
        return ("\u00b7" if dark else " ") if unicode else "."
    kind = p & 7
    if unicode:
        return (_UNICODE_WHITE if p & WHITE else _UNICODE_BLACK)[kind]
    letter = _ASCII_PIECES[kind]
    return letter if p & WHITE else letter.lower()


def _painted(glyph, p, dark, marked):
    square = LAST_MOVE_SQUARE if marked else DARK_SQUARE if dark else LIGHT_SQUARE
    if not p:
        return square + "   "
    return "%s%s %s " % (square, WHITE_PIECE if p & WHITE else BLACK_PIECE, glyph)


def _check_line(line):
    if len(line) > CONSOLE_LIMIT:
        return "line too long (more than %d characters)" % CONSOLE_LIMIT
    for ch in line:
        if ch == "\x1a" or ord(ch) > 127:  # lines.FOREIGN: a character not in ASCII
            return "only plain letters, digits and signs are read (Nf3, not a chess symbol)"
        if ord(ch) < 32 and ch not in "\t\r\n" or ord(ch) == 127:
            return "control characters are not allowed"
    return None


def _print(text):
    print(text)
