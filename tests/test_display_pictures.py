"""The sensor board's display as a person sees it: the firmware draws four
states of a game on the MicroPython unix port (the second on a clock), through ssd1306.py to the
fake SSD1306 of tests/firmware/fake_hardware.py, and each picture is saved
as a PNG (white on black, scaled up 4x, as the OLED shows it).

    MICRO960_DISPLAY_PNG=docs .venv/bin/python -m pytest tests/test_display_pictures.py

writes them into docs/ (display-start.png, display-move.png, ...), where the
README shows two.
"""
import os
import struct
import zlib
from pathlib import Path

from host_tools import runtime

REPO = Path(__file__).resolve().parent.parent
STATES = ("start", "move", "check", "mate")
# Draws each state and prints the fake display's memory in hex, one line a state.
SCRIPT = r'''
import sys
sys.path[:0] = [%(firmware)r, %(fakes)r]
from fake_hardware import FakeMachine, FakeSSD1306
from micro960.eboard.display import Display
from micro960.rules.clock import Clock
from micro960.rules.game import Game
from micro960.device.ssd1306 import SSD1306
import binascii
machine = FakeMachine()
device = machine.i2c_devices[0x3C] = FakeSSD1306()
display = Display(SSD1306(machine.I2C(1), 0x3C))
game = Game("chess960", number=518)
def show(state, last=None, evaluation=None, clock=None):
    display.show(game, last, clock, evaluation)
    print(state, binascii.hexlify(device.memory).decode())
show("start")
for move in ("e4", "e5", "Nf3"):
    game.play(move)
clock = Clock("15+10", now=lambda: 0)  # a game on a clock, stopped for the picture
clock.left = [893000, 871000]
show("move", "Nf3", None, clock)
for move in ("Nc6", "Bc4", "Nd4", "Nxe5", "Qg5", "Bxf7+"):
    game.play(move)
show("check", "Bxf7+", 140)
game = Game("chess960", number=518)
for move in ("f3", "e5", "g4", "Qh4#"):
    game.play(move)
show("mate", "Qh4#", -30000)
'''


def png(pixels, width, height, scale=4):
    """A greyscale PNG of rows of 0/1 pixels, each pixel scale x scale."""
    rows = b""
    for y in range(height * scale):
        row = pixels[y // scale]
        rows += b"\0" + bytes(255 if row[x // scale] else 0 for x in range(width * scale))

    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data +
                struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    header = struct.pack(">IIBBBBB", width * scale, height * scale, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) +
            chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


def pictures():
    """{state: rows of pixels} as the firmware drew them."""
    script = SCRIPT % {"firmware": str(REPO / "firmware"), "fakes": str(REPO / "tests" / "firmware")}
    result = runtime.run_micropython(script, heap="256K", timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    found = {}
    words = result.stdout.split()
    for state, memory in zip(words[::2], words[1::2]):
        memory = bytes.fromhex(memory)
        found[state] = [[memory[(y >> 3) * 128 + x] >> (y & 7) & 1 for x in range(128)]
                        for y in range(64)]
    return found


def test_the_display_pictures(tmp_path):
    shown = pictures()
    assert list(shown) == list(STATES)
    folder = Path(os.environ.get("MICRO960_DISPLAY_PNG") or tmp_path)
    for state, rows in shown.items():
        (folder / ("display-%s.png" % state)).write_bytes(png(rows, 128, 64))
    # Each state differs from the one before it, on the board and in the text.
    for before, after in zip(STATES, STATES[1:]):
        board = [row[:64] for row in shown[after]] != [row[:64] for row in shown[before]]
        text = [row[64:] for row in shown[after]] != [row[64:] for row in shown[before]]
        assert board and text, (before, after)
    # A PNG that a viewer reads: signature, size, and the pixels back out.
    data = (folder / "display-start.png").read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", data[16:24]) == (512, 256)
