"""Presence sensors through a chain of eight 74HC165 shift registers.

One 74HC165 per rank reads that rank's eight sensors on its parallel inputs
A-H (A = file a ... H = file h), each input pulled up, a sensor pulling it
low when a piece is there (a reed switch to ground, or an open-collector hall
sensor such as the A3144). The registers are chained: the rank 1 register's
QH output goes to the Pico's data pin, its serial input DS takes QH of the
rank 2 register, and so on up to rank 8, whose DS is tied to ground.

A scan pulses SH/LD low, which copies all 64 inputs into the registers at
once, then reads QH and gives CLK a rising edge 64 times. Each edge moves the
chain one place towards the Pico, so the bits arrive h1, g1, ... a1, h2, ...
a8. CLK INH is tied to ground.

SENSOR_INVERT = True is for sensors that pull high with a piece present.
"""
from micro960.device.occupancy import to_mask


class Shift165Sensor:
    def __init__(self, config, machine=None):
        if machine is None:
            import machine
        pins = tuple(getattr(config, "SHIFT165_%s_PIN" % name, None)
                     for name in ("LOAD", "CLOCK", "DATA"))
        if None in pins:
            raise ValueError("board.py: shift165 needs SHIFT165_LOAD_PIN, _CLOCK_PIN and _DATA_PIN")
        Pin = machine.Pin
        self.load = Pin(pins[0], Pin.OUT, value=1)   # SH/LD idles high: shifting
        self.clock = Pin(pins[1], Pin.OUT, value=0)  # CLK idles low; the rising edge shifts
        self.data = Pin(pins[2], Pin.IN)             # QH is driven by the register
        self.empty_level = 0 if config.SENSOR_INVERT else 0xFF
        self._ranks = bytearray(8)

    def read_into(self, ranks):
        """Fill the 8 rank bytes `ranks` (bit f = file f) from one scan."""
        load = self.load
        clock = self.clock
        data = self.data
        empty = self.empty_level
        load(0)  # parallel load while low
        load(1)
        for rank in range(8):
            level = 0
            for _ in range(8):  # h first: it ends up in bit 7
                level = (level << 1) | data()
                clock(1)
                clock(0)
            ranks[rank] = level ^ empty

    def read(self):
        """The raw occupancy: an int with bit i set when square i holds a piece."""
        self.read_into(self._ranks)
        return to_mask(self._ranks)
