"""A game on a sensor board: moves read from the sensors, the engine's replies
shown with LEDs.

The device loop and the simulator (`micro960 eboard-sim`) both drive this
object. Everything it says goes through out(), one line each:

    move SAN          a move was played on the board (yours, or the engine's
                      once you have carried it out)
    takeback SAN      a move was taken back by moving the pieces back
    error TEXT        the board shows something no legal move explains
    leds KIND SQUARES what the LEDs show now (KIND: off, move, error, setup)
    result R REASON   the game is over
    clock W B         both clocks after a move, when the game has a clock
    resume N          a saved game was taken up, N plies in (resume())
    warning TEXT      the game could not be saved or archived (it goes on)
    draw ...          a draw offer answered or made (typed: eboard/commands.py)
    new game: SP N    a new game (typed new); "; set up SQUARES" names those to put right

    >>> g = EBoardGame(number=518, engine=False, out=print)
    >>> g.lift(12); g.place(28)
    move e4

`leds` is (kind, mask): kind "off", "move" (the engine's move to carry out:
from and to, king and rook squares for castling, the taken pawn for en
passant), "error" (squares that differ from the position) or "setup"
(squares still wrong while setting up); mask has bit i for square i, a1 = 0.
"""
from micro960.compat import ticks_diff, ticks_ms
from micro960.eboard.moves import ERROR, OK, PENDING, EBoard, move_squares, squares_text
from micro960.rules.game import Game, UNDECIDED
from micro960.rules.notation import san
from micro960.rules.position import BLACK, WHITE


class EBoardGame:
    """One game at the sensor board.

    engine: True (the engine plays Black), "white", "black", or False for
    two people at the board. think_ms or depth limit the engine's search.
    settle_ms: a move that might still become castling (king f1-g1 with the
    rook on h1) counts as made once the board has been still this long;
    None leaves that to settle(). occupied: the board as it stands if it
    may not show the start position yet (the set-up check), else None.
    clock: a time control ("15+10", "5", "40/90+30"; rules/clock.py) or None for
    think_ms a move. The engine's clock stops when it lights its move, the
    person's when the board shows theirs. ponder: think on the person's
    time (eboard/pondering.py; the sensor-board loop does it, at level 10 up).
    threads: 2 searches on two threads at full strength (a Pico's two
    cores, engine/smp.py).
    """

    TYPED = ("resign", "draw", "accept", "new")  # the commands typed at the board (command())

    def __init__(self, rules="chess960", number=None, black_number=None, engine=True,
                 level=20, hash_kb=None, out=print, think_ms=5000, depth=0, fen=None,
                 occupied=None, settle_ms=1500, setup=False, clock=None, ponder=False,
                 now=ticks_ms, threads=1):
        self.out = out
        self.game = Game(rules, fen, number, black_number)
        if engine == "white":
            self.engine_side = WHITE
        elif engine:
            self.engine_side = BLACK
        else:
            self.engine_side = None
        self.search = None
        if self.engine_side:
            from micro960.engine.search import Search
            self.search = Search(hash_kb)
            self.search.level = level
            try:
                self.search.set_threads(threads)
            except ValueError as e:  # the game goes on with one search
                out("warning: %s; the engine searches on one thread" % e)
        self.think_ms = think_ms
        self.depth = depth
        self.settle_ms = settle_ms
        self.expected = 0  # the engine's move, shown, until the board shows it made
        self.leds = ("off", 0)
        self.last_event = ticks_ms()
        self.announced = False
        self.last = None  # the last move in SAN, for a display
        self.score = None  # the engine's last evaluation, for its own side
        self.control = clock
        self.now = now  # the clocks' time (ms)
        if level != 20:
            from micro960.engine.levels import check, ponders
            ponder = ponders(check(level)) and ponder
        self.ponder = ponder
        # The person's move the engine expects, as (plies, move): the game's
        # length with them to move, and that move; None when it expects none.
        self.reply = None
        # The engine's answer found on their time (eboard/pondering.py), as
        # (plies, move, answer, score): the game's length with their move played,
        # that move, the engine's answer and its score; None when it found none.
        self.pondered = None
        self.told = 0  # a move said already, as the engine pondered on it
        self.store = None  # a storage.GameStore: the game is saved after every move
        self.start = (fen, number, black_number)  # what a new game (typed new) starts from
        self.setup_phase = setup
        self.draw_offer = None  # (side, plies) of a draw offered by one of two players
        board = self.board = EBoard(self.game, occupied)
        board.on_move = self._moved
        board.on_undo = self._taken_back
        board.on_error = self._error
        board.accept = self._acceptable
        board.can_take_back = self._may_take_back
        self.setting_up = None  # an eboard/setup.py BoardSetUp during a set-up phase
        if setup:
            from .setup import BoardSetUp
            self.setting_up = BoardSetUp(self.game.rules, self.engine_side, out, occupied)
        else:
            self._start_clock()
        self._show()

    # ------------------------------------------------------------ events

    def lift(self, sq):
        self.last_event = ticks_ms()
        if self.setting_up:
            self.setting_up.lift(sq)
        else:
            self.board.lift(sq)
        self._show()

    def place(self, sq):
        self.last_event = ticks_ms()
        if self.setting_up:
            self._set_up(sq)
        else:
            self.board.place(sq)
        self._show()

    def _set_up(self, sq):
        """A piece placed in the set-up phase; when the last is, the game begins."""
        setting_up = self.setting_up
        setting_up.place(sq)
        if setting_up.done():
            self.setting_up = None
            self.game.new(setting_up.fen())
            self.board.new_position()
            from micro960.rules.startpos import setup_text
            self.out("setup done: %s" % setup_text(self.game.rules, self.game.start_fen))
            self._start_clock()

    def resume(self, store, occupied):
        """Save the game in `store` after every move from now on, and take up
        the unfinished game saved there, if there is one (True). Its pieces
        go back by the set-up check (`occupied`: the board as it stands);
        its clock goes on from where it stopped."""
        self.store = store
        saved = store.unfinished()
        if saved is None:
            if store.problem:
                self.out("warning " + store.problem)
            return False
        self.game = self.board.game = saved
        self.setting_up = None
        self.board.new_position(occupied)
        if saved.clock:
            saved.clock.now = self.now
            saved.clock.start(saved.pos.side)
        self.out("resume %d" % len(saved.moves))
        self._show()
        return True

    def _keep(self):
        """Save the game after each move (power may go at any time); when it
        ends, archive it (games.pgn, for `micro960 pull`) and clear the save
        (GameStore.keep)."""
        problem = self.store and self.store.keep(self.game)
        if problem:
            self.out("warning " + problem)

    def snapshot(self, mask):
        self.last_event = ticks_ms()
        if self.setting_up:
            # The device loop reads the whole board at its start and after a
            # full event queue: the pieces gone, then those come, in square order.
            physical = self.setting_up.physical
            for placed, squares in ((False, physical & ~mask), (True, mask & ~physical)):
                for sq in range(64):
                    if squares >> sq & 1:
                        self._set_up(sq) if placed else self.setting_up.lift(sq)
        else:
            self.board.snapshot(mask)
        self._show()

    def promote(self, piece):
        """'q', 'r', 'b' or 'n': the piece the next promotion makes."""
        self.board.promote(piece)

    def settle(self):
        """The board has been still: a move that might have become castling is made."""
        self.board.settle()
        self._show()

    @property
    def physical(self):
        """The occupancy the sensors last reported."""
        return (self.setting_up or self.board).physical

    # ------------------------------------------------------------ typed

    def command(self, word):
        """A command typed at the board: resign, draw, accept or new (TYPED;
        eboard/commands.py says what each does). ValueError if not now."""
        if self.setting_up and word != "new":
            raise ValueError("the game has not begun: place the pieces first")
        from micro960.eboard import commands
        getattr(commands, word)(self)

    def ended(self):
        """The game ended off the board (a resignation, a draw): the engine's
        lit move is void, the result said, the game archived."""
        self.expected = self.board.wanted = 0
        self.board.follow_game()
        self._announce()
        self._keep()
        self._show()

    def begin(self):
        """A new game is in self.game: its pieces are set up from the board as
        it stands (the LEDs light what differs), or placed in turn."""
        self.expected = self.board.wanted = self.told = 0
        self.reply = self.pondered = self.draw_offer = self.last = self.score = None
        self.announced = False
        physical = self.physical
        if self.setup_phase:
            from .setup import BoardSetUp
            self.out("new game: a set-up phase")
            self.setting_up = BoardSetUp(self.game.rules, self.engine_side, self.out, physical)
        else:
            from micro960.rules.startpos import setup_text
            game = self.game
            self.board.new_position(physical)
            wrong = self.board.wrong
            self.out("new game: %s%s" % (setup_text(game.rules, game.start_fen) or game.start_fen,
                                         "; set up " + squares_text(wrong) if wrong else ""))
            self._start_clock()
            self._announce()  # a position given (--fen) may be over already
        self._show()

    # ------------------------------------------------------------ engine

    def engine_to_move(self):
        game = self.game
        return (self.engine_side is not None and game.pos.side == self.engine_side
                and game.result() == UNDECIDED)

    def think(self):
        """If the engine is to move: search and light its move (once).

        A move still pending (it might become castling) is first made if the
        board has been still for settle_ms. Returns the engine's move or 0.
        """
        board = self.board
        if (board.status == PENDING and self.settle_ms is not None
                and ticks_diff(ticks_ms(), self.last_event) >= self.settle_ms):
            self.settle()
        self.check_flag()
        if self.setting_up or board.setup or board.status == PENDING or self.expected or \
                not self.engine_to_move():
            return 0
        game = self.game
        pondered, self.pondered = self.pondered, None
        move = 0
        if pondered:
            plies, theirs, answer, score = pondered
            if plies == len(game.moves) and theirs == game.moves[-1]:
                move, self.score = answer, score  # found on the person's time
        if not move:
            move, self.score = self.search.think(game, self.limits())
        if move:
            line = self.search.pv(move, 2)
            self.reply = (len(game.moves) + 1, line[1]) if len(line) == 2 else None
            self.expected = self.board.wanted = move
            if game.clock:  # the engine's clock stops as it shows its move
                self._punch(len(game.moves) + 1)
            self._show()
        return move

    def may_ponder(self):
        """The person is to move, on a board that shows the game, and the
        engine expects their move and may think on their time."""
        if not self.ponder or self.reply is None:
            return False
        plies, _ = self.reply
        return (plies == len(self.game.moves)
                and not self.expected and self.board.status == OK and not self.setting_up
                and self.engine_side is not None and self.game.pos.side != self.engine_side
                and self.game.result() == UNDECIDED)

    def limits(self):
        """The engine's search limits: its clock's, or think_ms (or depth)."""
        from micro960.engine.search import Limits
        clock = self.game.clock
        if clock:
            return clock.limits(self.engine_side, Limits(depth=self.depth))
        return Limits(depth=self.depth) if self.depth else Limits(movetime=self.think_ms)

    # ------------------------------------------------------------ clock

    def _start_clock(self):
        """Put the game on its clock (full time for both); the side to move's runs."""
        if self.control:
            from micro960.rules.clock import Clock
            self.game.clock = Clock(self.control, len(self.game.moves), self.game.pos.side,
                                    self.now)
            self.game.clock.start(self.game.pos.side)

    def _punch(self, plies):
        """The mover of ply `plies` is done (once: the engine is done as it
        lights its move, before the board shows it): the other's clock runs."""
        clock = self.game.clock
        if len(clock.marks) >= plies - clock.first:
            return
        side = self.game.pos.side
        # (the engine's move is still to be carried out: the side to move made it)
        clock.moved(side if plies > len(self.game.moves) else side ^ 24)
        self.say_clock()

    def say_clock(self):
        clock = self.game.clock
        self.out("clock White %s, Black %s" % (clock.left_text(WHITE), clock.left_text(BLACK)))

    def check_flag(self):
        """The side whose clock runs out of time loses (or draws: game.flag)."""
        clock = self.game.clock
        if clock and clock.flag_fell(self.game):
            self.expected = self.board.wanted = 0
            self._announce()
            self._keep()
            self._show()

    # ------------------------------------------------------------ hooks

    def _acceptable(self, move):
        if not self.engine_to_move():
            return None
        if not self.expected:
            return "it is micro960's move: wait for its lights and put the pieces back"
        if move != self.expected:
            pos = self.game.pos
            return "the board shows %s, but micro960 plays %s" % (
                san(pos, move), san(pos, self.expected))
        return None

    def _may_take_back(self):
        if self.engine_side is None:
            return True
        # Only your own move, while the engine's reply is not yet on the board.
        return self.engine_to_move()

    def _moved(self, move, text):
        self.last = text
        self.expected = self.board.wanted = 0
        if move != self.told:
            self.out("move " + text)
        self.told = 0
        game = self.game
        if game.clock:
            self._punch(len(game.moves))
        self.announced = False
        self._announce()
        self._keep()

    def _taken_back(self, move):
        self.last = self.draw_offer = None
        self.expected = self.board.wanted = 0
        self.pondered = self.reply = None
        self.announced = False
        self.out("takeback " + san(self.game.pos, move))
        if self.game.clock:  # (game.undo set it back) the mover's clock runs again
            self.game.clock.start(self.game.pos.side)
        self._keep()

    def _error(self, text):
        self.out("error " + text)

    def _announce(self):
        game = self.game
        if game.result() != UNDECIDED and not self.announced:
            self.announced = True
            if game.clock:
                game.clock.stop()
            self.out("result %s %s" % (game.result(), game.reason()))

    # ------------------------------------------------------------ LEDs

    def _show(self):
        board = self.board
        if self.setting_up:
            leds = self.setting_up.leds()
        elif board.setup:
            leds = ("setup", board.wrong)
        elif board.status == ERROR:
            leds = ("error", board.wrong)
        elif self.expected:
            leds = ("move", move_squares(self.game.pos, self.expected))
        else:
            leds = ("off", 0)
        if leds != self.leds:
            self.leds = leds
            kind, mask = leds
            self.out("leds %s %s" % (kind, squares_text(mask)) if mask else "leds " + kind)
