"""A PC: the MicroPython unix port (or CPython). No pins.

Used by `micro960 flash --board host --dry-run DIR`, which builds the device
bundle for this machine's own MicroPython, so the bundle's main.py and
self-test can be run on the unix port exactly as a Pico would run them.
"""
NAME = "host"
CHIP = "host"

MODE = "console"  # a first line of `uci` switches to UCI
HASH_KB = 16

# None: compile for this machine (x64 on a usual PC; see host_tools/runtime.py).
MPY_ARCH = None

SENSOR_DRIVER = None
LED_DRIVER = None
LED_COUNT = 0
