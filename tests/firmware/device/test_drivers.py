"""The sensor-board drivers against electrical fakes (fake_hardware.py), on
CPython and on MicroPython: each sensor driver's scan order and square
mapping, the debounce, the event queue and timer, the LED frames of each
instruction, and a scan that allocates nothing.
"""
import gc

from fake_hardware import (PULL_UP, FakeMachine, FakeNeoPixelModule, Matrix, Mcp23017,
                           Shift165Chain, Shift595Chain, closed_squares)
from micro960.device.board import Config
from micro960.eboard.debounce import Debouncer, scans_for
from micro960.device.led_shift595 import Shift595Leds
from micro960.device.led_ws2812 import Ws2812Leds
from micro960.device.occupancy import square_name, to_mask, to_ranks
from micro960.eboard.scanner import EventQueue, Scanner, decode
from micro960.device.sensor_matrix import MatrixSensor
from micro960.device.sensor_mcp23017 import Mcp23017Sensor
from micro960.device.sensor_shift165 import Shift165Sensor

try:
    from unittest import SkipTest
except ImportError:  # MicroPython: mprun skips on any exception of this name
    class SkipTest(Exception):
        pass

try:
    from time import ticks_diff, ticks_us
except ImportError:  # CPython
    from time import perf_counter

    def ticks_us():
        return int(perf_counter() * 1000000)

    def ticks_diff(end, start):
        return end - start


class PicoWiring:
    """The pin-out of boards/pico (kept apart: a test must not depend on a
    board file somebody edits)."""
    SENSOR_DRIVER = "matrix"
    MATRIX_ROW_PINS = (2, 3, 4, 5, 6, 7, 8, 9)
    MATRIX_COL_PINS = (10, 11, 12, 13, 14, 15, 16, 17)
    SHIFT165_LOAD_PIN = 18
    SHIFT165_CLOCK_PIN = 19
    SHIFT165_DATA_PIN = 20
    MCP23017_I2C = 1
    MCP23017_SDA_PIN = 26
    MCP23017_SCL_PIN = 27
    MCP23017_ADDRESSES = (0x20, 0x21, 0x22, 0x23)
    LED_DRIVER = "ws2812"
    LED_PIN = 22
    LED_COUNT = 64
    SHIFT595_DATA_PIN = 0
    SHIFT595_CLOCK_PIN = 1
    SHIFT595_LATCH_PIN = 21


def config(**changes):
    settings = Config(PicoWiring)
    for name in changes:
        setattr(settings, name, changes[name])
    return settings


# The start position's occupancy: ranks 1, 2, 7 and 8.
START = (1 << 16) - 1 | ((1 << 16) - 1) << 48
# Three corners of a rectangle: a switch matrix without diodes would show b6 too.
RECTANGLE = (1 << 9) | (1 << 14) | (1 << 46)  # b2, g2, g6


def matrix_sensor(closed=None, **changes):
    machine = FakeMachine()
    settings = config(**changes)
    matrix = Matrix(machine, settings.MATRIX_ROW_PINS, settings.MATRIX_COL_PINS, closed)
    return MatrixSensor(settings, machine), matrix


def shift165_sensor(closed=None, **changes):
    machine = FakeMachine()
    settings = config(SENSOR_DRIVER="shift165", **changes)
    chain = Shift165Chain(machine, 18, 19, 20, closed)
    return Shift165Sensor(settings, machine), chain


def mcp23017_sensor(closed=None, **changes):
    machine = FakeMachine()
    closed = closed if closed is not None else bytearray(8)
    expanders = []
    for k in range(4):
        expander = Mcp23017(closed, 2 * k)
        machine.i2c_devices[0x20 + k] = expander
        expanders.append(expander)
    settings = config(SENSOR_DRIVER="mcp23017", **changes)
    return Mcp23017Sensor(settings, machine), expanders, machine


def check_every_square_alone(sensor, closed):
    """Each square alone, then a full start position and a rectangle, reads
    back exactly as placed."""
    for square in range(64):
        closed[:] = closed_squares([square])
        got = sensor.read()
        assert got == 1 << square, (square_name(square), hex(got))
    for mask in (0, START, RECTANGLE, (1 << 64) - 1):
        to_ranks(mask, closed)
        assert sensor.read() == mask, hex(mask)


# ------------------------------------------------------------------ occupancy

def test_occupancy_ranks_and_mask_agree():
    ranks = bytearray(8)
    for mask in (0, 1, 1 << 63, START, RECTANGLE, 0x0123456789ABCDEF):
        assert to_mask(to_ranks(mask, ranks)) == mask
    assert to_ranks(1 << 12, ranks) == bytearray(b"\x00\x10\x00\x00\x00\x00\x00\x00")  # e2
    assert [square_name(s) for s in (0, 7, 8, 28, 63)] == ["a1", "h1", "a2", "e4", "h8"]


# --------------------------------------------------------------------- matrix

def test_matrix_reads_each_square_on_its_row_and_column():
    sensor, matrix = matrix_sensor()
    check_every_square_alone(sensor, matrix.closed)
    assert matrix.ambiguous_reads == 0  # never a column read with two rows (or none) low


def test_matrix_drives_one_row_at_a_time_in_rank_order_and_releases_it():
    sensor, matrix = matrix_sensor(closed_squares([0, 63]))
    pins = [sensor.rows[i] for i in range(8)] + [sensor.cols[i] for i in range(8)]
    assert [p.id for p in pins] == list(range(2, 18))
    assert all(col.pull == PULL_UP for col in sensor.cols)  # open switches read high
    matrix.record = True
    sensor.read()
    sensor.read()
    assert matrix.row_selections == list(range(8)) * 2
    assert all(row.level == 1 for row in sensor.rows)  # no row left selected
    assert matrix.reads == 2 * 64


def test_matrix_diodes_keep_a_rectangle_from_ghosting():
    sensor, matrix = matrix_sensor(closed_squares([9, 14, 46]))
    assert sensor.read() == RECTANGLE


def test_matrix_invert_for_normally_closed_switches():
    sensor, matrix = matrix_sensor(closed_squares([3]), SENSOR_INVERT=True)
    assert sensor.read() == ((1 << 64) - 1) ^ (1 << 3)


def test_matrix_needs_eight_rows_and_columns():
    machine = FakeMachine()
    try:
        MatrixSensor(config(MATRIX_ROW_PINS=(2, 3)), machine)
    except ValueError as e:
        assert "MATRIX_ROW_PINS" in str(e)
    else:
        raise AssertionError("a seven-pin matrix was accepted")


# ------------------------------------------------------------------- 74HC165

def test_shift165_reads_each_square_through_the_chain():
    sensor, chain = shift165_sensor()
    check_every_square_alone(sensor, chain.closed)


def test_shift165_loads_once_then_clocks_64_edges_per_scan():
    sensor, chain = shift165_sensor(closed_squares([7, 56]))  # h1, a8
    assert sensor.load.level == 1 and sensor.clock.level == 0  # idle: shifting, clock low
    assert sensor.read() == (1 << 7) | (1 << 56)
    assert (chain.loads, chain.edges, chain.shifted) == (1, 64, 64)
    chain.closed[:] = closed_squares([0])
    assert sensor.read() == 1  # a fresh load each scan, not the old register contents
    assert (chain.loads, chain.edges) == (2, 128)
    assert sensor.load.level == 1 and sensor.clock.level == 0


def test_shift165_invert_for_sensors_that_pull_high():
    sensor, chain = shift165_sensor(closed_squares([12]), SENSOR_INVERT=True)
    assert sensor.read() == ((1 << 64) - 1) ^ (1 << 12)


# ------------------------------------------------------------------ MCP23017

def test_mcp23017_sets_inputs_and_pull_ups_then_reads_two_ranks_each():
    sensor, expanders, machine = mcp23017_sensor()
    bus = machine.i2c_buses[0]
    assert (bus.id, bus.sda.id, bus.scl.id, bus.freq) == (1, 26, 27, 400000)
    for expander in expanders:
        assert expander.registers[0x0C] == 0xFF and expander.registers[0x0D] == 0xFF  # GPPU
        assert expander.registers[0x00] == 0xFF and expander.registers[0x01] == 0xFF  # IODIR
        assert expander.registers[0x02] == 0 and expander.registers[0x03] == 0        # IPOL
    check_every_square_alone(sensor, expanders[0].closed)
    before = [e.reads for e in expanders]
    sensor.read()
    assert [e.reads - b for e, b in zip(expanders, before)] == [2, 2, 2, 2]  # GPIOA+GPIOB


def test_mcp23017_without_pull_ups_would_read_every_square_taken():
    # The fake floats an input with no pull-up low: proof that the driver's
    # pull-up set-up is what makes empty squares read empty.
    sensor, expanders, machine = mcp23017_sensor()
    for expander in expanders:
        expander.registers[0x0C] = expander.registers[0x0D] = 0
    assert sensor.read() == (1 << 64) - 1


def test_mcp23017_missing_expander_is_named():
    machine = FakeMachine()
    machine.i2c_devices[0x20] = Mcp23017(bytearray(8), 0)
    try:
        Mcp23017Sensor(config(SENSOR_DRIVER="mcp23017"), machine)
    except OSError as e:
        assert "0x21" in str(e), e
    else:
        raise AssertionError("a missing expander went unnoticed")


def test_scanner_skips_a_scan_lost_to_an_i2c_error():
    sensor, expanders, machine = mcp23017_sensor(closed_squares([4]))
    scanner = Scanner(sensor, 2)
    scanner.prime()
    expanders[0].closed[0] = 0  # the king leaves e1
    scanner.scan()
    machine.i2c_buses[0].fail = 1
    scanner.scan()  # lost: no event, the count towards the change stays
    assert scanner.read_errors == 1 and scanner.get() == -1
    scanner.scan()
    assert decode(scanner.get()) == ("lift", 4)


# ------------------------------------------------------------------ debounce

class Recorder:
    def __init__(self):
        self.changes = []

    def put(self, square, occupied):
        self.changes.append((square, 1 if occupied else 0))


def test_scans_for_rounds_up_to_whole_scans():
    assert scans_for(40, 10) == 4
    assert scans_for(45, 10) == 5
    assert scans_for(0, 10) == 1
    assert scans_for(5, 10) == 1


def test_a_change_counts_on_the_scan_it_has_persisted_long_enough():
    debouncer = Debouncer(3)
    empty = bytearray(8)
    debouncer.reset(empty)
    placed = closed_squares([28])
    sink = Recorder()
    debouncer.update(placed, sink)
    debouncer.update(placed, sink)
    assert sink.changes == []
    debouncer.update(placed, sink)
    assert sink.changes == [(28, 1)]
    for _ in range(5):
        debouncer.update(placed, sink)
    assert sink.changes == [(28, 1)]  # once only
    assert debouncer.stable == placed


def test_bounces_and_dropped_readings_make_no_event():
    debouncer = Debouncer(3)
    board = closed_squares([0, 4, 7])
    debouncer.reset(board)
    sink = Recorder()
    dropped = closed_squares([0, 7])  # e1's sensor misses one reading
    chatter = closed_squares([0, 4, 7, 36])  # a piece brushing e5 on its way
    for raw in (dropped, board, board, dropped, dropped, board, chatter, board, chatter,
                chatter, board):
        debouncer.update(raw, sink)
    assert sink.changes == []
    assert debouncer.stable == board
    assert debouncer.pending == bytearray(8) and debouncer.counts == bytearray(64)


def test_a_bouncing_lift_counts_once_after_it_settles():
    debouncer = Debouncer(3)
    board = closed_squares([4, 60])
    lifted = closed_squares([60])
    debouncer.reset(board)
    sink = Recorder()
    for raw in (lifted, board, lifted, board, lifted, lifted, board):  # contact chatter
        debouncer.update(raw, sink)
    assert sink.changes == []
    for raw in (lifted, lifted):
        debouncer.update(raw, sink)
    assert sink.changes == []
    debouncer.update(lifted, sink)
    assert sink.changes == [(4, 0)]


def test_changes_on_several_squares_keep_their_own_counts():
    debouncer = Debouncer(2)
    debouncer.reset(closed_squares([6, 7]))  # knight g1, rook h1
    sink = Recorder()
    debouncer.update(closed_squares([7]), sink)           # g1 lifted
    debouncer.update(closed_squares([7, 21]), sink)       # g1 stays up; f3 placed
    debouncer.update(closed_squares([7, 21, 63]), sink)   # f3 stays; h8 one reading
    debouncer.update(closed_squares([7, 21]), sink)
    assert sink.changes == [(6, 0), (21, 1)]


# --------------------------------------------------------------- event queue

def test_event_queue_keeps_order_across_the_wrap():
    queue = EventQueue(4)
    got = []
    for square in range(10):
        queue.put(square, square & 1)
        got.append(decode(queue.get()))
    assert got == [("lift" if s % 2 == 0 else "place", s) for s in range(10)]
    assert queue.get() == -1 and len(queue) == 0 and not queue.overflowed


def test_event_queue_overflow_is_flagged_and_resync_reads_the_board():
    sensor, matrix = matrix_sensor(closed_squares([0]))
    scanner = Scanner(sensor, 1, queue_size=4)
    scanner.prime()
    matrix.closed[:] = closed_squares(range(10, 20))
    scanner.scan()  # ten changes into three free slots
    assert scanner.overflowed and len(scanner.events) == 3
    assert scanner.resync() == to_mask(closed_squares(range(10, 20)))
    assert not scanner.overflowed and scanner.get() == -1


# ------------------------------------------------------------ scanner, timer

def test_scanner_runs_from_a_periodic_timer_and_queues_stable_changes():
    sensor, matrix = matrix_sensor(closed_squares([4, 7]))
    machine = FakeMachine()  # the timer's
    scanner = Scanner(sensor, scans_for(40, 10))
    scanner.prime()
    assert scanner.occupancy() == (1 << 4) | (1 << 7)
    scanner.start(machine, 10)
    timer = machine.timers[0]
    assert (timer.id, timer.mode, timer.period) == (-1, machine.Timer.PERIODIC, 10)
    matrix.closed[:] = closed_squares([7])      # the king lifted from e1
    timer.fire(3)
    assert scanner.get() == -1                  # 30 ms: not yet
    timer.fire(1)
    assert decode(scanner.get()) == ("lift", 4)
    matrix.closed[:] = closed_squares([6, 7])   # ...and put on g1
    timer.fire(4)
    assert decode(scanner.get()) == ("place", 6) and scanner.get() == -1
    assert scanner.occupancy() == (1 << 6) | (1 << 7) and scanner.scans == 8
    scanner.stop()
    timer.fire(10)
    assert scanner.scans == 8 and timer.callback is None


def test_a_paused_scanner_does_not_scan():
    sensor, matrix = matrix_sensor()
    scanner = Scanner(sensor, 1)
    scanner.prime()
    scanner.paused = True
    matrix.closed[0] = 1
    scanner.scan()
    assert scanner.get() == -1 and scanner.scans == 0


# ---------------------------------------------------------------------- LEDs

def ws2812(**changes):
    machine = FakeMachine()
    neopixel = FakeNeoPixelModule()
    leds = Ws2812Leds(config(**changes), machine, neopixel)
    return leds, neopixel


def test_ws2812_frame_of_each_instruction():
    leds, neopixel = ws2812(LED_BRIGHTNESS=255)
    strip = neopixel.strips[0]
    assert strip.pin.id == 22 and strip.n == 64
    move = (1 << 12) | (1 << 28)  # e2, e4
    expected = {"move": (0, 255, 0), "error": (255, 0, 0), "setup": (0, 64, 255)}
    for kind in ("move", "error", "setup"):
        leds.show(kind, move)
        frame = neopixel.frames[-1]
        assert frame[12] == frame[28] == expected[kind], kind
        assert all(frame[i] == (0, 0, 0) for i in range(64) if i not in (12, 28)), kind
    leds.show("off", move)
    assert neopixel.frames[-1] == [(0, 0, 0)] * 64
    assert len(neopixel.frames) == 4
    leds.show("error", 1 << 63)
    assert neopixel.frames[-1][63] == (255, 0, 0)


def test_ws2812_brightness_and_serpentine_chain():
    leds, neopixel = ws2812(LED_BRIGHTNESS=51, LED_SERPENTINE=True)
    leds.show("move", (1 << 8) | (1 << 7))  # a2, h1
    frame = neopixel.frames[-1]
    lit = [i for i in range(64) if frame[i] != (0, 0, 0)]
    assert lit == [7, 15]  # h1 is LED 7; a2 is the far end of the second row, LED 15
    assert frame[7] == (0, 51, 0)


def test_ws2812_refuses_an_unknown_instruction():
    leds, neopixel = ws2812()
    try:
        leds.show("blink", 1)
    except ValueError:
        return
    raise AssertionError("an unknown instruction was shown")


def shift595(active_low=False):
    machine = FakeMachine()
    chain = Shift595Chain(machine, 0, 1, 21, active_low)
    leds = Shift595Leds(config(LED_DRIVER="shift595", LED595_ACTIVE_LOW=active_low), machine)
    return leds, chain


def test_shift595_frame_lights_exactly_the_squares():
    leds, chain = shift595()
    for mask in (1, 1 << 63, (1 << 4) | (1 << 6) | (1 << 7) | (1 << 5), START, RECTANGLE):
        leds.show("move", mask)
        assert chain.frames[-1] == mask, hex(mask)
    leds.show("off", START)
    assert chain.frames[-1] == 0
    assert chain.edges == 6 * 64  # 64 bits per frame, one latch each
    assert len(chain.frames) == 6


def test_shift595_active_low_leds():
    leds, chain = shift595(active_low=True)
    leds.show("error", RECTANGLE)
    assert chain.frames[-1] == RECTANGLE


# ----------------------------------------------------- memory and scan cost

def scan_setups():
    """(name, scanner, closed) for each sensor driver on its fake."""
    sensor, matrix = matrix_sensor(closed_squares(range(16)))
    yield "matrix", Scanner(sensor, 4), matrix.closed
    sensor, chain = shift165_sensor(closed_squares(range(16)))
    yield "shift165", Scanner(sensor, 4), chain.closed
    sensor, expanders, machine = mcp23017_sensor(closed_squares(range(16)))
    yield "mcp23017", Scanner(sensor, 4), expanders[0].closed


def play_scans(scanner, closed, count):
    """`count` scans while a piece goes e2-e4 and back every 16 scans, with
    a bounce on the way; the events are taken out as the device loop would."""
    events = 0
    for i in range(count):
        phase = i & 15
        if phase == 0:
            closed[1] = 0xEF        # e2 lifted
        elif phase == 2:
            closed[1] = 0xFF        # a bounce
        elif phase == 3:
            closed[1] = 0xEF
        elif phase == 8:
            closed[3] = 0x10        # on e4
        elif phase == 12:
            closed[3] = 0           # and back
            closed[1] = 0xFF
        scanner.scan()
        while scanner.get() >= 0:
            events += 1
    return events


def test_scans_allocate_nothing():
    if not hasattr(gc, "mem_alloc"):
        raise SkipTest("gc.mem_alloc is MicroPython's")
    for name, scanner, closed in scan_setups():
        scanner.prime()
        play_scans(scanner, closed, 64)
        gc.collect()
        gc.disable()
        try:
            before = gc.mem_alloc()
            events = play_scans(scanner, closed, 1024)
            after = gc.mem_alloc()
        finally:
            gc.enable()
        assert events == 1024 // 16 * 4, (name, events)  # lift, place, lift, place
        assert after - before == 0, (name, after - before)
    # and through the timer's callback, as on the device
    machine = FakeMachine()
    scanner.start(machine, 10)
    timer = machine.timers[0]
    closed[5] = 0xFF  # rank 6 filled: events on the way
    timer.fire(8)
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc()
        timer.fire(500)
        after = gc.mem_alloc()
    finally:
        gc.enable()
    assert after - before == 0, ("timer", after - before)
    assert len(scanner.events) == 8  # rank 6's eight placements, queued


def scan_cost_us(scans=10000):
    """Microseconds per scan (read + debounce + events) on each fake."""
    costs = {}
    for name, scanner, closed in scan_setups():
        scanner.prime()
        start = ticks_us()
        play_scans(scanner, closed, scans)
        costs[name] = ticks_diff(ticks_us(), start) / scans
    # The drivers' own cost with pins as quick as machine.Pin's C functions:
    # int() reads 0 (every square taken, a quiet board), abs(v) takes a write.
    for name, scanner, closed in scan_setups():
        sensor = scanner.sensor
        if name == "matrix":
            sensor.rows = (abs,) * 8
            sensor.cols = (int,) * 8
        elif name == "shift165":
            sensor.load = sensor.clock = abs
            sensor.data = int
        else:
            continue  # an I2C scan's time is the bus's: 4 reads of 2 bytes, ~0.5 ms at 400 kHz
        scanner.prime()
        start = ticks_us()
        for _ in range(scans):
            scanner.scan()
        costs[name + ", C-speed pins, quiet"] = ticks_diff(ticks_us(), start) / scans
    debouncer = Debouncer(4)
    quiet = closed_squares(range(16))
    debouncer.reset(quiet)
    sink = EventQueue(64)
    start = ticks_us()
    for _ in range(scans):
        debouncer.update(quiet, sink)
    costs["debounce alone, quiet board"] = ticks_diff(ticks_us(), start) / scans
    busy = closed_squares(range(17))
    start = ticks_us()
    for i in range(scans):  # a square changing every 4th scan: its count runs each time
        debouncer.update(quiet if i & 4 else busy, sink)
        sink.clear()
    costs["debounce alone, one square changing"] = ticks_diff(ticks_us(), start) / scans
    return costs


def test_scan_cost_is_small():
    costs = scan_cost_us(500)
    for name in costs:
        print("scan cost %s: %.1f us" % (name, costs[name]))
    # On a PC a scan with the fake's Python pins costs tens of microseconds;
    # a millisecond would be a scan gone wrong (a per-scan allocation storm).
    assert all(costs[name] < 1000 for name in costs), costs
