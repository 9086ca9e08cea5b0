"""Stand-ins for the `machine` and `neopixel` modules, with the circuits of
the sensor-board drivers behind them, for tests on CPython and MicroPython.

The fakes behave electrically, so a driver that scans in the wrong order,
misses an edge or forgets a pull-up reads the wrong squares:

- FakeMachine: Pin (inputs see what the circuit wired to them does; outputs
  tell it when they change), I2C (devices answer register reads and writes)
  and Timer (fire() runs the callback as the timer would).
- Matrix: an 8x8 switch matrix with a diode per switch. A column reads low
  only while exactly the rows driven low include one whose switch on that
  column is closed; otherwise its pull-up (if turned on) holds it high, and
  without one it floats (reads 0).
- Shift165Chain: eight 74HC165. SH/LD low copies the inputs; a rising CLK
  edge with SH/LD high moves the chain one place; the data pin is QH of the
  rank 1 register.
- Mcp23017: an expander's registers (IOCON.BANK = 0) with the address
  pointer stepping on through a multi-byte access.
- Shift595Chain: eight 74HC595: rising SHCP shifts DS in, rising STCP
  latches; each latch records the frame of lit squares.
- FakeNeoPixelModule: NeoPixel objects that record each written frame.

`closed` (rank bytes, bit f = file f) says which switches are closed, i.e.
which squares hold a piece; tests change it between scans. Nothing here
allocates on the paths a scan takes, so gc.mem_alloc() tests stay honest.
"""

IN = 0
OUT = 1
PULL_UP = 1
PULL_DOWN = 2
NO_PULL = -1


class FakePin:
    OUT = OUT
    IN = IN

    def __init__(self, machine, pin_id, mode, pull, value):
        self.id = pin_id
        self.mode = mode
        self.pull = pull
        self.level = 0 if value is None else (1 if value else 0)
        self.circuit = machine.wiring.get(pin_id)
        self.role = -1  # what this pin is to its circuit, set by attach()
        if self.circuit is not None:
            self.circuit.attach(self)

    def __call__(self, value=None):
        if value is None:
            return self.read()
        self.drive(value)

    def value(self, value=None):
        if value is None:
            return self.read()
        self.drive(value)

    def on(self):
        self.drive(1)

    def off(self):
        self.drive(0)

    def read(self):
        if self.mode == OUT:
            return self.level
        level = -1
        if self.circuit is not None:
            level = self.circuit.level(self)
        if level < 0:  # nothing drives it: the pull resistor decides, or it floats
            level = 1 if self.pull == PULL_UP else 0
        return level

    def drive(self, value):
        old = self.level
        self.level = 1 if value else 0
        if self.mode == OUT and self.circuit is not None:
            self.circuit.driven(self, old)


class PinFactory:
    """machine.Pin: call it for a pin; it has the mode and pull constants."""
    IN = IN
    OUT = OUT
    PULL_UP = PULL_UP
    PULL_DOWN = PULL_DOWN

    def __init__(self, machine):
        self.machine = machine

    def __call__(self, pin_id, mode=IN, pull=NO_PULL, value=None):
        pin = FakePin(self.machine, pin_id, mode, pull, value)
        self.machine.pins[pin_id] = pin
        return pin


class FakeTimer:
    PERIODIC = 1
    ONE_SHOT = 0

    def __init__(self, timer_id=-1):
        self.id = timer_id
        self.callback = None
        self.period = None
        self.mode = None

    def init(self, mode=1, period=-1, callback=None):
        self.mode = mode
        self.period = period
        self.callback = callback

    def deinit(self):
        self.callback = None

    def fire(self, times=1):
        """The timer expiring `times` times: its callback runs each time."""
        for _ in range(times):
            if self.callback is not None:
                self.callback(self)


class TimerFactory:
    PERIODIC = FakeTimer.PERIODIC
    ONE_SHOT = FakeTimer.ONE_SHOT

    def __init__(self, machine):
        self.machine = machine

    def __call__(self, timer_id=-1):
        timer = FakeTimer(timer_id)
        self.machine.timers.append(timer)
        return timer


class FakeI2C:
    def __init__(self, machine, bus_id, sda=None, scl=None, freq=None):
        self.id = bus_id
        self.sda = sda
        self.scl = scl
        self.freq = freq
        self.devices = machine.i2c_devices
        self.fail = 0  # the next `fail` transactions get no acknowledge

    def _device(self, address):
        if self.fail:
            self.fail -= 1
            raise OSError(5)  # EIO
        device = self.devices.get(address)
        if device is None:
            raise OSError(19)  # ENODEV: nobody acknowledged the address
        return device

    def writeto_mem(self, address, register, data):
        device = self._device(address)
        for i in range(len(data)):
            device.write(register + i, data[i])

    def writeto(self, address, data):
        self._device(address).transfer(bytes(data))

    def readfrom_mem_into(self, address, register, buffer):
        device = self._device(address)
        for i in range(len(buffer)):
            buffer[i] = device.read(register + i)

    def readfrom_mem(self, address, register, count):
        buffer = bytearray(count)
        self.readfrom_mem_into(address, register, buffer)
        return bytes(buffer)

    def scan(self):
        return sorted(self.devices)


class FakeSSD1306:
    """The memory of an SSD1306 OLED as its I2C writes fill it: commands set
    the column and page window (horizontal addressing), data fills it."""

    def __init__(self, width=128, height=64):
        self.width = width
        self.memory = bytearray(width * height // 8)
        self.commands = []  # every command byte, in order
        self.window = (0, width - 1, 0, height // 8 - 1)
        self.at = (0, 0)  # column, page
        self.on = False
        self.shows = 0  # whole pictures sent

    def transfer(self, data):
        if data[0] == 0x00:
            self._command(list(data[1:]))
        elif data[0] == 0x40:
            for byte in data[1:]:
                self._data(byte)
        else:
            raise OSError(5)  # not a control byte this driver sends

    def _command(self, codes):
        self.commands += codes
        first, last, top, bottom = self.window
        if codes[0] == 0x21:
            self.window = (codes[1], codes[2], top, bottom)
            self.at = (codes[1], self.at[1])
        elif codes[0] == 0x22:
            self.window = (first, last, codes[1], codes[2])
            self.at = (self.at[0], codes[1])
            self.shows += 1
        elif codes[0] in (0xAE, 0xAF):
            self.on = codes[0] == 0xAF

    def _data(self, byte):
        column, page = self.at
        first, last, top, bottom = self.window
        self.memory[page * self.width + column] = byte
        column += 1
        if column > last:
            column = first
            page = top if page >= bottom else page + 1
        self.at = (column, page)

    def pixel(self, x, y):
        return self.memory[(y >> 3) * self.width + x] >> (y & 7) & 1


class FakeMachine:
    """A `machine` module for one test: wire circuits, then hand it to a driver."""

    def __init__(self):
        self.wiring = {}  # pin id -> the circuit on that pin
        self.pins = {}
        self.timers = []
        self.i2c_devices = {}
        self.i2c_buses = []
        self.Pin = PinFactory(self)
        self.Timer = TimerFactory(self)

    def I2C(self, bus_id, sda=None, scl=None, freq=400000):  # noqa: N802 - machine.I2C
        bus = FakeI2C(self, bus_id, sda, scl, freq)
        self.i2c_buses.append(bus)
        return bus

    def wire(self, circuit, pin_ids):
        for pin_id in pin_ids:
            self.wiring[pin_id] = circuit
        return circuit


def closed_squares(squares):
    """Rank bytes with the switches of `squares` (numbers 0-63) closed."""
    ranks = bytearray(8)
    for square in squares:
        ranks[square >> 3] |= 1 << (square & 7)
    return ranks


class Matrix:
    """An 8x8 switch matrix with a diode per switch (cathode to the row)."""

    def __init__(self, machine, row_pins, col_pins, closed=None):
        self.closed = closed if closed is not None else bytearray(8)
        self.row_ids = tuple(row_pins)
        self.col_ids = tuple(col_pins)
        self.rows = [None] * 8
        self.ambiguous_reads = 0  # columns read while not exactly one row was low
        self.reads = 0
        self.row_selections = []  # each row driven low, in order (record=True)
        self.record = False
        machine.wire(self, self.row_ids + self.col_ids)

    def attach(self, pin):
        if pin.id in self.row_ids:
            pin.role = self.row_ids.index(pin.id)
            self.rows[pin.role] = pin
        else:
            pin.role = self.col_ids.index(pin.id)

    def driven(self, pin, old):
        if self.record and pin.role >= 0 and pin.id in self.row_ids and old and not pin.level:
            self.row_selections.append(pin.role)

    def level(self, pin):
        if pin.id in self.row_ids:
            return -1
        bit = 1 << pin.role
        low_rows = 0
        level = -1  # nothing pulls it low: the pull-up, if any, decides
        for row in range(8):
            row_pin = self.rows[row]
            if row_pin is not None and row_pin.mode == OUT and row_pin.level == 0:
                low_rows += 1
                if self.closed[row] & bit:
                    level = 0
        self.reads += 1
        if low_rows != 1:
            self.ambiguous_reads += 1
        return level


class Button:
    """A push button from a pin to ground: pressed pulls the pin low;
    released, only a pull-up makes it read high."""

    def __init__(self, machine, pin_id):
        self.pressed = False
        machine.wire(self, (pin_id,))

    def attach(self, pin):
        pass

    def driven(self, pin, old):
        pass

    def level(self, pin):
        return 0 if self.pressed else -1


class Shift165Chain:
    """Eight 74HC165, rank 1's QH on the data pin, rank 8's DS grounded.
    Inputs A-H are files a-h, pulled up; a closed switch pulls one low."""

    def __init__(self, machine, load_pin, clock_pin, data_pin, closed=None):
        self.closed = closed if closed is not None else bytearray(8)
        self.load_id, self.clock_id, self.data_id = load_pin, clock_pin, data_pin
        self.bits = bytearray(64)  # bits[i]: what QH shows after i shifts
        self.shifted = 64          # shifts since the last load
        self.load_pin = None
        self.loads = 0
        self.edges = 0
        machine.wire(self, (load_pin, clock_pin, data_pin))

    def attach(self, pin):
        if pin.id == self.load_id:
            self.load_pin = pin

    def _load(self):
        for i in range(64):
            rank, file = i >> 3, 7 - (i & 7)  # per register H comes out first
            self.bits[i] = 0 if self.closed[rank] & (1 << file) else 1
        self.shifted = 0
        self.loads += 1

    def driven(self, pin, old):
        if pin.id == self.load_id:
            if not pin.level:
                self._load()
        elif pin.id == self.clock_id and pin.level and not old:  # a rising edge
            self.edges += 1
            if self.load_pin is not None and self.load_pin.level:  # SH/LD low: no shifting
                self.shifted += 1

    def level(self, pin):
        if pin.id != self.data_id:
            return -1
        if self.load_pin is not None and not self.load_pin.level:
            self._load()  # loading follows the inputs while SH/LD is low
        return self.bits[self.shifted] if self.shifted < 64 else 0


class Mcp23017:
    """One MCP23017 in its power-on state (IOCON.BANK = 0): port A reads
    rank `rank`, port B rank `rank` + 1, of the shared `closed` bytes."""
    REGISTERS = 0x16

    def __init__(self, closed, rank):
        self.closed = closed
        self.rank = rank
        self.registers = bytearray(self.REGISTERS)
        self.registers[0x00] = 0xFF  # IODIRA: all inputs at power-on
        self.registers[0x01] = 0xFF  # IODIRB
        self.reads = 0
        self.writes = []

    def _port(self, port):
        registers = self.registers
        inputs = registers[0x00 + port]
        pull_ups = registers[0x0C + port]
        polarity = registers[0x02 + port]
        closed = self.closed[self.rank + port]
        # an input pin: low when its switch is closed, else its pull-up or a float (0)
        level = pull_ups & (0xFF ^ closed)
        level = (level ^ polarity) & inputs
        return level | (registers[0x14 + port] & (0xFF ^ inputs))  # outputs read OLAT

    def read(self, register):
        register %= self.REGISTERS  # the address pointer wraps
        self.reads += 1
        if register in (0x12, 0x13):
            return self._port(register - 0x12)
        return self.registers[register]

    def write(self, register, value):
        register %= self.REGISTERS
        self.writes.append((register, value))
        if register in (0x12, 0x13):
            register += 2  # writing GPIO writes OLAT
        self.registers[register] = value


class Shift595Chain:
    """Eight 74HC595, rank 1's DS on the data pin. Output high = lit
    (or low, with active_low). frames: the lit squares at each latch."""

    def __init__(self, machine, data_pin, clock_pin, latch_pin, active_low=False):
        self.data_id, self.clock_id, self.latch_id = data_pin, clock_pin, latch_pin
        self.data_pin = None
        self.stage = bytearray(64)    # position p: register p // 8 (rank), output p % 8 (file)
        self.outputs = bytearray(64)
        self.active_low = active_low
        self.frames = []
        self.edges = 0
        machine.wire(self, (data_pin, clock_pin, latch_pin))

    def attach(self, pin):
        if pin.id == self.data_id:
            self.data_pin = pin

    def driven(self, pin, old):
        if not pin.level or old:
            return  # only rising edges do anything
        if pin.id == self.clock_id:
            self.edges += 1
            for p in range(63, 0, -1):
                self.stage[p] = self.stage[p - 1]
            self.stage[0] = self.data_pin.level if self.data_pin is not None else 0
        elif pin.id == self.latch_id:
            self.outputs[:] = self.stage
            lit = 0
            for p in range(64):
                if self.outputs[p] != self.active_low:
                    lit |= 1 << p
            self.frames.append(lit)

    def level(self, pin):
        return -1


class FakeNeoPixel:
    def __init__(self, module, pin, count, bpp=3, timing=1):
        self.pin = pin
        self.n = count
        self.pixels = [(0, 0, 0)] * count
        self.frames = module.frames

    def __len__(self):
        return self.n

    def __setitem__(self, index, colour):
        self.pixels[index] = tuple(colour)

    def __getitem__(self, index):
        return self.pixels[index]

    def fill(self, colour):
        for i in range(self.n):
            self.pixels[i] = tuple(colour)

    def write(self):
        self.frames.append(list(self.pixels))


class FakeNeoPixelModule:
    """A `neopixel` module; frames: every frame written, a list of colours."""

    def __init__(self):
        self.frames = []
        self.strips = []

    def NeoPixel(self, pin, count, bpp=3, timing=1):  # noqa: N802 - the module's class name
        strip = FakeNeoPixel(self, pin, count, bpp, timing)
        self.strips.append(strip)
        return strip
