"""The emulated Pico's timing (host_tools/pico/timing.mjs): its clock runs at
the frequency the firmware sets, and the flash's reads stall the CPU as the
RP2040's XIP cache makes them. On stock MicroPython with nothing flashed,
timed by the device's own clock (`time.ticks_us()`).
"""
import pytest

from conftest import said

XIP_CTRL = 0x14000000  # CTRL, FLUSH (+4), STAT, CTR_HIT (+12), CTR_ACC (+16)
SSI_BAUDR = 0x18000014  # the flash clock's divider of the CPU's
LINE = 8  # bytes in a cache line
SCK_A_MISS = 8 + 4 + 16  # a Pico's flash in quad continuous read: address and mode, wait, 8 bytes

# Read `lines` lines of the flash a byte each, twice: the first pass misses
# on each (the cache was flushed), the second hits. The loop's own code (the
# interpreter's, from the flash too) is read into the cache by a pass over a
# few lines first; it misses a few times a pass anyway, where more of its
# lines fall in one set than the set has ways. The misses are counted by
# XIP_CTRL's counters, read beside the clock before and after.
READS = """
import machine, time
X = %d
def reads(lines, at):
    mem8, mem32, ticks_us = machine.mem8, machine.mem32, time.ticks_us
    accesses, hits, start = mem32[X + 16], mem32[X + 12], ticks_us()
    for a in range(at, at + lines * %d, %d):
        mem8[a]
    end, accesses2, hits2 = ticks_us(), mem32[X + 16], mem32[X + 12]
    return time.ticks_diff(end, start), accesses2 - accesses - (hits2 - hits)
machine.freq(%d)
for lines in (256, 1024):
    machine.mem32[X + 4] = 1
    reads(4, 0x10100000)
    print('reads', machine.mem32[%d], *(reads(lines, 0x10100000) + reads(lines, 0x10100000)))
"""
# The same cycles at two frequencies: a loop with (nearly) no misses.
LOOP = """
import machine, time
def loop(n):
    start = time.ticks_us()
    for i in range(n):
        pass
    return time.ticks_diff(time.ticks_us(), start)
for mhz in (125, 200):
    machine.freq(mhz * 1000000)
    print('loop', mhz, loop(2000))
"""


@pytest.mark.parametrize("mhz", (125, 200))
def test_a_miss_costs_a_line_read_from_the_flash(stock_pico, mhz):
    rows = said(stock_pico, READS % (XIP_CTRL, LINE, LINE, mhz * 1000000, SSI_BAUDR), "reads")
    # The SDK keeps the flash's clock within its limit: 62.5 MHz at 125, 50 at 200.
    [divider] = {row[0] for row in rows}
    assert divider == {125: 2, 200: 4}[mhz]
    # What the cold pass cost beyond the warm one, in time and in misses, for
    # 256 lines and for 1,024: the misses the 768 more lines made cost the
    # time they took (a miss or an interrupt that both sizes have cancels).
    [(time_256, misses_256), (time_1024, misses_1024)] = [
        (cold - warm, cold_misses - warm_misses)
        for _, cold, cold_misses, warm, warm_misses in rows]
    # Each line missed once when first read (but the 4 read beforehand).
    assert [row[2] >= lines - 4 for row, lines in zip(rows, (256, 1024))] == [True, True], rows
    miss_us = SCK_A_MISS * divider / mhz
    assert abs((time_1024 - time_256) / (misses_1024 - misses_256) / miss_us - 1) < 0.05, rows


def test_the_clock_runs_at_the_frequency_the_firmware_sets(stock_pico):
    [[_, slow], [_, fast]] = said(stock_pico, LOOP, "loop")
    assert abs(fast / slow - 125 / 200) < 0.01, (slow, fast)
