"""Scanning the sensors at a steady rate, behind the search's back.

A machine.Timer calls scan() every SCAN_PERIOD_MS. On the Pico its callback
is a soft interrupt: MicroPython runs it between two bytecodes of whatever
the main program is doing (the engine's search included), so the board is
read on time while the engine thinks, and the two never run at once. scan()
reads the raw rank bytes, debounces them and appends each stable change to
a ring buffer of events; the device loop takes them out with get() when it
is ready. Nothing in scan() allocates memory, so the timer can run during a
search without feeding the garbage collector.

An event is one byte: the square (0-63) plus PLACED (64) when a piece
arrived, without it when a piece left:

    >>> queue = EventQueue(4)
    >>> queue.put(12, 1); queue.put(28, 0)
    >>> decode(queue.get()), decode(queue.get()), queue.get()
    (('place', 12), ('lift', 28), -1)

When more events arrive than the ring holds, the newest are dropped and
`overflowed` is set: the device loop then resynchronises from the whole
stable occupancy (resync()) instead of trusting the queue.
"""
from micro960.eboard.debounce import Debouncer
from micro960.device.occupancy import to_mask

PLACED = 64


def decode(event):
    """("lift"|"place", square) of an event byte."""
    return ("place" if event & PLACED else "lift", event & 63)


class EventQueue:
    """A ring buffer of event bytes: one producer (the timer), one consumer
    (the device loop). Each side moves only its own index."""

    def __init__(self, size=64):
        self.buffer = bytearray(size)
        self.size = size
        self.head = 0  # next slot to write; only put() moves it
        self.tail = 0  # next slot to read; only get() and clear() move it
        self.overflowed = False

    def put(self, square, occupied):
        head = self.head + 1
        if head == self.size:
            head = 0
        if head == self.tail:  # full: one slot stays empty to tell full from empty
            self.overflowed = True
            return
        self.buffer[self.head] = square | PLACED if occupied else square
        self.head = head

    def get(self):
        """The oldest event byte, or -1 when there is none."""
        tail = self.tail
        if tail == self.head:
            return -1
        event = self.buffer[tail]
        tail += 1
        self.tail = 0 if tail == self.size else tail
        return event

    def __len__(self):
        return (self.head - self.tail) % self.size

    def clear(self):
        self.tail = self.head
        self.overflowed = False


class Scanner:
    """Reads `sensor` (a driver with read_into(ranks)), debounces over
    `debounce_scans` scans and queues the stable changes."""

    def __init__(self, sensor, debounce_scans, queue_size=64):
        self.sensor = sensor
        self.raw = bytearray(8)
        self.debouncer = Debouncer(debounce_scans)
        self.events = EventQueue(queue_size)
        self.paused = False
        self.scans = 0        # scans done
        self.read_errors = 0  # scans lost to a failed read (an I2C error)
        self.timer = None
        self._callback = self.scan  # one bound method, made once, for the timer

    def prime(self):
        """Take the sensors' present reading as the stable state, no events."""
        self.sensor.read_into(self.raw)
        self.debouncer.reset(self.raw)
        self.events.clear()

    def scan(self, _timer=None):
        """One scan: the timer's callback."""
        if self.paused:
            return
        try:
            self.sensor.read_into(self.raw)
        except OSError:  # a bus error: skip this scan, the debounce counts stay
            self.read_errors += 1
            return
        self.debouncer.update(self.raw, self.events)
        self.scans += 1

    def get(self):
        """The oldest queued event byte, or -1 (see decode())."""
        return self.events.get()

    def pending(self):
        """How many events are queued."""
        return len(self.events)

    @property
    def overflowed(self):
        return self.events.overflowed

    def occupancy(self):
        """The stable occupancy as an int (bit i = square i)."""
        return to_mask(self.debouncer.stable)

    def resync(self):
        """Drop the queued events; the stable occupancy they lead to.

        The timer is held off meanwhile, so no scan slips in between the two
        (a soft timer callback never interrupts itself halfway)."""
        self.paused = True
        try:
            self.events.clear()
            return self.occupancy()
        finally:
            self.paused = False

    def start(self, machine, period_ms):
        """Scan every `period_ms` from a periodic machine.Timer."""
        self.timer = machine.Timer(-1)
        self.timer.init(mode=machine.Timer.PERIODIC, period=period_ms, callback=self._callback)

    def stop(self):
        if self.timer is not None:
            self.timer.deinit()
            self.timer = None
