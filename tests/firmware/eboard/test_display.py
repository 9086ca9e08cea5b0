"""The sensor board's display: display.py draws the game with framebuf and
ssd1306.py sends it over I2C, here to a fake SSD1306 (fake_hardware.py)
whose memory is then read pixel by pixel. MicroPython only: CPython has no
framebuf. tests/test_display_pictures.py turns the same pictures into PNGs.
"""
from fake_hardware import FakeMachine, FakeSSD1306
from micro960.device.board import Config
from micro960.rules.game import Game

from micro960.eboard.display import TEXT_X, ending

try:
    import framebuf
    from micro960.eboard.display import Display
    from micro960.device.ssd1306 import SSD1306
except ImportError:
    framebuf = Display = SSD1306 = None

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
    # The game is over: no one to move, neither name highlighted; the last
    # move, who won and why instead of its number and the evaluation.
    assert lit(device, TEXT_X - 2, 0, 128, 10) < 200 and lit(device, TEXT_X - 2, 10, 128, 20) < 200
    assert text_rows(device, 24, 64) == drawn_text(((24, "Qh4#"), (34, "Black"), (46, "wins"),
                                                     (56, "by mate")))


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


def drawn_text(lines, y0=24, y1=64):
    """text_rows() of a display showing only `lines` ((y, text), ...) in its text column."""
    buffer = bytearray(128 * 64 // 8)
    frame = framebuf.FrameBuffer(buffer, 128, 64, framebuf.MONO_VLSB)
    for y, text in lines:
        frame.text(text, TEXT_X, y, 1)
    return bytes(buffer[(y >> 3) * 128 + x] >> (y & 7) & 1
                 for x in range(TEXT_X, 128) for y in range(y0, y1))


def played(moves, fen=None, rules="chess960"):
    game = Game(rules, fen, None if fen else 518)
    for move in moves.split():
        game.play(move)
    return game


KNIGHTS = "Nf3 Nf6 Ng1 Ng8 " * 4  # the start position five times
LONE_ROOK = "4k3/8/8/8/8/8/8/R3K3 w - - %d 90"
# Each way a game ends: how to get there, and what the display says of it.
ENDINGS = (
    (lambda: played("e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#"), ("White", "wins", "by mate")),
    (lambda: played("f3 e5 g4 Qh4#"), ("Black", "wins", "by mate")),
    (lambda: played("", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), ("Draw", "stale-", "mate")),
    (lambda: played("", "8/8/8/4k3/8/8/8/4K3 w - - 0 1"), ("Draw", "insuff.", "mat'l")),
    (lambda: played("", LONE_ROOK % 150), ("Draw", "75-move", "rule")),
    (lambda: played(KNIGHTS), ("Draw", "5-fold", "repet.")),
    (lambda: ended(played(KNIGHTS[:32]), "claim_draw"), ("Draw", "3-fold", "claimed")),
    (lambda: ended(played("", LONE_ROOK % 100), "claim_draw"), ("Draw", "50-move", "claimed")),
    (lambda: ended(played("e4"), "resign"), ("White", "wins", "resign.")),  # Black resigns
    (lambda: ended(played("e4"), "agree_draw"), ("Draw", "agreed", "")),
    (lambda: ended(played("e4"), "flag", 16), ("White", "wins", "on time")),  # Black's flag
    # White's flag, but Black has a lone king: it cannot mate.
    (lambda: ended(played("", "8/8/8/4k3/8/8/8/Q3K3 b - - 0 1"), "flag", 8),
     ("Draw", "time up", "no mate")),
    (lambda: played("e4 f5 Qh5 a6 Qxe8", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
                    "lrs"), ("White", "wins", "K taken")),
)


def ended(game, how, *args):
    getattr(game, how)(*args)
    return game


def test_the_end_of_a_game_says_who_won_and_why():
    """Every way a game ends, in the 7 characters a line of the display's
    text column has: "White wins by mate", not the result's "0-1" or a
    mate score of "#-0"."""
    for make, lines in ENDINGS:
        game = make()
        assert ending(game) == lines, (game.reason(), ending(game), lines)
        assert all(len(line) <= 7 for line in lines), lines
    game = Game("chess960", number=518)
    assert ending(game) is None
    game.play("e4")
    assert ending(game) is None


def test_the_end_of_a_game_as_the_display_draws_it():
    display, device = oled()
    for make, lines in ENDINGS:
        game = make()
        display.show(game, "Qxf7#", evaluation=30000)
        last = ((24, "Qxf7#"),) if game.moves else ()
        assert text_rows(device, 24, 64) == drawn_text(last + tuple(zip((34, 46, 56), lines))), \
            lines


def board_pixels(device):
    return bytes(device.pixel(x, y) for x in range(64) for y in range(64))


def test_both_clocks_and_their_update_while_the_engine_thinks():
    from micro960.rules.clock import Clock
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
