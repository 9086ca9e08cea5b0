"""The board configuration: what hardware this is and how it is wired.

`micro960 flash` copies boards/NAME/board.py to the device as /board.py, a
file of plain constants (see boards/pico/board.py). load() imports it and
fills in a default for every name it leaves out, so a board file only says
what differs and a missing file means a plain console:

    >>> config = load()
    >>> config.MODE, config.HASH_KB
    ('console', None)

Pin numbers appear only in the board files; the firmware reads them from
here and never imports `machine` for it.
"""

MODES = ("console", "uci", "eboard")

DEFAULTS = {
    "NAME": "unknown board",
    "CHIP": "unknown",
    "MODE": "console",     # what main.py starts: one of MODES
    "HASH_KB": None,       # the table's size in KB; None: sized from the free heap (engine/tt.py)
    "ECHO": False,         # the console echoes typing (a serial terminal does not)
    "MPY_ARCH": None,      # mpy-cross -march; None: the host's own
    "CPU_MHZ": None,       # the CPU's clock set at boot (device/cpu_clock.py); None: the firmware's
    "SENSOR_DRIVER": None,  # "matrix", "shift165", "mcp23017" or None
    "LED_DRIVER": None,    # "ws2812", "shift595" or None
    "LED_COUNT": 0,
    # The sensor board (MODE "eboard"); wiring: docs/sensor-board.md. Pin settings
    # (names ending in _PIN or _PINS) have no defaults: a board without them
    # has no such hardware, and a driver that needs one says so.
    "SCAN_PERIOD_MS": 10,  # the sensors are read this often, from a timer
    "DEBOUNCE_MS": 40,     # a square's change must persist this long to count
    "EVENT_QUEUE": 64,     # sensor events held until the game takes them
    "SENSOR_INVERT": False,  # True: a closed switch / low input means an empty square
    "MCP23017_I2C": 0,
    "MCP23017_FREQ": 400000,
    "MCP23017_ADDRESSES": None,
    "DISPLAY_DRIVER": None,  # "ssd1306" (128x64 OLED on I2C) or None
    "DISPLAY_I2C": 0,
    "DISPLAY_ADDRESS": 0x3C,
    "DISPLAY_FREQ": 400000,
    "LED_BRIGHTNESS": 40,  # ws2812: 0-255
    "LED_SERPENTINE": False,  # ws2812: the chain runs back and forth, rank by rank
    "LED595_ACTIVE_LOW": False,
    "EBOARD_RULES": "chess960",
    "EBOARD_SP": None,     # start position number; None: a random one
    "EBOARD_LEVEL": 20,    # engine strength: 0-20 (20 = full) or a rating (engine/levels.py)
    "EBOARD_THINK_MS": 5000,  # the engine's time per move (without a clock)
    "EBOARD_CLOCK": None,  # a time control for both sides ("15+10", "5", "40/90+30") or None
    "EBOARD_PONDER": True,  # the engine thinks on the player's time (at level 10 and up)
    "EBOARD_THREADS": 1,   # 2: at full strength the engine searches on both cores (engine/smp.py)
    "EBOARD_SETUP": False,  # True: the back-rank pieces are placed in turn first
}

# CPU_MHZ's range: from where USB still runs (48 MHz) to the RP2040's certified
# 200 MHz (device/cpu_clock.py); faster is overclocking, which a board.py
# does not do by a setting.
MIN_MHZ, MAX_MHZ = 48, 200
SENSOR_DRIVERS = (None, "matrix", "shift165", "mcp23017")
LED_DRIVERS = (None, "ws2812", "shift595")
DISPLAY_DRIVERS = (None, "ssd1306")


class Config:
    """The board's settings as attributes: the defaults, then every
    upper-case name of `source` (a module or any object with attributes)."""

    def __init__(self, source=None):
        for name in DEFAULTS:
            setattr(self, name, DEFAULTS[name])
        if source is not None:
            for name in dir(source):
                if name.isupper() and not name.startswith("_"):
                    setattr(self, name, getattr(source, name))
        self.check()

    def check(self):
        """Raise ValueError for a setting the firmware cannot use."""
        if self.MODE not in MODES:
            raise ValueError("board.py: MODE must be one of %s, not %r"
                             % (", ".join(MODES), self.MODE))
        if self.HASH_KB is not None and (not isinstance(self.HASH_KB, int) or self.HASH_KB < 1):
            raise ValueError("board.py: HASH_KB must be None or a whole number of KB >= 1, not %r"
                             % (self.HASH_KB,))
        if self.CPU_MHZ is not None and (not isinstance(self.CPU_MHZ, int)
                                         or not MIN_MHZ <= self.CPU_MHZ <= MAX_MHZ):
            raise ValueError("board.py: CPU_MHZ must be None or %d-%d, not %r"
                             % (MIN_MHZ, MAX_MHZ, self.CPU_MHZ))
        if self.SENSOR_DRIVER not in SENSOR_DRIVERS:
            raise ValueError("board.py: SENSOR_DRIVER must be one of %s or None, not %r"
                             % (", ".join(SENSOR_DRIVERS[1:]), self.SENSOR_DRIVER))
        if self.DISPLAY_DRIVER not in DISPLAY_DRIVERS:
            raise ValueError("board.py: DISPLAY_DRIVER must be \"ssd1306\" or None, not %r"
                             % (self.DISPLAY_DRIVER,))
        if self.LED_DRIVER not in LED_DRIVERS:
            raise ValueError("board.py: LED_DRIVER must be one of %s or None, not %r"
                             % (", ".join(LED_DRIVERS[1:]), self.LED_DRIVER))
        if self.EBOARD_CLOCK is not None:
            from micro960.rules.clock import parse_control
            try:
                parse_control(str(self.EBOARD_CLOCK))
            except ValueError as e:
                raise ValueError("board.py: EBOARD_CLOCK: %s" % e)
        if self.EBOARD_LEVEL != 20:
            from micro960.engine.levels import check
            try:
                check(self.EBOARD_LEVEL if isinstance(self.EBOARD_LEVEL, int) else -1)
            except ValueError as e:
                raise ValueError("board.py: EBOARD_LEVEL: %s, not %r" % (e, self.EBOARD_LEVEL))
        if self.EBOARD_THREADS not in (1, 2):
            raise ValueError("board.py: EBOARD_THREADS must be 1 or 2, not %r"
                             % (self.EBOARD_THREADS,))
        for name in ("SCAN_PERIOD_MS", "DEBOUNCE_MS"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < (1 if name == "SCAN_PERIOD_MS" else 0):
                raise ValueError("board.py: %s must be a whole number of ms, not %r"
                                 % (name, value))


def load(module_name="board"):
    """The Config of the top-level module `module_name` (/board.py on the
    device), or the defaults when there is none."""
    try:
        module = __import__(module_name)
    except ImportError:
        module = None
    return Config(module)
