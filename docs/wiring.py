"""Draw the sensor board's wiring diagrams (docs/wiring-*.svg) from a board file.

    .venv/bin/python docs/wiring.py            # writes docs/wiring-*.svg
    .venv/bin/python docs/wiring.py --out DIR  # somewhere else

Every pin number in the pictures is read from boards/pico/board.py (through
the firmware's own loader, defaults included), so a picture cannot show a
pin the firmware does not use; tests/test_docs.py draws them again and
checks that the committed files are these. The Pico 2 and the Pico W have
the same pin-out and the same pins (the test checks that too).
"""
import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DRAWINGS = ("matrix", "shift165", "mcp23017", "ws2812", "shift595", "display")

# ------------------------------------------------------------ drawing words


class Picture:
    """An SVG drawing made of boxes, wires and labels."""

    def __init__(self, width, height, title):
        self.width = width
        self.height = height
        self.items = ['<rect width="%d" height="%d" fill="white"/>' % (width, height),
                      '<text x="12" y="24" font-size="16" font-weight="bold">%s</text>'
                      % escape(title)]

    def box(self, x, y, w, h, name, fill="#eef3fb"):
        self.items.append('<rect x="%d" y="%d" width="%d" height="%d" rx="4" fill="%s" '
                          'stroke="black"/>' % (x, y, w, h, fill))
        self.text(x + w / 2, y + 16, name, anchor="middle", weight="bold")

    def text(self, x, y, words, anchor="start", size=12, weight="normal", colour="black"):
        self.items.append('<text x="%g" y="%g" font-size="%d" text-anchor="%s" '
                          'font-weight="%s" fill="%s">%s</text>'
                          % (x, y, size, anchor, weight, colour, escape(words)))

    def wire(self, points, colour="black", dashed=False):
        path = " ".join("%g,%g" % point for point in points)
        self.items.append('<polyline points="%s" fill="none" stroke="%s" stroke-width="1.5"%s/>'
                          % (path, colour, ' stroke-dasharray="5,3"' if dashed else ""))

    def dot(self, x, y, colour="black"):
        self.items.append('<circle cx="%g" cy="%g" r="2.5" fill="%s"/>' % (x, y, colour))

    def svg(self):
        return ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
                'viewBox="0 0 %d %d" font-family="sans-serif">\n%s\n</svg>\n'
                % (self.width, self.height, self.width, self.height, "\n".join(self.items)))


def escape(words):
    return str(words).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def pico_pins(picture, x, y, pins, title="Pico"):
    """A Pico box with one labelled pin a row on its right edge; the pins'
    (x, y) in order. `pins` are (GPIO number or power name, what it does)."""
    height = 30 + 22 * len(pins)
    picture.box(x, y, 150, height, title, fill="#e6f4e6")
    ends = []
    for i, (pin, use) in enumerate(pins):
        py = y + 38 + 22 * i
        name = "GP%d" % pin if isinstance(pin, int) else pin
        picture.text(x + 144, py + 4, name, anchor="end", weight="bold")
        picture.text(x + 8, py + 4, use, size=10, colour="#444")
        ends.append((x + 150, py))
    return ends


def chip(picture, x, y, name, left, right, width=170):
    """A chip with numbered pins: left and right are lists of (pin number,
    label); returns {label: (x, y)} of the pin ends."""
    rows = max(len(left), len(right))
    picture.box(x, y, width, 28 + 18 * rows, name)
    ends = {}
    for i, (number, label) in enumerate(left):
        py = y + 36 + 18 * i
        picture.text(x + 6, py + 4, "%s %s" % (number, label), size=11)
        ends[label] = (x, py)
    for i, (number, label) in enumerate(right):
        py = y + 36 + 18 * i
        picture.text(x + width - 6, py + 4, "%s %s" % (label, number), anchor="end", size=11)
        ends[label] = (x + width, py)
    return ends


def notes(picture, x, y, lines):
    for i, line in enumerate(lines):
        picture.text(x, y + 16 * i, line, size=12)


# ------------------------------------------------------------ the drawings

def files(n):
    return "abcdefgh"[n]


def draw_matrix(config):
    rows, cols = config.MATRIX_ROW_PINS, config.MATRIX_COL_PINS
    picture = Picture(800, 540, 'SENSOR_DRIVER = "matrix": 64 reed switches, each with a '
                                'diode, on 16 GPIO pins')
    ends = pico_pins(picture, 20, 50, [(pin, "row, rank %d" % (i + 1))
                                       for i, pin in enumerate(rows)] +
                     [(pin, "column, file %s" % files(i)) for i, pin in enumerate(cols)])
    left, step = 260, 44
    right = left + 7 * step + 30
    for i, (x, y) in enumerate(ends[:8]):  # a row line straight across: one rank
        picture.wire([(x, y), (right, y)])
        picture.text(right + 6, y + 4, "rank %d" % (i + 1), size=11)
    top = ends[0][1] - 14
    for i, (x, y) in enumerate(ends[8:]):  # a column: along, then up through the ranks
        cx = left + step * i
        picture.wire([(x, y), (cx, y), (cx, top)], colour="#1f5fbf")
        picture.text(cx, top - 4, files(i), anchor="middle", size=12, colour="#1f5fbf")
        for rank in range(8):
            picture.dot(cx, ends[rank][1])
    notes(picture, 20, 450, [
        "each dot:  column --[reed switch]--|>|-- row   (the diode's cathode to the row: "
        "1N4148, or a Schottky such as BAT85)",
        "rows are outputs, driven low one at a time; columns are inputs with the Pico's "
        "pull-ups (about 50 kOhm);",
        "with long wires add 10 kOhm from each column to 3.3 V. Only two-wire switches fit "
        "a matrix:",
        "hall sensors need one input each (shift165 or mcp23017).",
    ])
    return picture


def draw_shift165(config):
    load, clock, data = (config.SHIFT165_LOAD_PIN, config.SHIFT165_CLOCK_PIN,
                         config.SHIFT165_DATA_PIN)
    picture = Picture(860, 470, 'SENSOR_DRIVER = "shift165": eight 74HC165, one a rank, '
                                'three pins')
    ends = pico_pins(picture, 20, 60, [(load, "SH/LD, load"), (clock, "CLK, clock"),
                                       (data, "QH in, data"), ("3V3", "3.3 V"),
                                       ("GND", "ground")])
    pins_left = [(1, "SH/LD"), (2, "CLK"), (9, "QH"), (16, "VCC"), (8, "GND"), (15, "CLK INH")]
    pins_right = [(11, "A"), (12, "B"), (13, "C"), (14, "D"), (3, "E"), (4, "F"), (5, "G"),
                  (6, "H"), (10, "DS")]
    first = chip(picture, 270, 60, "74HC165, rank 1", pins_left, pins_right)
    second = chip(picture, 560, 60, "74HC165, rank 2", pins_left, pins_right)
    for i, label in enumerate(("SH/LD", "CLK", "QH")):
        x, y = ends[i]
        tx, ty = first[label]
        picture.wire([(x, y), (x + 30 + 10 * i, y), (x + 30 + 10 * i, ty), (tx, ty)],
                     colour="#1f5fbf")
    for i, label in enumerate(("SH/LD", "CLK")):  # shared by all eight
        tx, ty = first[label]
        sx, sy = second[label]
        below = 290 + 14 * i
        picture.wire([(tx, ty), (tx - 8 - 8 * i, ty), (tx - 8 - 8 * i, below),
                      (sx - 8 - 8 * i, below), (sx - 8 - 8 * i, sy), (sx, sy)],
                     colour="#1f5fbf", dashed=True)
    dx, dy = first["DS"]
    qx, qy = second["QH"]
    picture.wire([(dx, dy), (dx + 20, dy), (dx + 20, 270), (qx - 40, 270),
                  (qx - 40, qy), (qx, qy)], colour="#bf1f1f")
    picture.text(dx + 26, 264, "DS <- QH of rank 2", size=11, colour="#bf1f1f")
    notes(picture, 20, 360, [
        "SH/LD and CLK go to all eight registers; each DS takes QH of the next rank's",
        "register, up to rank 8, whose DS (10) goes to GND.",
        "every register: VCC (16) to 3.3 V, GND (8) and CLK INH (15) to GND",
        "inputs A..H = files a..h: each with 10 kOhm to 3.3 V, and the square's sensor to GND",
        "(a reed switch, or the open-collector output of a hall sensor: one input a sensor)",
    ])
    return picture


def draw_mcp23017(config):
    sda, scl = config.MCP23017_SDA_PIN, config.MCP23017_SCL_PIN
    addresses = config.MCP23017_ADDRESSES
    picture = Picture(900, 470, 'SENSOR_DRIVER = "mcp23017": four MCP23017 on I2C%d, '
                                'two ranks each' % config.MCP23017_I2C)
    ends = pico_pins(picture, 20, 60, [(sda, "I2C%d SDA" % config.MCP23017_I2C),
                                       (scl, "I2C%d SCL" % config.MCP23017_I2C),
                                       ("3V3", "3.3 V"), ("GND", "ground")])
    bus_y = {"SDA": 300, "SCL": 320}
    for (x, y), name, turn in zip(ends, ("SDA", "SCL"), (28, 20)):
        picture.wire([(x, y), (x + turn, y), (x + turn, bus_y[name]), (880, bus_y[name])],
                     colour="#1f5fbf")
        picture.text(x + 34, bus_y[name] - 4, name + " (4.7 kOhm to 3.3 V)", size=10)
    for k, address in enumerate(addresses):
        x = 220 + 165 * k
        a2, a1, a0 = (address >> 2) & 1, (address >> 1) & 1, address & 1
        pins = chip(picture, x, 70, "MCP23017 0x%02X" % address,
                    [(13, "SDA"), (12, "SCL"), (17, "A2=%d" % a2), (16, "A1=%d" % a1),
                     (15, "A0=%d" % a0)],
                    [("21-28", "GPA0-7"), ("1-8", "GPB0-7")], width=150)
        picture.text(x + 75, 200, "GPA0-7: rank %d, a..h" % (2 * k + 1), anchor="middle",
                     size=11)
        picture.text(x + 75, 216, "GPB0-7: rank %d, a..h" % (2 * k + 2), anchor="middle",
                     size=11)
        for i, name in enumerate(("SDA", "SCL")):
            px, py = pins[name]
            drop = px - 12 + 6 * i
            picture.wire([(px, py), (drop, py), (drop, bus_y[name])], colour="#1f5fbf")
            picture.dot(drop, bus_y[name], colour="#1f5fbf")
    notes(picture, 20, 360, [
        "A2 A1 A0 (pins 17 16 15) set each address: 0 to GND, 1 to 3.3 V",
        "every expander: VDD (9) and RESET (18) to 3.3 V, VSS (10) to GND",
        "every input: the square's sensor to GND; the driver turns on the expander's own",
        "100 kOhm pull-ups (add 10 kOhm ones for long wires)",
    ])
    return picture


def draw_ws2812(config):
    pin = config.LED_PIN
    picture = Picture(900, 330, 'LED_DRIVER = "ws2812": %d WS2812 LEDs in one chain'
                      % config.LED_COUNT)
    ends = pico_pins(picture, 20, 60, [(pin, "LED data out"), ("GND", "ground")])
    shifter = chip(picture, 240, 60, "74AHCT125", [(2, "1A"), (1, "/1OE")],
                   [(3, "1Y"), (14, "VCC 5 V")], width=150)
    x, y = ends[0]
    picture.wire([(x, y), shifter["1A"]], colour="#1f5fbf")
    led_x = 520
    for i, name in enumerate(("a1", "b1", "...", "h1", "a2", "...", "h8")):
        picture.box(led_x + 52 * i, 80, 44, 40, name, fill="#fff4d6")
    yx, yy = shifter["1Y"]
    picture.wire([(yx, yy), (led_x, yy)], colour="#1f5fbf")
    picture.text(yx + 8, yy - 6, "330 Ohm to DIN", size=10)
    notes(picture, 20, 200, [
        "the level shifter lifts the Pico's 3.3 V data to 5 V; its /1OE (1) to GND",
        "a 5 V supply to +5V of every LED, 1000 uF across it (64 at full white draw",
        "about 4 A; LED_BRIGHTNESS = %d of 255 scales every colour)" % config.LED_BRIGHTNESS,
        "GND of the supply, the Pico and the level shifter joined",
        "LED_SERPENTINE = True when the chain runs back along every second rank",
    ])
    return picture


def draw_shift595(config):
    data, clock, latch = (config.SHIFT595_DATA_PIN, config.SHIFT595_CLOCK_PIN,
                          config.SHIFT595_LATCH_PIN)
    picture = Picture(860, 420, 'LED_DRIVER = "shift595": 64 LEDs on eight 74HC595, '
                                'one a rank')
    ends = pico_pins(picture, 20, 60, [(data, "DS, data"), (clock, "SHCP, clock"),
                                       (latch, "STCP, latch"), ("3V3", "3.3 V"),
                                       ("GND", "ground")])
    pins_left = [(14, "DS"), (11, "SHCP"), (12, "STCP"), (10, "/MR"), (13, "/OE"),
                 (16, "VCC"), (8, "GND")]
    pins_right = [(15, "QA"), (1, "QB"), (2, "QC"), (3, "QD"), (4, "QE"), (5, "QF"),
                  (6, "QG"), (7, "QH"), (9, "QH'")]
    first = chip(picture, 270, 60, "74HC595, rank 1", pins_left, pins_right)
    for i, label in enumerate(("DS", "SHCP", "STCP")):
        x, y = ends[i]
        tx, ty = first[label]
        picture.wire([(x, y), (x + 30 + 10 * i, y), (x + 30 + 10 * i, ty), (tx, ty)],
                     colour="#1f5fbf")
    qx, qy = first["QA"]
    picture.wire([(qx, qy), (qx + 40, qy)])
    picture.text(qx + 46, qy + 4, "QA..QH = files a..h: Qx -- 1 kOhm -- LED |>| -- GND",
                 size=11)
    hx, hy = first["QH'"]
    picture.wire([(hx, hy), (hx + 40, hy)], colour="#bf1f1f")
    picture.text(hx + 46, hy + 4, "QH' (9) -> DS of the rank 2 register, and so on to rank 8",
                 size=11, colour="#bf1f1f")
    notes(picture, 20, 320, [
        "SHCP and STCP go to all eight registers; every register: /MR (10) and VCC (16)",
        "to 3.3 V, /OE (13) and GND (8) to GND. No multiplexing: the LEDs hold steady.",
        "LED595_ACTIVE_LOW = True for LEDs wired from 3.3 V into the outputs",
    ])
    return picture


def draw_display(config):
    sda, scl = config.DISPLAY_SDA_PIN, config.DISPLAY_SCL_PIN
    picture = Picture(760, 330, 'DISPLAY_DRIVER = "ssd1306", and the buttons')
    pins = [(sda, "I2C%d SDA" % config.DISPLAY_I2C), (scl, "I2C%d SCL" % config.DISPLAY_I2C),
            ("3V3", "3.3 V"), ("GND", "ground"),
            (config.PROMOTION_BUTTON_PIN, "promotion button")]
    ends = pico_pins(picture, 20, 60, pins)
    oled = chip(picture, 300, 60, "SSD1306 128x64 OLED, 0x%02X" % config.DISPLAY_ADDRESS,
                [("", "SDA"), ("", "SCL"), ("", "VCC"), ("", "GND")], [], width=220)
    for (x, y), name in zip(ends, ("SDA", "SCL", "VCC", "GND")):
        tx, ty = oled[name]
        picture.wire([(x, y), (x + 40, y), (x + 40, ty), (tx, ty)], colour="#1f5fbf")
    bx, by = ends[4]
    picture.wire([(bx, by), (bx + 90, by)])
    picture.text(bx + 96, by + 4, "-- push button -- GND", size=11)
    notes(picture, 20, 245, [
        "the display shares I2C%d with the MCP23017 expanders (their addresses 0x20-0x23)"
        % config.DISPLAY_I2C,
        "move-now button (optional): a push button from MOVE_NOW_BUTTON_PIN to GND;",
        "with the matrix sensors GP%d is free: MOVE_NOW_BUTTON_PIN = %d"
        % (config.SHIFT165_LOAD_PIN, config.SHIFT165_LOAD_PIN),
    ])
    return picture


# ---------------------------------------------------------------- the files

def board_config(name="pico"):
    sys.path.insert(0, str(REPO))
    from host_tools import flash
    return flash.board_config(name)


def drawings(config):
    """{file name: SVG text} of every wiring picture."""
    makers = {"matrix": draw_matrix, "shift165": draw_shift165, "mcp23017": draw_mcp23017,
              "ws2812": draw_ws2812, "shift595": draw_shift595, "display": draw_display}
    return dict(("wiring-%s.svg" % name, makers[name](config).svg()) for name in DRAWINGS)


def main(argv=None):
    parser = argparse.ArgumentParser(description="Draw docs/wiring-*.svg from "
                                                 "boards/pico/board.py.")
    parser.add_argument("--out", default=str(REPO / "docs"), help="folder (default docs/)")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name, text in drawings(board_config()).items():
        (out / name).write_text(text)
        print(out / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
