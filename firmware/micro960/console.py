"""The console game: a text protocol for people at a serial terminal or a PC.

Every line is a move or a command. Bad input gets a one-line reason and the
game stays exactly as it was. The board is drawn in ASCII, which every
terminal shows; `unicode` draws chess symbols and `color` paints the squares
with ANSI escape codes, the last move's two squares highlighted.
"""
from .compat import release, ticks_ms
from .game import Game, UNDECIDED
from .lines import CONSOLE_LIMIT
from .notation import parse_move, san, san_line, side_name
from .position import BLACK, CASTLE, OFF, TO64, TO120, WHITE, castle_squares
from .search import MATE, MATE_BOUND, Limits, Search
from .rules import NAMES, Rules

MAX_LINE = CONSOLE_LIMIT
# The engine's side as saved: index * 8 is WHITE (8) or BLACK (16); none for two players.
ENGINE_SIDES = ("none", "white", "black")
BOTH_SIDES = WHITE | BLACK  # side ^ BOTH_SIDES is the other side

ASCII_PIECES = " PNBRQK"
UNICODE_WHITE = " \u2659\u2658\u2657\u2656\u2655\u2654"
UNICODE_BLACK = " \u265f\u265e\u265d\u265c\u265b\u265a"

# ANSI colours (the 16 every terminal has): square backgrounds, piece colours.
LIGHT_SQUARE = "\x1b[43m"  # yellow
DARK_SQUARE = "\x1b[42m"  # green
LAST_MOVE_SQUARE = "\x1b[46m"  # cyan: the last move's from- and to-square
WHITE_PIECE = "\x1b[1;97m"  # bold bright white
BLACK_PIECE = "\x1b[22;30m"  # black
RESET = "\x1b[0m"


class Console:
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
        self.engine.poll = self._typed_while_thinking
        self.input = None  # the StdinLines typed on, looked at while the engine thinks
        self.engine_side = engine_side  # WHITE, BLACK or None (two people)
        self.limits = None
        self.cmd_time([str(seconds)], quiet=True)
        self.store = None  # a storage.GameStore: the game is saved after every change
        self.kept = None  # the text last saved
        self.draw_offer = None  # (side, plies) of a draw offered by a person
        self.setup = None  # a console_setup.SetUpPhase while the players place their pieces
        self.engine_score = None  # the engine's last score, for its side
        self.now = ticks_ms  # the clocks' time (ms)
        self.pondering = True  # think on the person's time (pondering.py)
        self.expected = None  # (game, plies, move): the reply the engine expects
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
        handler = COMMANDS.get(command)
        if self._check_flag() and not handler:
            self.keep()  # a move that came after the flag fell: the game is over
            return
        try:
            if self.setup and not self.setup.takes(command):
                self.setup.place(line.strip())
            elif handler:
                handler(self, words[1:])
            else:
                self.move(line.strip())
        except ValueError as e:
            self.out("error: %s" % e)
        self.keep()
        self.forget()

    def forget(self):
        """Give a board back the heap of the modules used now and then."""
        release("startpos", "pgn", "console_help", "console_setup", "setup")

    def keep(self):
        """Save the game after every change, so a power cut loses nothing; when
        it ends, add it to the archive and clear the save."""
        if not self.store:
            return
        game = self.game
        game.settings = "engine %s level %d" % (ENGINE_SIDES[(self.engine_side or 0) >> 3],
                                                self.engine.skill)
        if self.limits.movetime:
            game.settings += " time %d" % self.limits.movetime
        if not self.pondering:
            game.settings += " ponder off"
        text = game.save_text()
        if text == self.kept:
            return
        self.kept = text
        if game.result() == UNDECIDED:
            problem = self.store.save(game)
        else:
            problem = self.store.finish(game)
        if problem:
            self.out("warning: %s; the game goes on" % problem)

    def resume(self, store):
        """Keep games in `store`; take up a saved unfinished game. True if one was."""
        self.store = store
        saved = store.load()
        if saved is None:
            if store.problem:
                self.out("warning: " + store.problem)
            return False
        if saved.result() != UNDECIDED:
            store.finish(saved)  # it ended just before a power cut: archive it now
            return False
        self.game = saved
        self.kept = saved.save_text()
        self._take_settings(saved.settings)
        if saved.clock:
            saved.clock.now = self.now
        self._start_clock()
        plies = len(saved.moves)
        self.out("Resuming your saved game (%d move%s played); type new for a new game."
                 % (plies, "" if plies == 1 else "s"))
        return True

    def _check_flag(self):
        """End the game (True) if the side to move has run out of time."""
        game = self.game
        clock = game.clock
        if clock and clock.running and game.result() == UNDECIDED and \
                clock.remaining(clock.running) <= 0:
            game.flag(clock.running)
            clock.stop()
            self.announce()
            return True
        return False

    def _start_clock(self):
        """The side to move's clock runs (unless the game is over)."""
        game = self.game
        if game.clock and game.result() == UNDECIDED:
            game.clock.start(game.pos.side)

    def _not_over(self):
        game = self.game
        if game.result() != UNDECIDED:
            raise ValueError("the game is over (%s); type new" % game.reason())

    def _take_settings(self, text):
        """Side, level and time as a saved game had them (see keep)."""
        words = text.split()
        try:
            for name, value in zip(words[::2], words[1::2]):
                if name == "engine":
                    self.engine_side = ENGINE_SIDES.index(value) * 8 or None
                elif name == "level":
                    self.cmd_level([value])
                elif name == "time":
                    self.cmd_time([str(int(value) / 1000)], quiet=True)
                elif name == "ponder":
                    self.pondering = value == "on"
        except ValueError:
            self.out("warning: the saved settings are damaged; some are the defaults")
        self._say_sides()

    def move(self, text):
        self._not_over()
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
        self.reply()

    def reply(self):
        """If it is the engine's turn, think and play."""
        game = self.game
        if game.pos.side != self.engine_side or game.result() != UNDECIDED:
            return
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
        """Play the engine's move, and remember the reply it expects."""
        game = self.game
        line = self.engine.pv(move, 2)
        self._played(move, None, "micro960 plays ")
        self.expected = (game, len(game.moves), line[1]) if len(line) == 2 else None
        self.keep()
        self.show_board()
        self.announce()

    def next_line(self):
        """The next line typed; meanwhile the engine ponders, where it may."""
        while self._may_ponder():
            from .pondering import ponder
            line = ponder(self)  # None after a hit, which the engine answered
            if line is not None or getattr(self.input, "ended", False):
                return line
        return self.input.readline()

    def _may_ponder(self):
        game = self.game
        expected = self.expected
        return (self.pondering and self.engine.skill >= 10 and self.input is not None
                and self.running and not self.setup and expected is not None
                and expected[0] is game and expected[1] == len(game.moves)
                and game.pos.side != self.engine_side and game.result() == UNDECIDED)

    def taken(self, side, text):
        """`side`'s move, played while the engine pondered on it (the game has
        it already): say it and start the engine's clock. It is saved with the
        engine's answer: game.pos is the search's until then."""
        game = self.game
        self.out(text)
        self.last_move = (game, len(game.moves), text)
        if game.clock:
            game.clock.punch(side)
            game.clock.start(side ^ BOTH_SIDES)

    def _typed_while_thinking(self):
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
            self.out("error: %r was typed while the engine thought; type it again now"
                     % line.strip()[:MAX_LINE])
            return False
        return True

    def _limits(self):
        """The engine's limits: from its clock if there is one, else `time`."""
        clock = self.game.clock
        if not clock:
            return self.limits
        wtime, btime, winc, binc, togo = clock.limits(self.game.pos.side)
        return Limits(wtime=wtime, btime=btime, winc=winc, binc=binc, movestogo=togo)

    def _played(self, move, moves, who=""):
        """Say the move, remember how it reads for the board, and play it;
        on a clock, only if the mover's time has not run out."""
        game = self.game
        clock = game.clock
        side = game.pos.side
        if clock and clock.remaining(side) <= 0:
            game.flag(side)
            clock.stop()
            return
        text = move_text(game.pos, move, moves)
        self.out(who + text)
        game.push(move)
        self.last_move = (game, len(game.moves), text)
        if clock:
            clock.punch(side)
            self._start_clock()

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
                    text = move_text(pos, move)
            known = self.last_move = (game, plies, text)
        return known[2]

    def _thinking(self, depth, seldepth, score, nodes, ms, pv):
        """One line per finished search depth: depth, score, nodes, time, best
        line, and on a clock the time the engine has left."""
        clock = self.game.clock
        self.out("  depth %d  %s  %d nodes  %d.%d s  %s%s" % (
            depth, _score_text(score), nodes, ms // 1000, ms % 1000 // 100,
            " ".join(san_line(self.game.pos, pv)),
            "  (clock %s)" % clock.left_text(self.game.pos.side) if clock else ""))

    def announce(self):
        game = self.game
        if game.result() != UNDECIDED:
            self.summary()
            return
        if game.pos.in_check() and not game.rules.king_capture:  # LRS has no check
            self.out("Check.")
        claim = game.claimable_draw()
        if claim:
            self.out("%s may claim a draw (%s): type draw." % (
                side_name(game.pos.side), claim))

    def summary(self):
        """At the end of a game: the result, why, and the whole game as PGN."""
        game = self.game
        self.out("Game over: %s (%s)" % (game.result(), game.reason()))
        self.out("")
        from .pgn import game_pgn
        self.out(game_pgn(game).rstrip())
        self.out("")
        if self.store:
            self.out("Finished games go to %s. Type new for another game."
                     % self.store.archive_path)
        else:
            self.out("Type new for another game.")

    # ------------------------------------------------------------- commands

    def cmd_new(self, args):
        rules = self.game.rules
        fen = None
        numbers = ()
        word = args[0].lower() if args else "random"
        if word == "setup" and len(args) == 1:
            from .console_setup import SetUpPhase  # loaded only when asked for
            self.setup = SetUpPhase(self, rules)
            return
        from .startpos import backrank, setup_number, setup_numbers, sp_from_dice
        if word == "fen":
            fen = " ".join(args[1:])
            if not fen:
                raise ValueError("new fen needs a FEN")
        elif word == "dice":
            numbers = (setup_number(rules, backrank(sp_from_dice([_int(a, "die roll")
                                                                  for a in args[1:]]))),)
        elif word == "classical" and len(args) == 1:
            numbers = (setup_number(rules, "RNBQKBNR"),)
        elif word != "random" or len(args) > 1:
            numbers = setup_numbers(rules, args)
        game = Game(rules, fen, *numbers)  # raises before the old game is touched
        self._begin(game)
        self.out("New %s game. %s" % (rules.name, setup_text(game)))
        self.show_board()
        self.announce()

    def cmd_rules(self, args):
        if len(args) != 1:
            raise ValueError("rules needs one of: " + " ".join(NAMES))
        self._begin(Game(Rules(args[0].lower())))  # raises before the old game is touched
        self.out("Rules: %s. %s" % (self.game.rules.name, setup_text(self.game)))
        self.show_board()

    def _begin(self, game):
        """Play `game` from now on, on a clock like the last game's if it had one."""
        old = self.game.clock
        if old:
            from .clock import Clock
            game.clock = Clock(old.control, 0, game.pos.side, self.now)
        self.game = game
        self.draw_offer = self.setup = None  # a new game ends a set-up phase
        self._start_clock()

    def cmd_clock(self, args):
        """`clock 15+10` (or 5, or 40/90+30) puts the game on a clock, full time
        for both; `clock off` takes it off; `clock` shows it."""
        game = self.game
        if args and args[0].lower() == "off" and len(args) == 1:
            game.clock = None
        elif len(args) == 1:
            from .clock import Clock
            game.clock = Clock(args[0], len(game.moves), game.pos.side, self.now)
            self._start_clock()
        elif args:
            raise ValueError("clock takes one time control (15+10, 5, 40/90+30) or off")
        self.out(game.clock.line() if game.clock else
                 "No clock: the engine thinks %s seconds a move." %
                 _seconds_text(self.limits.movetime))

    def cmd_board(self, args):
        self.show_board()
        if self.setup:
            self.out(self.setup.next_text())

    def cmd_flip(self, args):
        self.flipped = not self.flipped
        self.show_board()

    def cmd_unicode(self, args):
        self.unicode = True
        self.show_board()

    def cmd_ascii(self, args):
        self.unicode = False
        self.show_board()

    def cmd_color(self, args):
        """`color` (or `color on`) paints the board with ANSI colours; `color off` stops."""
        word = args[0].lower() if args else "on"
        if word not in ("on", "off") or len(args) > 1:
            raise ValueError("color takes on or off, not %r" % " ".join(args))
        self.color = word == "on"
        self.show_board()

    def cmd_moves(self, args):
        self._not_over()
        pos = self.game.pos
        moves = self.game.legal_moves()
        self.out(" ".join(sorted(san(pos, m, moves) for m in moves)) or "(no legal moves)")

    def cmd_undo(self, args):
        # An ended game is archived already: taking moves back and ending it
        # again would archive it twice.
        if self.setup:
            self.setup.undo()
            return
        self._not_over()
        game = self.game
        game.undo()
        self.last_move = None
        self.draw_offer = None
        if game.pos.side == self.engine_side and game.moves:
            game.undo()  # take back the engine's reply with your move
            self.out("Took back two moves.")
        else:
            self.out("Took back a move.")
        self._start_clock()  # each side has the time it had then
        self.show_board()

    def cmd_white(self, args):
        self.engine_side = BLACK
        self._say_sides()
        self.reply()

    def cmd_black(self, args):
        self.engine_side = WHITE
        self._say_sides()
        self.reply()

    def cmd_both(self, args):
        self.engine_side = None
        self._say_sides()

    def _say_sides(self):
        side = self.engine_side
        self.out("You play %s; micro960 plays %s." % (side_name(side ^ BOTH_SIDES),
                                                      side_name(side))
                 if side else "Two players: the engine moves only when you type go.")

    def cmd_go(self, args):
        if self.game.result() != UNDECIDED:
            raise ValueError("the game is over (%s); type new" % self.game.reason())
        self.engine_side = self.game.pos.side
        self.reply()

    def cmd_hint(self, args):
        game = self.game
        if game.result() != UNDECIDED:
            raise ValueError("the game is over (%s); type new" % game.reason())
        if self._may_ponder():  # the reply it expects: no need to think again
            self.out("Hint: %s (micro960 expects it)" % san(game.pos, self.expected[2]))
            return
        move, score = self.engine.think(game, self.limits)
        self.out("Hint: %s (%s)" % (san(game.pos, move), _score_text(score)))

    def cmd_analyze(self, args):
        """Think about the position on the board, a line for each depth, until
        Enter is pressed (or to `time`'s limit where nothing can be typed)."""
        game = self.game
        self._not_over()
        if self.input:
            self.out("Analysing; press Enter to stop.")
        limits = Limits(infinite=True) if self.input else self.limits
        move, score = self.engine.think(game, limits)
        if move:
            self.out("Best: %s (%s)" % (san(game.pos, move), _score_text(score)))

    def cmd_ponder(self, args):
        """`ponder on` (the default) lets the engine think on your time, at
        level 10 and up; `ponder off` stops it; `ponder` alone shows it."""
        if args:
            if args[0].lower() not in ("on", "off") or len(args) > 1:
                raise ValueError("ponder takes on or off, not %r" % " ".join(args))
            self.pondering = args[0].lower() == "on"
        self.out("The engine %s on your time%s." % (
            "thinks" if self.pondering else "does not think",
            " (at level 10 and up)" if self.pondering and self.engine.skill < 10 else ""))

    def cmd_level(self, args):
        if args:
            level = _int(args[0], "level")
            if not 0 <= level <= 20:
                raise ValueError("levels run from 0 (weakest) to 20 (strongest)")
            self.engine.skill = level
        self.out("Level %d." % self.engine.skill)

    def cmd_time(self, args, quiet=False):
        if args:
            try:
                ms = int(float(args[0]) * 1000)
            except ValueError:
                raise ValueError("time takes seconds, e.g. time 5 or time 0.5, not %r" % args[0])
            if not 100 <= ms <= 3600000:
                raise ValueError("the engine thinks 0.1 to 3600 seconds a move")
            self.limits = Limits(movetime=ms)
            if not quiet:
                self.game.clock = None  # a time a move instead of a clock
        if not quiet:
            self.out("The engine thinks %s seconds a move." % _seconds_text(self.limits.movetime))

    def cmd_fen(self, args):
        self.out(self.game.pos.fen(shredder=bool(args) and args[0].lower() == "shredder"))

    def cmd_pgn(self, args):
        from .pgn import game_pgn
        self.out(game_pgn(self.game).rstrip())

    def cmd_draw(self, args):
        game = self.game
        self._not_over()
        if not game.rules.draw_claims:
            raise ValueError("%s has no draws but the one after %d plies"
                             % (game.rules.name, game.rules.max_plies))
        if game.claimable_draw():
            game.claim_draw()
        elif game.pos.side ^ BOTH_SIDES == self.engine_side:
            self._engine_answers_offer()
            return
        else:
            self.draw_offer = (game.pos.side, len(game.moves))
            self.out("%s offers a draw; %s may type accept before their next move."
                     % (side_name(game.pos.side), side_name(game.pos.side ^ BOTH_SIDES)))
            return
        self.announce()

    def _engine_answers_offer(self):
        """The engine takes a draw when it thinks it stands a pawn or more worse."""
        if self.engine_score is not None and self.engine_score <= -100:
            self.game.agree_draw()
            self.out("micro960 accepts the draw.")
            self.announce()
        else:
            self.out("micro960 declines the draw; play on.")

    def cmd_accept(self, args):
        game = self.game
        self._not_over()
        offer = self.draw_offer
        # An offer stands while its side makes its move and until the other replies.
        now = (len(game.moves), game.pos.side)
        if not offer or now not in ((offer[1], offer[0]), (offer[1] + 1, offer[0] ^ BOTH_SIDES)):
            raise ValueError("no draw offer to accept")
        game.agree_draw()
        self.announce()

    def cmd_resign(self, args):
        self.game.resign()
        self.announce()

    def cmd_help(self, args):
        from .console_help import HELP
        self.out(HELP)

    def cmd_quit(self, args):
        self.running = False

    # --------------------------------------------------------------- board

    def show_board(self):
        if self.setup:  # the back ranks so far
            for line in board_lines(self.setup.view(), self.unicode, self.flipped,
                                    self.color)[:-1]:
                self.out(line)
            return
        for line in board_lines(self.game, self.unicode, self.flipped, self.color,
                                self.last_move_text()):
            self.out(line)
        if self.game.clock:
            self.out(self.game.clock.line())


COMMANDS = {
    "new": Console.cmd_new, "rules": Console.cmd_rules, "board": Console.cmd_board,
    "flip": Console.cmd_flip, "unicode": Console.cmd_unicode, "ascii": Console.cmd_ascii,
    "moves": Console.cmd_moves, "undo": Console.cmd_undo, "fen": Console.cmd_fen,
    "pgn": Console.cmd_pgn, "draw": Console.cmd_draw, "accept": Console.cmd_accept,
    "resign": Console.cmd_resign,
    "help": Console.cmd_help, "quit": Console.cmd_quit, "exit": Console.cmd_quit,
    "white": Console.cmd_white, "black": Console.cmd_black, "both": Console.cmd_both,
    "go": Console.cmd_go, "hint": Console.cmd_hint, "level": Console.cmd_level,
    "time": Console.cmd_time, "color": Console.cmd_color, "colour": Console.cmd_color,
    "clock": Console.cmd_clock, "ponder": Console.cmd_ponder, "analyze": Console.cmd_analyze, "analyse": Console.cmd_analyze,
}


def board_lines(game, unicode=False, flipped=False, color=False, last_move=None):
    """The board as lines of text, White at the bottom unless flipped, then
    the last move (its text, e.g. `12...Nf6`) and who is to move."""
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
        return (UNICODE_WHITE if p & WHITE else UNICODE_BLACK)[kind]
    letter = ASCII_PIECES[kind]
    return letter if p & WHITE else letter.lower()


def _painted(glyph, p, dark, marked):
    square = LAST_MOVE_SQUARE if marked else DARK_SQUARE if dark else LIGHT_SQUARE
    if not p:
        return square + "   "
    return "%s%s %s " % (square, WHITE_PIECE if p & WHITE else BLACK_PIECE, glyph)


def move_text(pos, move, moves=None):
    """A move as written in a game record: `12. Nf3` for White, `12...Nf6` for Black."""
    if pos.side == WHITE:
        return "%d. %s" % (pos.fullmove, san(pos, move, moves))
    return "%d...%s" % (pos.fullmove, san(pos, move, moves))


def setup_text(game):
    from . import startpos
    return "Start position %s." % (startpos.setup_text(game.rules, game.start_fen)
                                   or game.start_fen)


def _score_text(score):
    if abs(score) > MATE_BOUND:
        moves = (MATE - abs(score) + 1) // 2
        return "mate in %d" % moves if score > 0 else "mated in %d" % moves
    return "%+.2f" % (score / 100)


def _check_line(line):
    if len(line) > MAX_LINE:
        return "line too long (more than %d characters)" % MAX_LINE
    for ch in line:
        if ch == "\x1a" or ord(ch) > 127:  # lines.FOREIGN: a character not in ASCII
            return "only plain letters, digits and signs are read (Nf3, not a chess symbol)"
        if ord(ch) < 32 and ch not in "\t\r\n" or ord(ch) == 127:
            return "control characters are not allowed"
    return None


def _seconds_text(ms):
    """1500 -> '1.5', 5000 -> '5'."""
    return "%d" % (ms // 1000) if ms % 1000 == 0 else ("%.3f" % (ms / 1000)).rstrip("0")


def _int(text, what):
    try:
        return int(text)
    except ValueError:
        raise ValueError("%s must be a number, not %r" % (what, text))


def _print(text):
    print(text)
