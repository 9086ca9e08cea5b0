"""board.py's CPU_MHZ set at boot (device/cpu_clock.py), on CPython and on
MicroPython, through a `machine` that records what is done to it. (The real
chip: tests/test_pico.py boots micro960 on the emulated Pico and reads the
clock and the core voltage back.)
"""
from micro960.device.cpu_clock import VREG, set_mhz

VREG_AT_RESET = 0xB1  # enabled, VSEL 0b1011: 1.10 V


class Memory:
    def __init__(self, done):
        self.words = {VREG: VREG_AT_RESET}
        self.done = done

    def __getitem__(self, address):
        return self.words[address]

    def __setitem__(self, address, value):
        self.words[address] = value
        self.done.append(("vsel", value >> 4 & 15))


class ClockMachine:
    """A chip's clock and core regulator: freq() refuses what its PLL
    cannot make, as MicroPython's does."""

    def __init__(self, makes=(48, 125, 133, 200)):
        self.done = []
        self.mem32 = Memory(self.done)
        self.hz = 125000000
        self.makes = makes

    def freq(self, hz=None):
        if hz is None:
            return self.hz
        if hz // 1000000 not in self.makes:
            raise ValueError("cannot change frequency")
        self.hz = hz
        self.done.append(("freq", hz // 1000000))


def test_an_rp2040_gets_its_core_voltage_before_a_clock_above_133_mhz():
    machine = ClockMachine()
    set_mhz(machine, 200, "RP2040")
    assert machine.done == [("vsel", 0b1100), ("freq", 200)]
    set_mhz(machine, 200, "RP2040")  # again (a soft reset): the voltage is already up
    assert machine.done[2:] == [("freq", 200)]


def test_a_clock_the_chip_runs_at_its_own_voltage_leaves_the_voltage():
    machine = ClockMachine()
    set_mhz(machine, 133, "RP2040")
    set_mhz(machine, 150, "RP2350")  # not an RP2040: no VREG of that kind
    assert machine.done == [("freq", 133)]


def test_a_clock_the_pll_cannot_make_is_said_and_the_firmwares_kept():
    machine = ClockMachine(makes=(125,))
    set_mhz(machine, 190, "RP2040")
    assert machine.hz == 125000000


def test_a_port_with_no_clock_to_set_keeps_its_own():
    class UnixMachine:
        mem32 = None
    set_mhz(UnixMachine, 200, "RP2040")  # nothing to do, and nothing raised
