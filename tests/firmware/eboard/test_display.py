"""The sensor board's display: display.py draws the game with framebuf and
ssd1306.py sends it over I2C, here to a fake SSD1306 (fake_hardware.py)
whose memory is then read pixel by pixel. MicroPython only: CPython has no
framebuf. tests/test_display_pictures.py turns the same pictures into PNGs.
"""
from fake_hardware import FakeMachine, FakeSSD1306
from micro960.device.board import Config
from micro960.rules.game import Game

try:
    from micro960.eboard.display import TEXT_X, Display
    from micro960.device.ssd1306 import SSD1306
except ImportError:
    TEXT_X = Display = SSD1306 = None

try:
    from unittest import SkipTest  # pytest skips on it too
except ImportError:  # MicroPython: mprun skips on a class of this name
    class SkipTest(Exception):
        pass


def oled():
    """A Display on a fake SSD1306 at 0x3C, and the device."""
    if Display is None:
        raise SkipTest("no framebuf: CPython")
    machine = FakeMachine()
    device = machine.i2c_devices[0x3C] = FakeSSD1306()
    return Display(SSD1306(machine.I2C(1), 0x3C)), device


def square_pixels(device, name):
    """The 64 pixels of a square (a1 bottom left), row by row from the top."""
    file, rank = "abcdefgh".index(name[0]), int(name[1]) - 1
    x, y = file * 8, (7 - rank) * 8
    return [device.pixel(x + col, y + row) for row in range(8) for col in range(8)]


def lit(device, x0, y0, x1, y1):
    return sum(device.pixel(x, y) for x in range(x0, x1) for y in range(y0, y1))


def test_the_driver_switches_the_display_on_and_fills_its_memory():
    display, device = oled()
    assert device.on and 0x8D in device.commands  # charge pump, then on
    game = Game("chess960", number=518)
    display.show(game)
    assert device.shows == 1 and device.memory == display.buffer


def test_the_board_squares_and_pieces():
    display, device = oled()
    game = Game("chess960", number=518)
    display.show(game)
    assert square_pixels(device, "a3") == [1] * 64  # a dark square, empty
    assert square_pixels(device, "b3") == [0] * 64  # a light one
    white_pawn, black_pawn = square_pixels(device, "e2"), square_pixels(device, "e7")
    # A white piece is lit inside with a dark rim; a black piece the other
    # way round: on squares of the same colour, the two are each other's negative.
    assert square_pixels(device, "d2") != white_pawn  # d2 is dark, e2 light
    assert black_pawn == [1 - p for p in square_pixels(device, "d7")] or black_pawn != white_pawn
    assert square_pixels(device, "e1") != square_pixels(device, "d1")  # king and queen
    for name in ("b1", "c1", "a1"):
        assert 0 < sum(square_pixels(device, name)) < 64


def test_moves_turns_check_and_the_end_of_the_game():
    display, device = oled()
    game = Game("chess960", number=518)
    display.show(game)
    assert lit(device, TEXT_X - 2, 0, 128, 10) > 200 > lit(device, TEXT_X - 2, 10, 128, 20)
    assert lit(device, TEXT_X, 24, 128, 64) == 0  # no move yet, nothing to say
    e2 = square_pixels(device, "e2")
    game.play("e4")
    display.show(game, "e4")
    assert square_pixels(device, "e2") == [0] * 64 and square_pixels(device, "e4") == e2
    assert lit(device, TEXT_X - 2, 10, 128, 20) > 200 > lit(device, TEXT_X - 2, 0, 128, 10)
    assert lit(device, TEXT_X, 24, 128, 42) > 0  # 1. e4
    assert lit(device, TEXT_X, 46, 128, 54) == 0
    for move in ("f5", "Qh5+"):
        game.play(move)
    display.show(game, "Qh5+")
    check = [device.pixel(x, y) for x in range(TEXT_X, 128) for y in range(46, 54)]
    assert sum(check) > 0  # Check
    game = Game("chess960", number=518)
    for move in ("f3", "e5", "g4", "Qh4#"):
        game.play(move)
    display.show(game, "Qh4#", evaluation=-30000)
    mate = [device.pixel(x, y) for x in range(TEXT_X, 128) for y in range(46, 54)]
    assert sum(mate) > 0 and mate != check  # Mate
    # The game is over: no one to move, neither name highlighted.
    assert lit(device, TEXT_X - 2, 0, 128, 10) < 200 and lit(device, TEXT_X - 2, 10, 128, 20) < 200
    assert lit(device, TEXT_X, 56, 128, 64) > 0  # the evaluation asked for


def test_a_display_that_does_not_answer_is_left_out():
    if Display is None:
        raise SkipTest("no framebuf: CPython")
    from micro960.eboard.sensorboard import make_display

    class Settings:
        DISPLAY_DRIVER = "ssd1306"
        DISPLAY_I2C = 1
        DISPLAY_SDA_PIN = 26
        DISPLAY_SCL_PIN = 27
    said = []
    machine = FakeMachine()
    assert make_display(Config(Settings), machine, said.append) is None
    assert said[-1].startswith("warning: no display at I2C address 0x3C")
    machine.i2c_devices[0x3C] = FakeSSD1306()
    assert make_display(Config(Settings), machine, said.append) is not None


def text_rows(device, y0, y1):
    return bytes(device.pixel(x, y) for x in range(TEXT_X, 128) for y in range(y0, y1))


def board_pixels(device):
    return bytes(device.pixel(x, y) for x in range(64) for y in range(64))


def test_both_clocks_and_their_update_while_the_engine_thinks():
    from micro960.device.clock import Clock
    from support import Time
    display, device = oled()
    game = Game("chess960", number=518)
    display.show(game)
    names = text_rows(device, 0, 20)
    time = Time()
    clock = Clock("15+10", now=time)
    clock.start(8)
    display.show(game, None, clock)
    white, black = text_rows(device, 0, 10), text_rows(device, 10, 20)
    assert white + black != names  # W 15:00, B 15:00 instead of White, Black
    board = board_pixels(device)
    time.wait(3)  # White's clock goes from 15:00 to 14:57
    shows = device.shows
    display.show_clocks(clock, 8)
    assert device.shows == shows + 1 and text_rows(device, 0, 10) != white
    assert text_rows(device, 10, 20) == black
    assert board_pixels(device) == board  # untouched
    clock.stop()
    clock.left[1] = 5400000  # an hour and a half: shown as 1h30
    display.show_clocks(clock, 16)
    assert lit(device, TEXT_X - 2, 10, 128, 20) > 200 > lit(device, TEXT_X - 2, 0, 128, 10)
    assert text_rows(device, 10, 20) != black
