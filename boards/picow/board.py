"""Raspberry Pi Pico W (RP2040 and the CYW43439 wireless chip).

`micro960 flash --board picow` copies this file to the Pico W as /board.py;
firmware/main.py reads it at boot (flash writes it over /board.py, so make
lasting changes here). Every name is optional: a missing one takes the
default of firmware/micro960/device/board.py.

The wireless chip takes GP23, GP24, GP25 and GP29 (and the on-board LED hangs
off it, as Pin("LED")), so none of those appear below; otherwise the wiring
is that of boards/pico. GPIO numbers are the GPn labels, not physical pins.
"""
NAME = "Raspberry Pi Pico W"
CHIP = "RP2040"

# "console" (a first line of `uci` switches to UCI), "uci" or "eboard".
MODE = "console"
ECHO = True  # serial terminals do not echo: the console writes back what you type

# The transposition table's size in KB (UCI `setoption name Hash` changes
# it). None: sized from the heap left after the firmware is loaded, keeping
# room for a whole game (firmware/micro960/engine/tt.py; on a Pico 45 KB with the
# console, 55 KB with the UCI engine). A number fixes it.
HASH_KB = None

# The CPU's clock (boards/pico runs at 200 MHz): left at the firmware's 125
# here, as the wireless chip's SPI is clocked from the CPU's clock through
# the PIO, and no Pico W has been tried faster.
CPU_MHZ = None

# Cortex-M0+: ARMv6-M.
MPY_ARCH = "armv6m"

# ---------------------------------------------------------------- sensor board
SENSOR_DRIVER = "matrix"

# "matrix": 8x8 with a diode per switch; rows driven low in turn, columns
# read with pull-ups. Row 0 is rank 1, column 0 is file a.
MATRIX_ROW_PINS = (2, 3, 4, 5, 6, 7, 8, 9)        # GP2-GP9
MATRIX_COL_PINS = (10, 11, 12, 13, 14, 15, 16, 17)  # GP10-GP17

# "shift165": eight chained 74HC165, one per rank (a1 first).
SHIFT165_LOAD_PIN = 18   # SH/LD, active low
SHIFT165_CLOCK_PIN = 19  # CLK
SHIFT165_DATA_PIN = 20   # QH of the last register

# "mcp23017": four MCP23017 on I2C1, two ranks each.
MCP23017_I2C = 1
MCP23017_SDA_PIN = 26   # GP26 = I2C1 SDA
MCP23017_SCL_PIN = 27   # GP27 = I2C1 SCL
MCP23017_ADDRESSES = (0x20, 0x21, 0x22, 0x23)

# All drivers: True when a sensor reads low for an EMPTY square.
SENSOR_INVERT = False

# Read every SCAN_PERIOD_MS from a timer; a change counts once it held DEBOUNCE_MS.
SCAN_PERIOD_MS = 10
DEBOUNCE_MS = 40

# A push button from GP28 to ground steps the promotion piece (q, n, r, b).
PROMOTION_BUTTON_PIN = 28
# A push button to ground that makes the engine play at once what it has
# found (move now). Every GPIO has a use above; with the matrix sensors,
# GP18 (the 74HC165's SH/LD) is free: MOVE_NOW_BUTTON_PIN = 18. None: none.
MOVE_NOW_BUTTON_PIN = None

# ------------------------------------------------------------------------ LEDs
LED_DRIVER = "ws2812"
LED_PIN = 22     # GP22, through a 3.3 V -> 5 V level shifter
LED_COUNT = 64
LED_BRIGHTNESS = 40      # 0-255
LED_SERPENTINE = False   # True: the chain runs h2..a2 on every second rank
STATUS_LED_PIN = "LED"  # on the wireless chip: machine.Pin("LED")

# "shift595": a single-colour LED per square on eight chained 74HC595.
SHIFT595_DATA_PIN = 0    # DS of the rank 1 register
SHIFT595_CLOCK_PIN = 1   # SHCP of all eight
SHIFT595_LATCH_PIN = 21  # STCP of all eight

# --------------------------------------------------------------------- display
# An SSD1306 128x64 OLED on I2C (VCC to 3.3 V): the position, the last move,
# whose turn it is and the result, for a board without a PC; type eval on
# the serial console to add the engine's evaluation. It shares I2C1 with
# the MCP23017 expanders (its address is 0x3C, theirs 0x20-0x23). None: no
# display; a display that does not answer is left out with a warning.
DISPLAY_DRIVER = None    # "ssd1306"
DISPLAY_I2C = 1
DISPLAY_SDA_PIN = 26     # GP26 = I2C1 SDA, as MCP23017_SDA_PIN
DISPLAY_SCL_PIN = 27     # GP27 = I2C1 SCL, as MCP23017_SCL_PIN
DISPLAY_ADDRESS = 0x3C
