"""Presence sensors on four MCP23017 16-bit I/O expanders over I2C.

Expander k (MCP23017_ADDRESSES[k], set by its A0-A2 pins) reads two ranks:
port A (GPA0-GPA7) is rank 2k+1, port B (GPB0-GPB7) rank 2k+2, pin 0 = file a.
Each sensor pulls its input low when a piece is there; the driver turns on
the expander's own 100 kOhm pull-ups, so a reed switch to ground needs no
other part.

At start the driver writes, in the expander's default register layout
(IOCON.BANK = 0): IODIRA/B = 0xFF (all inputs), IPOLA/B = 0 (no inversion),
GPPUA/B = 0xFF (pull-ups on). A scan then reads GPIOA and GPIOB of each
expander in one two-byte read (the register address steps from 0x12 to
0x13) into a preallocated buffer.

SENSOR_INVERT = True is for sensors that pull high with a piece present.
"""
from micro960.device.occupancy import to_mask

IODIRA = 0x00
IPOLA = 0x02
GPPUA = 0x0C
GPIOA = 0x12


class Mcp23017Sensor:
    def __init__(self, config, machine=None, i2c=None):
        addresses = tuple(config.MCP23017_ADDRESSES or ())
        if len(addresses) != 4:
            raise ValueError("board.py: MCP23017_ADDRESSES needs 4 addresses, two ranks each")
        if i2c is None:
            if machine is None:
                import machine
            sda = getattr(config, "MCP23017_SDA_PIN", None)
            scl = getattr(config, "MCP23017_SCL_PIN", None)
            if sda is None or scl is None:
                raise ValueError("board.py: mcp23017 needs MCP23017_SDA_PIN and MCP23017_SCL_PIN")
            i2c = machine.I2C(config.MCP23017_I2C, sda=machine.Pin(sda), scl=machine.Pin(scl),
                              freq=config.MCP23017_FREQ)
        self.i2c = i2c
        self.addresses = addresses
        self.empty_level = 0 if config.SENSOR_INVERT else 0xFF
        self._pair = bytearray(2)
        self._ranks = bytearray(8)
        for address in addresses:
            try:
                i2c.writeto_mem(address, IODIRA, b"\xff\xff")
                i2c.writeto_mem(address, IPOLA, b"\x00\x00")
                i2c.writeto_mem(address, GPPUA, b"\xff\xff")
            except OSError:
                raise OSError("no MCP23017 answers at I2C address 0x%02x" % address)

    def read_into(self, ranks):
        """Fill the 8 rank bytes `ranks` (bit f = file f) from one scan.
        An I2C error raises OSError (the scanner skips that scan)."""
        pair = self._pair
        empty = self.empty_level
        rank = 0
        for address in self.addresses:
            self.i2c.readfrom_mem_into(address, GPIOA, pair)
            ranks[rank] = pair[0] ^ empty
            ranks[rank + 1] = pair[1] ^ empty
            rank += 2

    def read(self):
        """The raw occupancy: an int with bit i set when square i holds a piece."""
        self.read_into(self._ranks)
        return to_mask(self._ranks)
