"""The CPU's clock, set at boot from board.py's CPU_MHZ.

Stock MicroPython starts an RP2040 at 125 MHz with its core at 1.10 V. The
RP2040 is certified to 200 MHz with its core at 1.15 V (pico-sdk 2.1.1 and
later set both when built for 200 MHz): 1.6 times the cycles, and about
that many more nodes a second (docs/developing.md, "Measurements"). Above
133 MHz the core voltage is raised first and given time to settle, as the
SDK does. The SDK keeps the flash's clock within its limit as the CPU's
changes (62.5 MHz at 125, 50 MHz at 200: tests/test_pico_timing.py).
"""
import time

VREG = 0x40064000  # VREG_AND_CHIP_RESET's VREG register (RP2040 datasheet 2.10)
VSEL_1_15V = 0b1100  # its VSEL field, bits 4-7 (0b1011, 1.10 V, at reset)
SETTLE_S = 0.001  # pico-sdk's SYS_CLK_VREG_VOLTAGE_AUTO_ADJUST_DELAY_US
RP2040_FULL_VOLTAGE_MHZ = 133  # the fastest clock at 1.10 V


def set_mhz(machine, mhz, chip):
    """Run the CPU at `mhz` through the `machine` module; on an RP2040 above
    133 MHz, at 1.15 V first. A clock the chip's PLL cannot make is refused,
    and the firmware's kept; a port with no clock to set (the unix port,
    playing a Pico in tests) keeps its own."""
    if not hasattr(machine, "freq"):
        return
    if chip == "RP2040" and mhz > RP2040_FULL_VOLTAGE_MHZ:
        vreg = machine.mem32[VREG]
        if (vreg >> 4) & 0xF < VSEL_1_15V:
            machine.mem32[VREG] = (vreg & ~0xF0) | (VSEL_1_15V << 4)
            time.sleep(SETTLE_S)
    try:
        machine.freq(mhz * 1000000)
    except ValueError as e:
        print("board.py: CPU_MHZ %d: %s; running at %d MHz" % (mhz, e, machine.freq() // 1000000))
