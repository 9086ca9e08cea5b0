"""Raspberry Pi Pico (RP2040, 264 KB RAM, about 241 KB heap free at boot).

`micro960 flash --board pico` copies this file to the Pico as /board.py;
firmware/main.py reads it at boot. To change the start-up mode or the wiring,
edit it here and flash again (flash writes it over /board.py), or edit
/board.py on the Pico for a quick try. Every name is optional: a missing one
takes the default of firmware/micro960/device/board.py.

GPIO numbers are the GPn labels of the Pico pin-out, not the physical pin
numbers printed on the board.
"""
NAME = "Raspberry Pi Pico"
CHIP = "RP2040"

# What runs at boot: "console" (the text game; a first line of `uci` switches
# to UCI for a chess GUI), "uci" (the UCI engine at once) or "eboard" (the
# sensor board: see docs/sensor-board.md).
MODE = "console"
ECHO = True  # serial terminals do not echo: the console writes back what you type

# The transposition table's size in KB (UCI `setoption name Hash` changes
# it). None: sized from the heap left after the firmware is loaded, keeping
# room for a whole game (firmware/micro960/engine/tt.py; the sizes it gives on
# a Pico are in docs/developing.md, "Measurements"). A number fixes it.
HASH_KB = None

# The CPU's clock in MHz, set at boot: the RP2040 is certified to 200 MHz with
# its core at 1.15 V, which firmware/micro960/device/cpu_clock.py sets first
# (stock MicroPython runs it at 125). None: the firmware's own clock.
CPU_MHZ = 200

# The code mpy-cross emits for viper functions: the Cortex-M0+ is ARMv6-M.
MPY_ARCH = "armv6m"

# ---------------------------------------------------------------- sensor board
# One presence sensor (reed switch or hall sensor) per square. Which driver
# reads them, and its pins; the other drivers' pins below are unused until
# SENSOR_DRIVER names them, and none of them overlap, so switching is one line.
SENSOR_DRIVER = "matrix"

# "matrix": an 8x8 matrix with a diode in series with each switch. Rows are
# driven low one at a time; columns read with pull-ups. Row 0 is rank 1,
# column 0 is file a.
MATRIX_ROW_PINS = (2, 3, 4, 5, 6, 7, 8, 9)        # GP2-GP9
MATRIX_COL_PINS = (10, 11, 12, 13, 14, 15, 16, 17)  # GP10-GP17

# "shift165": eight chained 74HC165 shift registers, one per rank (a1 first).
SHIFT165_LOAD_PIN = 18   # SH/LD, active low
SHIFT165_CLOCK_PIN = 19  # CLK
SHIFT165_DATA_PIN = 20   # QH of the last register in the chain

# "mcp23017": four MCP23017 16-bit I2C expanders, two ranks each, on I2C1.
MCP23017_I2C = 1
MCP23017_SDA_PIN = 26   # GP26 = I2C1 SDA
MCP23017_SCL_PIN = 27   # GP27 = I2C1 SCL
MCP23017_ADDRESSES = (0x20, 0x21, 0x22, 0x23)  # ranks 1-2, 3-4, 5-6, 7-8

# All drivers: True when a sensor reads low for an EMPTY square (normally
# closed reed switches, hall sensors that pull high at a magnet).
SENSOR_INVERT = False

# The sensors are read every SCAN_PERIOD_MS from a timer, also while the engine
# thinks; a square's change counts once it has held for DEBOUNCE_MS.
SCAN_PERIOD_MS = 10
DEBOUNCE_MS = 40

# A push button from GP28 to ground: each press steps the piece a pawn promotes
# to (queen, knight, rook, bishop, ...). None: always a queen unless chosen.
PROMOTION_BUTTON_PIN = 28
# A push button to ground that makes the engine play at once what it has
# found (move now). Every GPIO has a use above; with the matrix sensors,
# GP18 (the 74HC165's SH/LD) is free: MOVE_NOW_BUTTON_PIN = 18. None: none.
MOVE_NOW_BUTTON_PIN = None

# ------------------------------------------------------------------------ LEDs
# A chain of WS2812 (NeoPixel) LEDs, one under each square, a1 first, rank by
# rank; driven by the rp2 PIO through MicroPython's neopixel module.
LED_DRIVER = "ws2812"
LED_PIN = 22     # GP22, data in of the first LED (through a 3.3 V -> 5 V level shifter)
LED_COUNT = 64
LED_BRIGHTNESS = 40      # 0-255; 64 LEDs at full white draw about 4 A
LED_SERPENTINE = False   # True: the chain runs h2..a2 on every second rank
STATUS_LED_PIN = 25  # the Pico's own green LED

# "shift595": one single-colour LED per square on eight chained 74HC595, one
# per rank (rank 1 nearest the Pico), output high = lit. No multiplexing.
SHIFT595_DATA_PIN = 0    # DS (SER) of the rank 1 register
SHIFT595_CLOCK_PIN = 1   # SHCP (SRCLK) of all eight
SHIFT595_LATCH_PIN = 21  # STCP (RCLK) of all eight

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
