"""Square LEDs as a chain of WS2812 ("NeoPixel") RGB LEDs.

One LED under each square, a1 first, rank by rank: a1..h1, a2..h2, ... With
LED_SERPENTINE = True the chain snakes instead (a1..h1, h2..a2, a3..h3, ...),
as a strip laid back and forth is wired. MicroPython's `neopixel` module
drives the data pin (on the Pico through the PIO).

Each LED instruction has its colour, scaled by LED_BRIGHTNESS (0-255; 64
LEDs at full white draw about 4 A):

    move   green   the engine's move to make (from, to; castling: king and rook)
    error  red     squares where the board differs from the game
    setup  blue    squares to fix before the game can start
    place  blue    where the piece in hand may go, in a set-up phase
    off            everything dark
"""
from micro960.device.occupancy import to_ranks

COLOURS = {"off": (0, 0, 0), "move": (0, 255, 0), "error": (255, 0, 0), "setup": (0, 64, 255),
           "place": (0, 64, 255)}


class Ws2812Leds:
    def __init__(self, config, machine=None, neopixel=None):
        if machine is None:
            import machine
        if neopixel is None:
            import neopixel
        pin = getattr(config, "LED_PIN", None)
        if pin is None or config.LED_COUNT < 64:
            raise ValueError("board.py: ws2812 needs LED_PIN and LED_COUNT >= 64")
        self.pixels = neopixel.NeoPixel(machine.Pin(pin, machine.Pin.OUT), config.LED_COUNT)
        level = config.LED_BRIGHTNESS
        self.colours = {}
        for kind in COLOURS:
            red, green, blue = COLOURS[kind]
            self.colours[kind] = (red * level // 255, green * level // 255, blue * level // 255)
        self.dark = self.colours["off"]
        serpentine = config.LED_SERPENTINE
        self.index = bytearray(64)  # square -> LED number in the chain
        for square in range(64):
            rank, file = square >> 3, square & 7
            if serpentine and rank & 1:
                file = 7 - file
            self.index[square] = rank * 8 + file
        self._ranks = bytearray(8)
        self.shown = None

    def show(self, kind, mask):
        """Light the squares of `mask` (bit i = square i) in the colour of
        `kind` ("off", "move", "error", "setup", "place"), all others dark."""
        if kind not in self.colours:
            raise ValueError("unknown LED instruction %r" % (kind,))
        colour = self.colours[kind]
        if kind == "off":
            mask = 0
        ranks = to_ranks(mask, self._ranks)
        pixels = self.pixels
        index = self.index
        for square in range(64):
            lit = ranks[square >> 3] & (1 << (square & 7))
            pixels[index[square]] = colour if lit else self.dark
        pixels.write()
        self.shown = (kind, mask)
