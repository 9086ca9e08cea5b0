"""Square LEDs through a chain of eight 74HC595 shift registers.

One bit per LED, no multiplexing: each register drives the eight LEDs of one
rank straight from its outputs (QA = file a ... QH = file h, output high =
lit, through a resistor of 1 kOhm or so per LED). The LEDs stay lit with no
refresh at all, so nothing flickers while the engine searches and no timer
is needed. Single-colour LEDs cannot tell the instructions apart by colour;
an error differs from a move by where it lights.

Chain: the Pico's data pin goes to DS (SER) of the rank 1 register; QH' of
each register goes to DS of the next rank's register. SHCP (SRCLK) and STCP
(RCLK, the latch) of all eight are joined to the clock and latch pins.
/MR goes to 3.3 V, /OE to ground.

A frame shifts 64 bits on rising clock edges, h8 first and a1 last (the last
bit shifted sits in the rank 1 register's QA), then a rising edge on the
latch moves all 64 to the outputs at once. LED595_ACTIVE_LOW = True is for
LEDs wired from 3.3 V into the outputs (lit when low).
"""
from micro960.device.occupancy import to_ranks


class Shift595Leds:
    def __init__(self, config, machine=None):
        if machine is None:
            import machine
        pins = tuple(getattr(config, "SHIFT595_%s_PIN" % name, None)
                     for name in ("DATA", "CLOCK", "LATCH"))
        if None in pins:
            raise ValueError("board.py: shift595 needs SHIFT595_DATA_PIN, _CLOCK_PIN and _LATCH_PIN")
        Pin = machine.Pin
        self.data = Pin(pins[0], Pin.OUT, value=0)
        self.clock = Pin(pins[1], Pin.OUT, value=0)
        self.latch = Pin(pins[2], Pin.OUT, value=0)
        self.flip = 0xFF if config.LED595_ACTIVE_LOW else 0
        self._ranks = bytearray(8)
        self.shown = None

    def show(self, kind, mask):
        """Light the squares of `mask` (bit i = square i); kind "off" darkens
        all. "move", "error", "setup" and "place" look the same on one-colour LEDs."""
        if kind not in ("off", "move", "error", "setup", "place"):
            raise ValueError("unknown LED instruction %r" % (kind,))
        if kind == "off":
            mask = 0
        ranks = to_ranks(mask, self._ranks)
        data = self.data
        clock = self.clock
        flip = self.flip
        for rank in range(7, -1, -1):
            level = ranks[rank] ^ flip
            bit = 0x80
            while bit:
                data(1 if level & bit else 0)
                clock(1)
                clock(0)
                bit >>= 1
        self.latch(1)
        self.latch(0)
        self.shown = (kind, mask)
