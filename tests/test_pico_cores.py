"""The emulated Pico's two cores (host_tools/pico/cores.mjs): stock
MicroPython's `_thread` runs a thread on core 1 beside the main thread on
core 0, and the cores talk through the SIO's FIFOs. On stock MicroPython with
nothing flashed, timed by the device's own clock (`time.ticks_us()`).
"""
import pytest

from host_tools import pico_bench

from conftest import said

SIO_CPUID = 0xd0000000
FIFO_ST, FIFO_WR, FIFO_RD = 0xd0000050, 0xd0000054, 0xd0000058
VLD, RDY, WOF, ROE = 1, 2, 4, 8
NVIC_ISER, NVIC_ICER = 0xe000e100, 0xe000e180
SIO_IRQ_PROC0, SIO_IRQ_PROC1 = 15, 16
TIMEOUT = 120  # seconds of this machine's: a thread that never starts hangs the main one

# The same CPU-bound loop timed alone on core 0, then on both cores at once:
# the thread's copy on core 1, the main thread's on core 0. Its `%` divides
# with the SIO's divider, one per core: both sums must come out right.
# MicroPython on the Pico has no GIL: a dict that grows on one core while the
# other looks a key up may miss it (a global, say), so the threads share only
# a dict with all its keys, and the main thread's names are a function's.
BOTH = """
import _thread, machine, time
def work(n):
    t = 0
    for i in range(n):
        t += i * 3 %% 7
    return t
done = {'cpu': None, 'end': None, 'sum': None}
def thread():
    done['cpu'] = machine.mem32[%d]
    done['sum'] = work(%d)
    done['end'] = time.ticks_us()
def main():
    start = time.ticks_us()
    work(%d)
    alone = time.ticks_diff(time.ticks_us(), start)
    start = time.ticks_us()
    _thread.start_new_thread(thread, ())
    total = work(%d)
    end = time.ticks_us()
    cpu = machine.mem32[%d]
    while done['end'] is None:
        time.sleep_ms(1)
    both = max(time.ticks_diff(end, start), time.ticks_diff(done['end'], start))
    print('cores', cpu, done['cpu'], alone, both, total, done['sum'])
main()
"""

# Core 0 sends words through its FIFO to a thread on core 1, which sends
# each back plus one. Each core first turns off its own SIO interrupt (in
# its own NVIC): MicroPython's handler for it (the pico-sdk's lockout) would
# take the words. The FIFO holds 8 words: the 9th is dropped (WOF); reading
# an empty FIFO gives ROE; writing 1s clears both.
FIFO = """
import _thread, machine, time
m = machine.mem32
ST, WR, RD, ISER, ICER = %d, %d, %d, %d, %d
seen = {'enabled': 0, 'ready': 0, 'go': 0, 'status': 0, 'done': 0}  # all its keys (see BOTH)
def echo():
    seen['enabled'] = m[ISER]
    m[ICER] = 1 << 16
    seen['ready'] = 1
    while not seen['go']:
        pass
    seen['status'] = m[ST]
    for _ in range(8):
        while not m[ST] & 1:
            pass
        m[WR] = m[RD] + 1
    seen['done'] = 1
def main():
    enabled = m[ISER]
    m[ICER] = 1 << 15
    _thread.start_new_thread(echo, ())
    while not seen['ready']:
        pass
    m[ST] = 0xff
    empty = m[ST]
    m[RD]
    read_empty = m[ST]
    m[ST] = 0xff
    cleared = m[ST]
    for i in range(8):
        m[WR] = 0x12345670 + i
    full = m[ST]
    m[WR] = 0xdead
    overflow = m[ST]
    m[ST] = 0xff
    seen['go'] = 1
    back = []
    for _ in range(8):
        while not m[ST] & 1:
            pass
        back.append(m[RD])
    while not seen['done']:
        pass
    after = m[ST]
    m[ISER] = enabled & (1 << 15)
    print('nvic', enabled, seen['enabled'])
    print('status', empty, read_empty, cleared, full, overflow, seen['status'], after)
    print('back', *back)
main()
"""

# A thread on core 1 that says its CPUID and ends (or, `forever`, runs on).
THREAD = """
import _thread, machine, time
said = {'cpu': None}
def thread(forever):
    said['cpu'] = machine.mem32[%d]
    while forever:
        pass
def main():
    _thread.start_new_thread(thread, (%s,))
    time.sleep_ms(20)
    print('thread', said['cpu'])
main()
"""


def test_a_thread_runs_on_core_1_beside_the_main_thread_on_core_0(stock_pico):
    n = 20000
    [[main_cpu, thread_cpu, alone, both, *sums]] = said(
        stock_pico, BOTH % (SIO_CPUID, n, n, n, SIO_CPUID), "cores", TIMEOUT)
    assert (main_cpu, thread_cpu) == (0, 1)
    assert sums == [sum(i * 3 % 7 for i in range(n))] * 2
    # Two loops at once take about as long as one alone (one core would take 2x).
    assert both < 1.3 * alone, (alone, both)


def test_the_cores_talk_through_the_sio_fifos(stock_pico):
    lines = pico_bench.run_code(stock_pico, FIFO % (FIFO_ST, FIFO_WR, FIFO_RD, NVIC_ISER, NVIC_ICER),
                                timeout=TIMEOUT)
    values = {line.split()[0]: [int(n) for n in line.split()[1:]] for line in lines
              if line.split() and line.split()[0] in ("nvic", "status", "back")}
    # Each core has its own NVIC: MicroPython enabled SIO_IRQ_PROC0 on core 0
    # and SIO_IRQ_PROC1 on core 1.
    [core0, core1] = values["nvic"]
    assert (core0 >> SIO_IRQ_PROC0 & 1, core0 >> SIO_IRQ_PROC1 & 1) == (1, 0), lines
    assert (core1 >> SIO_IRQ_PROC0 & 1, core1 >> SIO_IRQ_PROC1 & 1) == (0, 1), lines
    # Core 0's FIFO_ST: empty and room to send; an empty read's ROE, cleared;
    # 8 words sent fill core 1's FIFO (no RDY), a 9th is dropped (WOF).
    # Core 1 sees the 8 (VLD) and room to answer (RDY); at the end core 0
    # has read every answer.
    assert values["status"] == [RDY, RDY | ROE, RDY, 0, WOF, VLD | RDY, RDY], lines
    assert values["back"] == [0x12345670 + i + 1 for i in range(8)], lines


def test_a_soft_reset_or_an_ended_thread_leaves_the_board_working(stock_pico):
    # A thread that ended: core 1 waits, and a new thread starts on it.
    assert said(stock_pico, THREAD % (SIO_CPUID, False), "thread", TIMEOUT) == [[1]]
    assert said(stock_pico, THREAD % (SIO_CPUID, False), "thread", TIMEOUT) == [[1]]
    # A soft reset (Ctrl-D) while a thread runs: MicroPython resets core 1
    # (PSM_FRCE_OFF) and the REPL answers; a thread starts again.
    assert said(stock_pico, THREAD % (SIO_CPUID, True), "thread", TIMEOUT) == [[1]]
    stock_pico.soft_reset(at_prompt=True)
    assert said(stock_pico, "print('answer', 6 * 7)", "answer", TIMEOUT) == [[42]]
    assert said(stock_pico, THREAD % (SIO_CPUID, False), "thread", TIMEOUT) == [[1]]
