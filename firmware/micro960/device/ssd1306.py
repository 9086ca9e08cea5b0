"""An SSD1306 OLED (128x64, I2C): the sensor board's display driver.

The controller's memory is pages of 8 pixel rows, one byte a column with the
top row in bit 0: the layout of MicroPython's framebuf.MONO_VLSB, so
eboard/display.py draws into a FrameBuffer over a bytearray and show() sends it.
Wiring and address: DISPLAY_* in boards/NAME/board.py.

    oled = SSD1306(machine.I2C(0, sda=machine.Pin(4), scl=machine.Pin(5)))
    oled.show(buffer)   # 1,024 bytes, page by page
"""
# Display off; horizontal addressing; start line 0; column 127 at the left
# and rows scanned from the bottom (the panel's usual mounting); 64 rows;
# no offset; alternate COM pins; clock; precharge; VCOM level; contrast;
# show RAM; not inverted; charge pump on; display on.
INIT = (0xAE, 0x20, 0x00, 0x40, 0xA1, 0xA8, 0x3F, 0xC8, 0xD3, 0x00, 0xDA, 0x12, 0xD5, 0x80,
        0xD9, 0xF1, 0xDB, 0x30, 0x81, 0xCF, 0xA4, 0xA6, 0x8D, 0x14, 0xAF)
COMMAND = 0x00  # control byte: the bytes after it are commands
DATA = 0x40  # control byte: the bytes after it go into the display memory


class SSD1306:
    def __init__(self, i2c, address=0x3C, width=128, height=64):
        self.i2c = i2c
        self.address = address
        self.width = width
        self.height = height
        self.commands = bytearray(4)  # control byte and up to three command bytes
        self.row = bytearray(width + 1)  # a page of pixels after its control byte
        self.row[0] = DATA
        for command in INIT:
            self.command(command)

    def command(self, *codes):
        commands = self.commands
        commands[0] = COMMAND
        for i in range(len(codes)):
            commands[i + 1] = codes[i]
        self.i2c.writeto(self.address, memoryview(commands)[:len(codes) + 1])

    def show(self, buffer):
        """Send the whole picture: width bytes for each page, top page first."""
        width = self.width
        self.command(0x21, 0, width - 1)  # columns 0 to the last
        self.command(0x22, 0, self.height // 8 - 1)  # pages 0 to the last
        row = self.row
        for page in range(self.height // 8):
            row[1:] = memoryview(buffer)[page * width:(page + 1) * width]
            self.i2c.writeto(self.address, row)

    def contrast(self, level):
        self.command(0x81, level)
