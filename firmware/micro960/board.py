"""The board configuration: what hardware this is and how it is wired.

`micro960 flash` copies boards/NAME/board.py to the device as /board.py, a
file of plain constants (see boards/pico/board.py). load() imports it and
fills in a default for every name it leaves out, so a board file only says
what differs and a missing file means a plain console:

    >>> config = load()
    >>> config.MODE, config.HASH_KB
    ('console', 16)

Pin numbers appear only in the board files; the firmware reads them from
here and never imports `machine` for it.
"""

MODES = ("console", "uci", "eboard")

DEFAULTS = {
    "NAME": "unknown board",
    "CHIP": "unknown",
    "MODE": "console",     # what main.py starts: one of MODES
    "HASH_KB": 16,         # the transposition table's default size in KB
    "MPY_ARCH": None,      # mpy-cross -march; None: the host's own
    "SENSOR_DRIVER": None,  # "matrix", "shift165", "mcp23017" or None
    "LED_DRIVER": None,    # "ws2812" or None
    "LED_COUNT": 0,
}


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
        if not isinstance(self.HASH_KB, int) or self.HASH_KB < 1:
            raise ValueError("board.py: HASH_KB must be a whole number of KB >= 1, not %r"
                             % (self.HASH_KB,))


def load(module_name="board"):
    """The Config of the top-level module `module_name` (/board.py on the
    device), or the defaults when there is none."""
    try:
        module = __import__(module_name)
    except ImportError:
        module = None
    return Config(module)
