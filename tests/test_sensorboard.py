"""The sensor board's device loop (firmware/micro960/eboard/sensorboard.py) with the
electrical fakes of tests/firmware/fake_hardware.py: drivers built from each
board file, events carried to the game in order, LED instructions shown,
the engine's turn, queue overflow, the promotion button, and the same loop
on the MicroPython unix port. MODE = "eboard" in main.py starts it.
"""

import pytest

from game_text import san_moves
from fake_hardware import (Button, FakeMachine, FakeNeoPixelModule, Matrix, Mcp23017,
                           Shift165Chain, Shift595Chain, closed_squares)
from host_tools import flash, runtime
from micro960.eboard import sensorboard
from micro960.device.board import Config
from micro960.device.occupancy import to_ranks

START = (1 << 16) - 1 | ((1 << 16) - 1) << 48  # ranks 1, 2, 7, 8
E2, E4, E5, E7 = 12, 28, 36, 52


class ContractGame:
    """The EBoardGame calls the device loop relies on, recorded: lift(),
    place(), snapshot(), promote(), think() and the `leds` instruction.
    A lifted piece lights its square as an error until something is placed;
    think() answers once with an engine move (e7-e5) after a placement."""

    def __init__(self):
        self.calls = []
        self.leds = ("off", 0)
        self.to_move = False

    def lift(self, square):
        self.calls.append(("lift", square))
        self.leds = ("error", 1 << square)

    def place(self, square):
        self.calls.append(("place", square))
        self.leds = ("off", 0)
        self.to_move = True

    def snapshot(self, mask):
        self.calls.append(("snapshot", mask))

    def promote(self, piece):
        self.calls.append(("promote", piece))

    def think(self):
        if self.to_move:
            self.to_move = False
            self.calls.append(("think",))
            self.leds = ("move", (1 << E7) | (1 << E5))


def pico_config(**changes):
    config = flash.board_config("pico")
    config.MODE = "eboard"
    for name in changes:
        setattr(config, name, changes[name])
    return config


def wire_sensors(machine, config, closed):
    """Put the fake circuit of config.SENSOR_DRIVER on `machine`."""
    if config.SENSOR_DRIVER == "matrix":
        return Matrix(machine, config.MATRIX_ROW_PINS, config.MATRIX_COL_PINS, closed)
    if config.SENSOR_DRIVER == "shift165":
        return Shift165Chain(machine, config.SHIFT165_LOAD_PIN, config.SHIFT165_CLOCK_PIN,
                             config.SHIFT165_DATA_PIN, closed)
    for k, address in enumerate(config.MCP23017_ADDRESSES):
        machine.i2c_devices[address] = Mcp23017(closed, 2 * k)
    return None


def sensor_board(config, match=None):
    """A SensorBoard on fakes with a start position on it; match None: the
    real EBoardGame, as on the device."""
    machine = FakeMachine()
    closed = to_ranks(START, bytearray(8))
    wire_sensors(machine, config, closed)
    if getattr(config, "PROMOTION_BUTTON_PIN", None) is not None:
        Button(machine, config.PROMOTION_BUTTON_PIN)
    if getattr(config, "MOVE_NOW_BUTTON_PIN", None) is not None:
        machine.move_now = Button(machine, config.MOVE_NOW_BUTTON_PIN)
    neopixel = FakeNeoPixelModule()
    board = sensorboard.build(config, machine, neopixel, match, out=lambda text: None)
    return board, machine, neopixel, closed, match


@pytest.mark.parametrize("name", ["pico", "pico2", "picow"])
@pytest.mark.parametrize("driver", ["matrix", "shift165", "mcp23017"])
def test_every_board_file_wires_every_sensor_option(name, driver):
    config = flash.board_config(name)
    config.SENSOR_DRIVER = driver
    machine = FakeMachine()
    closed = to_ranks(START, bytearray(8))
    wire_sensors(machine, config, closed)
    sensor = sensorboard.make_sensor(config, machine)
    assert sensor.read() == START
    closed[1] ^= 1 << 4  # e2 lifted
    assert sensor.read() == START ^ (1 << E2)


@pytest.mark.parametrize("name", ["pico", "pico2", "picow"])
def test_every_board_file_wires_both_led_options(name):
    config = flash.board_config(name)
    machine = FakeMachine()
    neopixel = FakeNeoPixelModule()
    leds = sensorboard.make_leds(config, machine, neopixel)
    leds.show("move", 1 << E4)
    assert neopixel.frames[-1][E4] != (0, 0, 0)
    config.LED_DRIVER = "shift595"
    chain = Shift595Chain(machine, config.SHIFT595_DATA_PIN, config.SHIFT595_CLOCK_PIN,
                          config.SHIFT595_LATCH_PIN)
    leds = sensorboard.make_leds(config, machine)
    leds.show("move", (1 << E2) | (1 << E4))
    assert chain.frames == [(1 << E2) | (1 << E4)]


def test_a_board_without_sensors_is_refused_with_a_reason():
    with pytest.raises(ValueError, match="SENSOR_DRIVER"):
        sensorboard.make_sensor(Config(), FakeMachine())
    assert isinstance(sensorboard.make_leds(Config(), FakeMachine()), sensorboard.NoLeds)


def test_the_device_loop_runs_a_set_up_phase():
    """EBOARD_SETUP = True: the loop starts on a board with only the pawns
    (its first reading of the whole board is no error), lights in the set-up
    colour where the piece in hand may go, and takes a whole-board reading
    after a full event queue as the pieces placed and lifted."""
    from micro960.eboard.setup import PAWNS
    machine = FakeMachine()
    config = pico_config(EBOARD_SETUP=True, EBOARD_SP=None)
    closed = to_ranks(PAWNS, bytearray(8))
    wire_sensors(machine, config, closed)
    neopixel = FakeNeoPixelModule()
    said = []
    board = sensorboard.build(config, machine, neopixel, None, out=said.append)
    board.start()
    blue = board.leds.colours["setup"]
    assert [i for i in range(64) if neopixel.frames[-1][i] == blue] == list(range(8)), said
    closed[0] |= 1  # White's bishop on a1
    machine.timers[0].fire(4)
    board.step()
    assert [i for i in range(64) if neopixel.frames[-1][i] == blue] == [56], said
    closed[7] |= 1  # Black's on a8, seen in a whole-board reading
    board.match.snapshot(PAWNS | 1 | 1 << 56)
    board.show()
    assert board.match.setting_up.board_text() == "b7/pppppppp/8/8/8/8/PPPPPPPP/B7", said
    assert not [line for line in said if line.startswith("error")], said


def test_events_reach_the_game_in_order_and_leds_follow():
    board, machine, neopixel, closed, game = sensor_board(pico_config(), ContractGame())
    board.start()
    assert game.calls == [("snapshot", START)]
    timer = machine.timers[0]
    assert timer.period == 10
    closed[1] ^= 1 << 4          # e2 up
    timer.fire(4)                # 40 ms: debounced
    board.step()
    assert game.calls[1:] == [("lift", E2)]
    assert neopixel.frames[-1][E2] == board.leds.colours["error"]
    closed[3] |= 1 << 4          # on e4
    timer.fire(3)
    board.step()
    assert game.calls[2:] == []  # 30 ms is not yet a placement
    timer.fire(1)
    board.step()
    assert game.calls[2:] == [("place", E4), ("think",)]
    frame = neopixel.frames[-1]
    lit = [i for i in range(64) if frame[i] != (0, 0, 0)]
    assert lit == [E5, E7] and frame[E5] == board.leds.colours["move"]
    frames = len(neopixel.frames)
    board.step()
    assert len(neopixel.frames) == frames  # an unchanged instruction is not sent again


def test_a_bouncing_sensor_reaches_the_game_as_nothing():
    board, machine, neopixel, closed, game = sensor_board(pico_config(SENSOR_DRIVER="shift165"),
                                                            ContractGame())
    board.start()
    timer = machine.timers[0]
    for _ in range(20):  # e2's switch chatters; a reading never holds for 40 ms
        closed[1] ^= 1 << 4
        timer.fire(2)
        board.step()
    assert game.calls == [("snapshot", START)]


def test_a_full_queue_resynchronises_from_the_whole_board():
    board, machine, neopixel, closed, game = sensor_board(pico_config(EVENT_QUEUE=8), ContractGame())
    board.start()
    closed[0] = closed[1] = 0  # White's army swept off in one go
    machine.timers[0].fire(4)
    board.step()
    assert board.resyncs == 1
    assert game.calls == [("snapshot", START), ("snapshot", START & ~0xFFFF)]


def test_the_promotion_button_steps_through_the_pieces():
    button_pin = 28
    board, machine, neopixel, closed, game = sensor_board(pico_config(
        PROMOTION_BUTTON_PIN=button_pin), ContractGame())
    board.start()
    button = machine.wiring[button_pin]
    for presses in ([1, 1, 1, 0], [1, 0, 1, 1, 0], [1, 1], [0, 1, 1], [0, 1, 1, 1]):
        for pressed in presses:  # the button's state at each turn of the loop
            button.pressed = pressed
            board.step()
    chosen = [call[1] for call in game.calls if call[0] == "promote"]
    assert chosen == ["n", "r", "b", "q", "n"]  # the one-poll blip did not count


class TypedLines:
    """lines.StdinLines as the loop uses it: poll() gives a line that has
    arrived, or None at once."""

    def __init__(self, *lines):
        self.lines = list(lines)

    def poll(self):
        return self.lines.pop(0) if self.lines else None


def test_the_promotion_piece_can_be_typed_on_the_console():
    said = []
    machine = FakeMachine()
    closed = to_ranks(START, bytearray(8))
    wire_sensors(machine, pico_config(), closed)
    game = ContractGame()
    board = sensorboard.build(pico_config(), machine, FakeNeoPixelModule(), game, said.append,
                              TypedLines("n", "", "Rook\r", "king", "b"))
    board.start()
    for _ in range(6):
        board.step()
    assert [call[1] for call in game.calls if call[0] == "promote"] == ["n", "r", "b"]
    assert said == ["promotion: knight", "promotion: rook",
                    "type q, r, b or n to choose the next promotion; resign, draw (claim or "
                    "offer), new (the next game); play on the board",
                    "promotion: bishop"]


def test_resign_and_new_typed_on_the_console_reach_the_game():
    """The device loop hands the game's commands to it (eboard/commands.py);
    one it refuses is said as an error and the loop goes on."""
    said = []
    machine = FakeMachine()
    config = pico_config(EBOARD_SP=518, EBOARD_THINK_MS=50)
    closed = to_ranks(START, bytearray(8))
    wire_sensors(machine, config, closed)
    board = sensorboard.build(config, machine, FakeNeoPixelModule(), None, said.append,
                              TypedLines("accept", "resign", "new"))
    board.start()
    for _ in range(3):
        board.step()
    assert said[-3:] == ["error no draw offer to accept: micro960 offers none (draw offers "
                         "yours)", "result 0-1 White resigns", "new game: SP 518 (RNBQKBNR)"], said
    assert board.match.game.result() == "*" and not board.match.game.moves


class Moves:
    """The part of a Game the button looks at: its moves (from | to << 6 | flag << 12)."""

    def __init__(self):
        self.moves = []


def test_a_promotion_sets_the_button_back_to_a_queen():
    game = ContractGame()
    game.game = Moves()
    board, machine, neopixel, closed, game = sensor_board(pico_config(PROMOTION_BUTTON_PIN=28),
                                                          game)
    board.start()
    button = machine.wiring[28]

    def press():
        for pressed in (1, 1, 0):
            button.pressed = pressed
            board.step()

    press()
    press()                                        # rook chosen
    game.game.moves.append(12 | 28 << 6)           # a move that does not promote: e2-e4
    board.step()
    press()                                        # bishop
    game.game.moves.append(52 | 60 << 6 | 6 << 12)  # e7-e8=R: the choice is used up
    board.step()
    press()
    chosen = [call[1] for call in game.calls if call[0] == "promote"]
    assert chosen == ["n", "r", "b", "n"]


def test_run_starts_the_timer_and_darkens_the_leds_at_the_end():
    board, machine, neopixel, closed, game = sensor_board(pico_config(), ContractGame())
    board.run(steps=2)
    assert machine.timers[0].callback is None
    assert neopixel.frames[-1] == [(0, 0, 0)] * 64


def play_e2_e4(board, machine, closed):
    """Start the loop, play e2-e4 by hand (the timer's scans see it) and step:
    the move is taken and the engine may answer. Returns the timer."""
    board.start()
    timer = machine.timers[0]
    closed[1] ^= 1 << 4
    timer.fire(4)
    closed[3] |= 1 << 4
    timer.fire(4)
    board.step()
    return timer


def test_the_loop_with_the_real_game():
    config = pico_config(EBOARD_SP=518, EBOARD_LEVEL=0, EBOARD_THINK_MS=100, HASH_KB=4)
    board, machine, neopixel, closed, _ = sensor_board(config)
    match = board.match
    timer = play_e2_e4(board, machine, closed)
    assert san_moves(match.game)[0] == "e4"
    kind, mask = match.leds
    assert kind == "move"
    frame = neopixel.frames[-1]
    lit = [i for i in range(64) if frame[i] != (0, 0, 0)]
    assert len(lit) == 2 and to_ranks(mask, bytearray(8)) == closed_squares(lit)
    start, end = sorted(lit, key=lambda s: not closed[s >> 3] & (1 << (s & 7)))
    closed[start >> 3] ^= 1 << (start & 7)  # carry out the engine's move
    timer.fire(4)
    closed[end >> 3] |= 1 << (end & 7)
    timer.fire(4)
    board.step()
    assert len(san_moves(match.game)) == 2 and match.leds == ("off", 0)
    assert neopixel.frames[-1] == [(0, 0, 0)] * 64


def test_eboard_threads_2_answers_with_both_searches():
    config = pico_config(EBOARD_SP=518, EBOARD_THINK_MS=300, HASH_KB=4, EBOARD_THREADS=2)
    board, machine, neopixel, closed, _ = sensor_board(config)
    search = board.match.search
    play_e2_e4(board, machine, closed)
    assert board.match.leds[0] == "move"
    assert search.helping and search.helping.search.nodes > 0
    assert not search.helping.running.locked(), "no thread outlives the search"


def test_the_move_now_button_makes_the_engine_play_at_once():
    """With MOVE_NOW_BUTTON_PIN wired, a press while the engine thinks makes
    it play what it has: here a minute's think ends in its first nodes."""
    config = pico_config(EBOARD_SP=518, EBOARD_THINK_MS=60000, HASH_KB=4,
                         SHIFT165_LOAD_PIN=None, MOVE_NOW_BUTTON_PIN=18)
    board, machine, neopixel, closed, game = sensor_board(config)
    machine.move_now.pressed = True  # held down as the engine starts to think
    play_e2_e4(board, machine, closed)
    assert board.match.leds[0] == "move"  # its answer, found at once
    assert board.match.search.nodes < 100


def test_board_settings_are_checked():
    for name, value in (("SENSOR_DRIVER", "reed"), ("LED_DRIVER", "oled"),
                        ("SCAN_PERIOD_MS", 0), ("DEBOUNCE_MS", -5), ("EBOARD_LEVEL", 99999),
                        ("EBOARD_LEVEL", 21), ("EBOARD_LEVEL", "1500"), ("EBOARD_LEVEL", None),
                        ("CPU_MHZ", 250), ("CPU_MHZ", 20), ("CPU_MHZ", "200"),
                        ("EBOARD_THREADS", 3), ("EBOARD_THREADS", 0), ("EBOARD_THREADS", "2")):
        class Settings:
            pass
        setattr(Settings, name, value)
        with pytest.raises(ValueError, match=name):
            Config(Settings)
    with pytest.raises(ValueError, match="EBOARD_LEVEL: levels are 0-20 .* or a rating"):
        Config(type("Settings", (), {"EBOARD_LEVEL": 99999}))

    class Rated:
        EBOARD_LEVEL = 1500  # a rating is a level too
    assert Config(Rated).EBOARD_LEVEL == 1500


# The sensor matrix and LEDs of a board, faked, with its settings; both
# scripts below build a sensor board on them and play e2-e4 by hand.
BOARD_SCRIPT = r'''
import sys
sys.path[:0] = [%(firmware)r, %(fakes)r]
from fake_hardware import FakeMachine, FakeNeoPixelModule, Matrix
from micro960.eboard import sensorboard
from micro960.device.board import Config
from micro960.device.occupancy import to_ranks

class Wiring:
    SENSOR_DRIVER = "matrix"
    MATRIX_ROW_PINS = (2, 3, 4, 5, 6, 7, 8, 9)
    MATRIX_COL_PINS = (10, 11, 12, 13, 14, 15, 16, 17)
    LED_DRIVER = "ws2812"
    LED_PIN = 22
    LED_COUNT = 64
    HASH_KB = 16
    EBOARD_SP = 518
    EBOARD_THINK_MS = 300

machine = FakeMachine()
closed = to_ranks(%(start)d, bytearray(8))
Matrix(machine, Wiring.MATRIX_ROW_PINS, Wiring.MATRIX_COL_PINS, closed)
neopixel = FakeNeoPixelModule()
'''
E2_E4 = '''
board.start()
closed[1] ^= 16
machine.timers[0].fire(4)
closed[3] |= 16
machine.timers[0].fire(4)
board.step()
'''

MICROPYTHON_LOOP = BOARD_SCRIPT + r'''
class Game:
    leds = ("off", 0)
    def __init__(self):
        self.calls = []
    def lift(self, sq):
        self.calls.append("lift %%d" %% sq)
    def place(self, sq):
        self.calls.append("place %%d" %% sq)
        self.leds = ("move", 1 << sq)
    def snapshot(self, mask):
        self.calls.append("snapshot %%x" %% mask)
    def promote(self, piece):
        pass
    def think(self):
        pass

game = Game()
board = sensorboard.build(Config(Wiring), machine, neopixel, game)
''' + E2_E4 + r'''
print(" / ".join(game.calls))
print([i for i in range(64) if neopixel.frames[-1][i] != (0, 0, 0)])
'''


def mpy_paths():
    """The firmware and the fakes compiled by mpy-cross, as a board loads them."""
    firmware = runtime.build_firmware()
    runtime.compile_tree(runtime.REPO / "tests" / "firmware", runtime.TESTS_MPY)
    return str(firmware), str(runtime.TESTS_MPY)


def test_the_loop_on_micropython():
    firmware, fakes = mpy_paths()
    code = MICROPYTHON_LOOP % {"firmware": firmware, "fakes": fakes, "start": START}
    result = runtime.run_micropython(code, heap="96K", timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.split("\n")[:2] == ["snapshot %x / lift 12 / place 28" % START, "[28]"]


def test_main_in_eboard_mode_without_sensors_falls_back_to_the_console(tmp_path):
    (tmp_path / "board.py").write_text('NAME = "test"\nMODE = "eboard"\n')
    main = runtime.FIRMWARE / "main.py"
    result = runtime.run_micropython([main], heap="256K", input="quit\n", timeout=120,
                                     env={"MICROPYPATH": "%s:%s" % (tmp_path, runtime.FIRMWARE)})
    output = result.stdout + result.stderr
    assert "no sensor board (board.py: the sensor board needs SENSOR_DRIVER" in output, output
    assert "press Enter to play" in output, output


REAL_GAME_ON_MICROPYTHON = BOARD_SCRIPT + r'''
board = sensorboard.build(Config(Wiring), machine, neopixel, out=lambda text: None)
''' + E2_E4 + r'''
kind, mask = board.match.leds
from game_text import san_moves
lit = [i for i in range(64) if neopixel.frames[-1][i] != (0, 0, 0)]
print(" ".join(san_moves(board.match.game)), kind, len(lit), mask == sum(1 << i for i in lit))
'''


def test_the_device_loop_with_game_and_engine_fits_the_console_heap_on_micropython():
    """The whole of MODE "eboard" (drivers, scanner, inference, engine with a
    16 KB table), from .mpy as on a board, in the console's 224K heap."""
    firmware, fakes = mpy_paths()
    code = REAL_GAME_ON_MICROPYTHON % {"firmware": firmware, "fakes": fakes, "start": START}
    result = runtime.run_micropython(code, heap="224K", timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "e4 move 2 True", result.stdout


DISPLAYED_GAME_ON_MICROPYTHON = BOARD_SCRIPT.replace("from fake_hardware import ",
                                                    "from fake_hardware import FakeSSD1306, ") + r'''
Wiring.DISPLAY_DRIVER = "ssd1306"
Wiring.DISPLAY_I2C = 1
Wiring.DISPLAY_SDA_PIN = 26
Wiring.DISPLAY_SCL_PIN = 27
oled = machine.i2c_devices[0x3C] = FakeSSD1306()
said = []
board = sensorboard.build(Config(Wiring), machine, neopixel, out=said.append)
''' + E2_E4 + r'''
def pawn_on(file, rank):  # any lit pixel on the square, other than its background
    x, y = file * 8, (7 - rank) * 8
    return len(set(oled.pixel(x + i %% 8, y + i // 8) for i in range(64))) == 2
shown = oled.shows
board.typed("eval")
board.step()
print(oled.on, shown, oled.shows, pawn_on(4, 3), pawn_on(4, 1), said[-1])
'''


def test_the_device_loop_draws_the_game_on_its_display_on_micropython():
    """With DISPLAY_DRIVER = "ssd1306", the loop draws the game on the OLED
    (a fake SSD1306 on I2C1) at the start, after the player's move (e4, off
    e2), and again when `eval` asks for the evaluation."""
    firmware, fakes = mpy_paths()
    code = DISPLAYED_GAME_ON_MICROPYTHON % {"firmware": firmware, "fakes": fakes, "start": START}
    result = runtime.run_micropython(code, heap="224K", timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "True 2 3 True False the display shows the evaluation", \
        result.stdout


SET_UP_ON_THE_DISPLAY = BOARD_SCRIPT.replace("from fake_hardware import ",
                                             "from fake_hardware import FakeSSD1306, ") + r'''
Wiring.DISPLAY_DRIVER = "ssd1306"
Wiring.DISPLAY_I2C = 1
Wiring.DISPLAY_SDA_PIN = 26
Wiring.DISPLAY_SCL_PIN = 27
Wiring.EBOARD_SETUP = True
Wiring.EBOARD_SP = None
oled = machine.i2c_devices[0x3C] = FakeSSD1306()
closed[0] = closed[7] = 0  # the pawns alone
board = sensorboard.build(Config(Wiring), machine, neopixel, out=lambda text: None)
def piece_on(file, rank):  # any lit pixel on the square, other than its background
    x, y = file * 8, (7 - rank) * 8
    return len(set(oled.pixel(x + i %% 8, y + i // 8) for i in range(64))) == 2
def back_ranks():
    return "".join("x" if piece_on(f, r) else "." for r in (0, 7) for f in range(8))
board.start()
print(back_ranks(), piece_on(4, 1))
closed[0] |= 1  # White's bishop on a1
machine.timers[0].fire(4)
board.step()
print(back_ranks())
'''


def test_the_display_shows_a_set_up_phase_as_it_stands_on_micropython():
    """During a set-up phase the display draws the pawns and the pieces
    placed so far, not the game's stand-in position, and draws again after
    each piece placed."""
    firmware, fakes = mpy_paths()
    code = SET_UP_ON_THE_DISPLAY % {"firmware": firmware, "fakes": fakes, "start": START}
    # 224K failed 1 run in 3 in a clone 45 characters deeper than usual: the
    # modules' paths (this code imports by absolute path) and stale stack
    # words. The device's own heap is measured by `micro960 bench --pico`.
    result = runtime.run_micropython(code, heap="256K", timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.split() == ["." * 16, "True", "x" + "." * 15], result.stdout
