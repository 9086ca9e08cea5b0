"""The electronic chessboard's device loop: what MODE = "eboard" runs.

It builds the drivers the board configuration names (SENSOR_DRIVER,
LED_DRIVER), starts a timer that scans the sensors every SCAN_PERIOD_MS
(see eboard/scanner.py: debounced over DEBOUNCE_MS, queued, never blocked by the
search), and then loops: hand the queued lifts and placements to the match,
show its LED instruction, let the engine think when it is to move.
The match (eboard/game.py's EBoardGame: game after game at this board, with
its engine, clock and LEDs) turns the events into moves; this module only
carries them between the hardware and it. The serial console stays
open: typing q, r, b or n (or the piece's name) chooses the next promotion,
as does the optional PROMOTION_BUTTON_PIN button; the optional
MOVE_NOW_BUTTON_PIN button makes the engine play at once what it has
found. An optional display (DISPLAY_DRIVER, eboard/display.py) shows the game and
its clocks (EBOARD_CLOCK), also while the engine thinks; typing eval adds
the evaluation. With EBOARD_PONDER the engine thinks on the player's time
(eboard/pondering.py). main() keeps the game on flash after every move and
takes it up after a power cut.

    board = build(config)   # config = micro960.device.board.load(); imports machine
    board.run()             # forever; Ctrl-C stops the timer and darkens the LEDs
"""
from micro960.eboard.debounce import scans_for
from micro960.rules.position import PROMOTE_N  # a move's flag (move >> 12) from here up promotes
from micro960.eboard.scanner import PLACED, Scanner

try:
    from time import sleep_ms
except ImportError:  # CPython
    from time import sleep

    def sleep_ms(ms):
        sleep(ms / 1000)

PROMOTION_PIECES = "qnrb"  # the order a button press steps through
PIECE_NAMES = ("queen", "knight", "rook", "bishop")  # of PROMOTION_PIECES, in its order


def make_sensor(config, machine=None):
    """The sensor driver SENSOR_DRIVER names."""
    kind = config.SENSOR_DRIVER
    if kind == "matrix":
        from micro960.device.sensor_matrix import MatrixSensor
        return MatrixSensor(config, machine)
    if kind == "shift165":
        from ..device.sensor_shift165 import Shift165Sensor
        return Shift165Sensor(config, machine)
    if kind == "mcp23017":
        from ..device.sensor_mcp23017 import Mcp23017Sensor
        return Mcp23017Sensor(config, machine)
    raise ValueError("board.py: the sensor board needs SENSOR_DRIVER = "
                     "\"matrix\", \"shift165\" or \"mcp23017\"")


def make_leds(config, machine=None, neopixel=None):
    """The LED driver LED_DRIVER names (NoLeds for None)."""
    kind = config.LED_DRIVER
    if kind == "ws2812":
        from micro960.device.led_ws2812 import Ws2812Leds
        return Ws2812Leds(config, machine, neopixel)
    if kind == "shift595":
        from ..device.led_shift595 import Shift595Leds
        return Shift595Leds(config, machine)
    return NoLeds()


def make_display(config, machine, out=print):
    """The display DISPLAY_DRIVER names, or None (also, with a warning, when
    it does not answer: the game goes on without it)."""
    if config.DISPLAY_DRIVER is None:
        return None
    try:
        from .display import Display  # needs framebuf, which every board's MicroPython has
        from ..device.ssd1306 import SSD1306
        i2c = machine.I2C(config.DISPLAY_I2C, sda=machine.Pin(config.DISPLAY_SDA_PIN),
                          scl=machine.Pin(config.DISPLAY_SCL_PIN), freq=config.DISPLAY_FREQ)
        return Display(SSD1306(i2c, config.DISPLAY_ADDRESS))
    except (OSError, ImportError) as e:
        out("warning: no display at I2C address 0x%02X (%s); playing without it"
            % (config.DISPLAY_ADDRESS, e))
        return None


class NoLeds:
    """A board without LEDs: the instructions go nowhere (the game also
    prints them)."""
    shown = None

    def show(self, kind, mask):
        self.shown = (kind, mask)


class PromotionButton:
    """A push button from a pin (pulled up) to ground. Each press steps the
    piece a pawn promotes to: queen, knight, rook, bishop, queen, ...
    A press counts when the pin reads low on two polls in a row after
    reading high, so contact bounce between polls does not step twice.
    A choice counts for one promotion (as in the game): reset() after it."""

    def __init__(self, pin):
        self.pin = pin
        self.lows = 0
        self.choice = 0

    def poll(self):
        """The newly chosen piece letter after a press, else None."""
        if self.pin():
            self.lows = 0
            return None
        self.lows += 1
        if self.lows != 2:
            return None
        self.choice = (self.choice + 1) % len(PROMOTION_PIECES)
        return PROMOTION_PIECES[self.choice]

    def reset(self):
        self.choice = 0


class SensorBoard:
    """Carries sensor events to `match` (an EBoardGame; match.game is the game
    on the board) and its LED instructions to `leds`."""

    def __init__(self, match, scanner, leds, machine=None, period_ms=10, button=None, out=print,
                 lines=None, display=None):
        self.match = match
        self.display = display  # a display.Display, or None
        self.drawn = None  # what the display shows: (plies, ending, evaluation, second)
        self.second = -1  # the running clock's second on the display while the engine thinks
        self.move_now = None  # a function: True while the move-now button is pressed
        self.evaluation = False  # the display shows the engine's evaluation (typed: eval)
        self.scanner = scanner
        self.leds = leds
        self.machine = machine
        self.period_ms = period_ms
        self.button = button
        self.out = out
        self.lines = lines  # typed lines (lines.StdinLines: poll() never waits), or None
        self.shown = None
        self.resyncs = 0
        self.plies = self._plies()

    def start(self):
        """Read the board as it stands, tell the match, start the timer."""
        self.scanner.prime()
        self.match.snapshot(self.scanner.occupancy())
        self.show()
        if self.machine is not None:
            self.scanner.start(self.machine, self.period_ms)

    def stop(self):
        self.scanner.stop()
        self.leds.show("off", 0)
        self.shown = None

    def feed(self):
        """Give the match every queued event, oldest first; how many. After
        the queue overflowed, the whole board instead (match.snapshot)."""
        count = 0
        if self.scanner.overflowed:
            self.resyncs += 1
            self.match.snapshot(self.scanner.resync())
            count += 1
        while True:
            event = self.scanner.get()
            if event < 0:
                return count
            if event & PLACED:
                self.match.place(event & 63)
            else:
                self.match.lift(event & 63)
            count += 1

    def show(self):
        """Show the match's LED instruction, and the display, if they changed."""
        leds = self.match.leds
        if leds != self.shown:
            kind, mask = leds
            self.leds.show(kind, mask)
            self.shown = leds
        if self.display is not None:
            self.draw()

    def draw(self):
        match = self.match
        score = getattr(match, "score", None)
        if not self.evaluation or score is None:
            score = None
        elif match.engine_side != 8:
            score = -score  # the engine's own view, turned to White's
        # Moves, an ending (resigned, claimed) and the clock's seconds are what
        # change the picture; result() would generate moves at every turn of the loop.
        game = match.game
        clock = game.clock
        # A set-up phase has no game yet: the board shows the pieces placed so far.
        setting_up = getattr(match, "setting_up", None)
        placed = setting_up.expected if setting_up else 0
        drawn = (len(game.moves), game.ended, score, _second(clock), placed)
        if drawn != self.drawn:
            self.drawn = drawn
            try:
                if setting_up:
                    self.display.show(setting_up.view())
                else:
                    self.display.show(game, match.last, clock, score)
            except OSError as e:  # a loose wire: the game goes on, the next change tries again
                self.out("warning: the display did not answer (%s)" % e)

    def step(self):
        """One turn of the loop: events in, LEDs out, the engine's move."""
        if self.button is not None:
            piece = self.button.poll()
            if piece is not None:
                self.choose(piece)
        if self.lines is not None:
            line = self.lines.poll()
            if line is not None:
                self.typed(line)
        self.feed()
        self.show()
        self.match.think()  # searches only when the engine is to move
        self.feed()        # what the player did meanwhile
        self.show()
        if self.button is not None:
            self._after_promotion()
        if self._may_ponder():
            from micro960.eboard.pondering import ponder
            ponder(self)
            self.show()

    def thinking(self):
        """Polled by the search every 16 nodes (match.game.pos is then the search's):
        the display's clocks each second, and the move-now button."""
        clock = self.match.game.clock
        if clock and self.display:
            second = _second(clock)
            if second != self.second:
                self.second = second
                try:
                    self.display.show_clocks(clock, clock.running)
                except OSError:
                    pass  # said when the whole picture fails; the search goes on
        return self.move_now is not None and self.move_now()

    def _may_ponder(self):
        """The match may ponder, and no event waits to be judged first."""
        may = getattr(self.match, "may_ponder", None)
        return may is not None and self.scanner.pending() == 0 and may()

    def choose(self, piece):
        self.match.promote(piece)
        self.out("promotion: %s" % PIECE_NAMES[PROMOTION_PIECES.index(piece)])

    def typed(self, line):
        """A line from the console: a promotion piece, eval, or a hint."""
        word = line.strip().lower()
        for letter, name in zip(PROMOTION_PIECES, PIECE_NAMES):
            if word in (letter, name):
                return self.choose(letter)
        if word in getattr(self.match, "TYPED", ()):
            try:
                self.match.command(word)
            except ValueError as e:
                self.out("error %s" % e)
        elif word == "eval" and self.display is not None:
            self.evaluation = not self.evaluation
            self.out("the display %s the evaluation" % ("shows" if self.evaluation else
                                                        "hides"))
        elif word:
            self.out("type q, r, b or n to choose the next promotion%s; resign, draw (claim "
                     "or offer), new (the next game); play on the board"
                     % (", eval to show the evaluation" if self.display else ""))

    def _plies(self):
        game = getattr(self.match, "game", None)  # the game on the board
        return len(game.moves) if game is not None else 0

    def _after_promotion(self):
        """Back to a queen on the button once a promotion used its choice."""
        plies = self._plies()
        if plies != self.plies:
            self.plies = plies
            if plies and self.match.game.moves[plies - 1] >> 12 >= PROMOTE_N:
                self.button.reset()

    def run(self, steps=None):
        """Loop for `steps` turns (None: until interrupted)."""
        self.start()
        try:
            while steps is None or steps > 0:
                self.step()
                if steps is not None:
                    steps -= 1
                sleep_ms(self.period_ms)
        finally:
            self.stop()


def build(config, machine=None, neopixel=None, match=None, out=print, lines=None, store=None):
    """The SensorBoard of `config`: its drivers, a scanner and a match (an
    EBoardGame unless given) whose game is kept in `store` (a
    storage.GameStore) if given and taken up from it."""
    if machine is None:
        import machine
    sensor = make_sensor(config, machine)
    leds = make_leds(config, machine, neopixel)
    scanner = Scanner(sensor, scans_for(config.DEBOUNCE_MS, config.SCAN_PERIOD_MS),
                      config.EVENT_QUEUE)
    button = None
    button_pin = getattr(config, "PROMOTION_BUTTON_PIN", None)
    if button_pin is not None:
        button = PromotionButton(machine.Pin(button_pin, machine.Pin.IN, machine.Pin.PULL_UP))
    move_now_pin = getattr(config, "MOVE_NOW_BUTTON_PIN", None)
    if match is None:
        from micro960.eboard.game import EBoardGame
        scanner.prime()  # the game starts from the board as it stands: the set-up check
        match = EBoardGame(rules=config.EBOARD_RULES, number=config.EBOARD_SP, engine=True,
                           level=config.EBOARD_LEVEL, hash_kb=config.HASH_KB, out=out,
                           think_ms=config.EBOARD_THINK_MS, occupied=scanner.occupancy(),
                           setup=config.EBOARD_SETUP, clock=config.EBOARD_CLOCK,
                           ponder=config.EBOARD_PONDER, threads=config.EBOARD_THREADS)
        if store is not None:
            match.resume(store, scanner.occupancy())
    board = SensorBoard(match, scanner, leds, machine, config.SCAN_PERIOD_MS, button, out, lines,
                        make_display(config, machine, out))
    search = getattr(match, "search", None)
    if search is not None:
        search.poll = board.thinking
    if move_now_pin is not None:
        # Polled by the search every 16 nodes: pressed (low), it plays what it has.
        pin = machine.Pin(move_now_pin, machine.Pin.IN, machine.Pin.PULL_UP)
        board.move_now = lambda: not pin()
    return board


def _second(clock):
    """The running clock's time left in whole seconds (a small int: no heap),
    or -1 when no clock runs."""
    if not clock or not clock.running:
        return -1
    return clock.remaining(clock.running) // 1000


def main(config, lines=None):
    """Run the sensor board of `config`, reading promotion choices from
    `lines`; False (and why, printed) when the board has none or its
    hardware does not answer, so main.py can fall back to the console."""
    from micro960.device.storage import GameStore, default_folder
    try:
        board = build(config, lines=lines, store=GameStore(default_folder()))
    except (ValueError, OSError, ImportError, AttributeError) as e:
        print("micro960: no sensor board (%s); starting the console." % e)
        return False
    print("micro960 on %s: sensor board ready, scanning every %d ms."
          % (config.NAME, config.SCAN_PERIOD_MS))
    board.run()
    return True
