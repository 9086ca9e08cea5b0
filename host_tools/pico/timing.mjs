// The RP2040's timing that rp2040js leaves out, for pico.mjs: the system
// clock at the frequency the firmware sets, and the flash behind the XIP
// cache, whose misses stall the CPU. rp2040js runs every instruction at a
// fixed 125 MHz and reads the flash as if it were RAM. Figures are from the
// RP2040 datasheet (sections 2.6.3 XIP, 2.15 clocks, 2.18 PLL, 4.10 SSI).

const XOSC_HZ = 12e6; // the Pico's crystal
const ROSC_HZ = 6.5e6; // the ring oscillator's nominal frequency, the clock at reset
const USB_PLL_HZ = 48e6; // pll_usb as every Pico firmware sets it

// ---- The clock.

// `deviceClock(mcu).cycleNanos` is a CPU cycle's length in nanoseconds at the
// frequency clk_sys runs at now, worked out again at each write to the
// CLOCKS block or the system PLL. rp2040js does not model the PLL: it is
// added here as registers that keep what is written and always report lock.
export function deviceClock(mcu) {
  const clocks = mcu.peripherals[0x40008]; // rp2040js's CLOCKS block keeps its registers
  const pll = registers({ 0x0: 0x1, 0x4: 0x2d, 0x8: 0, 0xc: 0x77000 }, update, { 0x0: 0x80000000 }); // CS.LOCK
  mcu.peripherals[0x40028] = pll; // PLL_SYS
  const clock = { hz: 0, cycleNanos: 0 };
  const writeClocks = clocks.writeUint32.bind(clocks);
  clocks.writeUint32 = (offset, value) => {
    writeClocks(offset, value);
    update();
  };

  function pllHz() {
    const [cs, power, feedback, post] = [0x0, 0x4, 0x8, 0xc].map((offset) => pll.value[offset]);
    if (power & 0x21) return 0; // PD or VCOPD: the PLL is off
    const vco = (XOSC_HZ / (cs & 0x3f)) * (feedback & 0xfff);
    return vco / (((post >> 16) & 7) * ((post >> 12) & 7));
  }

  function refHz() {
    const source = clocks.refCtrl & 3; // 0 ROSC, 1 its aux mux (not used here), 2 XOSC
    return (source === 2 ? XOSC_HZ : ROSC_HZ) / (((clocks.refDiv >> 8) & 3) || 4);
  }

  function update() {
    let hz = refHz();
    if (clocks.sysCtrl & 1) { // the aux mux: PLL_SYS, PLL_USB, ROSC or XOSC
      hz = [pllHz(), USB_PLL_HZ, ROSC_HZ, XOSC_HZ][(clocks.sysCtrl >> 5) & 7] || hz;
    }
    const divider = ((clocks.sysDiv >>> 8) || 1 << 24) + (clocks.sysDiv & 0xff) / 256;
    clock.hz = hz / divider;
    clock.cycleNanos = 1e9 / clock.hz;
  }

  // The core's regulator (VREG_AND_CHIP_RESET), which rp2040js leaves out:
  // VREG keeps its VSEL (1.10 V at reset), so that a test can see the
  // firmware raise it before a clock above 133 MHz; ROK (bit 12) is set.
  const vreg = registers({ 0x0: 0xb1, 0x4: 0x91, 0x8: 0 }, () => {}, { 0x0: 0x1000 });
  mcu.peripherals[0x40064] = vreg;

  update();
  return clock;
}

// ---- The XIP cache.

const SETS = 1024; // 16 KB: two ways of 1,024 lines of 8 bytes
const LINE_BITS = 64;

// `flashCache(mcu)` puts the XIP cache between the CPU and the flash: every
// read of the flash's four aliases (0x10.. cached, 0x11.. cached without
// allocating, 0x12.. allocating without looking, 0x13.. uncached) looks up
// its 8-byte line, and a miss adds to `stall` the cycles the SSI takes to
// read the line, worked out from the registers boot2 set: the SCK divider,
// the SPI frame format (quad on a Pico), the instruction, address and mode
// bits and the wait cycles (on a Pico's W25Q16JV in continuous read mode:
// 8 SCK of address and mode, 4 waiting, 16 of data; 56 cycles at the SCK
// divider of 2). The runner adds `stall` to the instruction that made it.
// A hit costs nothing more (one cycle, as a RAM read). Replacement is least
// recently used within a set (the datasheet does not say which). XIP_CTRL's
// registers (0x14000000) report what the model saw: CTR_HIT and CTR_ACC count
// the hits and the accesses (the CPU's every halfword fetch from the flash is
// one: on a board the M0+ fetches a word at a time, so the board's counters
// show fewer accesses for the same code), FLUSH empties the cache, CTRL.EN
// turns it off.
// Not modelled: the time a miss waits for the line's later words (the first
// word may be delivered sooner), a DMA's or the other core's use of the flash,
// the XIP streaming FIFO, and cache-as-SRAM.
export function flashCache(mcu) {
  const tag = new Int32Array(2 * SETS).fill(-1); // the line each way of each set holds
  const nextOut = new Uint8Array(SETS); // the way a miss replaces: the least recently used
  const ssi = mcu.peripherals[0x18000];
  const cache = {
    stall: 0,
    flush() {
      tag.fill(-1);
    },
  };
  let enabled = 1;
  let hits = 0;
  let accesses = 0;
  const control = registers({ 0x0: 3, 0x4: 0, 0x8: 3, 0xc: 0, 0x10: 0 }, (offset, value) => {
    if (offset === 0x0) enabled = value & 1;
    if (offset === 0x4 && value & 1) cache.flush();
    if (offset === 0xc) hits = 0; // any write clears a counter
    if (offset === 0x10) accesses = 0;
  });
  const readControl = control.readUint32;
  control.readUint32 = (offset) => (offset === 0xc ? hits : offset === 0x10 ? accesses : readControl(offset));
  mcu.peripherals[0x14000] = control; // XIP_CTRL

  function missCycles() {
    const frame = (ssi.crtlr0 >> 21) & 3; // SPI_FRF: standard, dual or quad
    const lanes = [1, 2, 4, 4][frame];
    const spi = ssi.spictlr0;
    const type = spi & 3; // whether the instruction and the address go over all lanes
    const instruction = [0, 4, 8, 16][(spi >> 8) & 3] / (type === 2 ? lanes : 1);
    const address = (((spi >> 2) & 0xf) * 4) / (type >= 1 ? lanes : 1);
    const sck = instruction + address + ((spi >> 11) & 0x1f) + LINE_BITS / lanes;
    return Math.ceil(sck) * (ssi.baudr & 0xfffe || 2);
  }

  function access(address) {
    accesses++;
    const line = (address & 0xffffff) >>> 3;
    const set = line & (SETS - 1);
    const alias = (address >>> 24) & 3;
    if (enabled && alias < 2) {
      if (tag[2 * set] === line) {
        nextOut[set] = 1;
        hits++;
        return;
      }
      if (tag[2 * set + 1] === line) {
        nextOut[set] = 0;
        hits++;
        return;
      }
    }
    cache.stall += missCycles();
    if (enabled && (alias & 1) === 0) {
      const way = nextOut[set];
      tag[2 * set + way] = line;
      nextOut[set] = way ^ 1;
    }
  }

  // The CPU reads memory through these three (rp2040js's core calls them on
  // the RP2040 object); a flash address is looked up here, then read.
  const { flashView, flash } = mcu;
  const isFlash = (address) => address >= 0x10000000 && address < 0x14000000;
  const [read32, read16, read8] = [mcu.readUint32, mcu.readUint16, mcu.readUint8].map((f) => f.bind(mcu));
  mcu.readUint32 = (address) => {
    if (!isFlash(address)) return read32(address);
    access(address);
    return flashView.getUint32(address & 0xffffff, true);
  };
  mcu.readUint16 = (address) => {
    if (!isFlash(address)) return read16(address);
    access(address);
    return flashView.getUint16(address & 0xffffff, true);
  };
  mcu.readUint8 = (address) => {
    if (!isFlash(address)) return read8(address);
    access(address);
    return flash[address & 0xffffff];
  };
  return cache;
}

// A peripheral of plain registers: `value[offset]` holds what was last
// written (`initial` gives the offsets and their values at reset), and
// `written(offset, value)` is told of each write; `set` {offset: bits} are
// status bits that always read as 1. rp2040js writes through
// writeUint32Atomic, with the RP2040's atomic XOR, set and clear aliases.
function registers(initial, written, set = {}) {
  const value = { ...initial };
  const peripheral = {
    value,
    readUint32: (offset) => ((value[offset] ?? 0) | (set[offset] ?? 0)) >>> 0,
    writeUint32(offset, data) {
      if (!(offset in value)) return;
      value[offset] = data >>> 0;
      written(offset, data >>> 0);
    },
    writeUint32Atomic(offset, data, atomic) {
      const old = peripheral.readUint32(offset);
      peripheral.writeUint32(offset, [data, old ^ data, old | data, old & ~data][atomic]);
    },
  };
  return peripheral;
}
