"""Presence sensors as an 8x8 switch matrix on 16 GPIO pins (with diodes).

Each square's reed switch sits, in series with a diode, between its rank's
row line and its file's column line. A scan drives one row low at a time
(the other seven high) and reads the eight columns, which have pull-ups: a
column reads low exactly when the switch at that row and column is closed,
because current flows from the pulled-up column through the closed switch and
the diode into the low row. The diodes stop it from flowing backwards
through a second closed switch into a high row, which without them makes
three pieces in a rectangle show a phantom fourth.

A column must be back high before the next row is read, a few microseconds
later: the Pico's own pull-ups (about 50 kOhm) manage that on short wires;
long ones want a 10 kOhm pull-up per column.

Row 0 is rank 1 (MATRIX_ROW_PINS), column 0 is file a (MATRIX_COL_PINS). A
closed switch means a piece is there; SENSOR_INVERT = True swaps that for
normally-closed switches.

    sensor = MatrixSensor(board.load())   # imports machine
    ranks = bytearray(8)
    sensor.read_into(ranks)               # rank bytes, no allocation
    sensor.read()                         # the occupancy int, bit i = square i
"""
from micro960.device.occupancy import to_mask


class MatrixSensor:
    def __init__(self, config, machine=None):
        if machine is None:
            import machine
        rows = getattr(config, "MATRIX_ROW_PINS", None)
        cols = getattr(config, "MATRIX_COL_PINS", None)
        if not rows or not cols or len(rows) != 8 or len(cols) != 8:
            raise ValueError("board.py: MATRIX_ROW_PINS and MATRIX_COL_PINS need 8 pins each")
        Pin = machine.Pin
        # Pin objects are callable: pin() reads, pin(v) drives; the quickest call there is.
        self.rows = tuple(Pin(p, Pin.OUT, value=1) for p in rows)
        self.cols = tuple(Pin(p, Pin.IN, Pin.PULL_UP) for p in cols)
        self.empty_level = 0 if config.SENSOR_INVERT else 0xFF  # the eight columns with no piece
        self._ranks = bytearray(8)

    def read_into(self, ranks):
        """Fill the 8 rank bytes `ranks` (bit f = file f) from one scan."""
        cols = self.cols
        empty = self.empty_level
        rank = 0
        for row in self.rows:
            row(0)
            level = 0
            bit = 1
            for col in cols:
                if col():
                    level |= bit
                bit <<= 1
            row(1)
            ranks[rank] = level ^ empty
            rank += 1

    def read(self):
        """The raw occupancy: an int with bit i set when square i holds a piece."""
        self.read_into(self._ranks)
        return to_mask(self._ranks)
