// The RP2040's second core, for pico.mjs. rp2040js runs one Cortex-M0+ core;
// the chip has two, and stock MicroPython's `_thread` runs a new thread on
// core 1. Here a second rp2040js CortexM0Core shares the first one's memory
// map, peripherals and XIP cache model (timing.mjs), and the two run in
// lockstep: the core that is behind runs the next instruction, so the
// device keeps one clock and each core's flash reads stall that core.
//
// Modelled, per core as on the chip: SIO's CPUID; the two inter-core FIFOs
// (8 words each way; FIFO_ST's VLD, RDY and the sticky WOF and ROE, which a
// write of 1 clears; FIFO_WR, FIFO_RD) and SIO_IRQ_PROC0/1 (IRQ 15/16) on
// the reading core's NVIC while its FIFO holds data or an error flag; the
// SIO's integer divider and interpolators (two cores dividing at once would
// corrupt each other's results through one set); the NVIC, SysTick, VTOR,
// PRIMASK and registers (each rp2040js core object and PPB has its own).
// Shared: memory, the spinlocks, GPIO, and the peripherals, whose interrupt
// lines go to both NVICs (each core enables what it wants). SEV sets both
// cores' event registers and wakes a core sleeping in WFE; WFE and WFI sleep
// a core until an event or an interrupt, at no host cost (its clock follows
// the other's). Core 1 starts in the boot ROM, which drains its FIFO, sends
// core 0 a 0 and sleeps in WFE until launched through the FIFO handshake;
// PSM_FRCE_OFF's proc1 bit holds core 1 off, and clearing it starts core 1
// in the boot ROM again (the pico-sdk's multicore_reset_core1).
// Left out: the two cores contending for the bus or for the flash (each
// core's cache misses stall only itself, and a miss fills the one cache at
// once), the bus's and the FIFO's extra cycles, SYSCFG's PROC1_NMI_MASK, and
// SEVONPEND and the sleep modes (SLEEPDEEP is ignored).

const SIO_CPUID = 0x000;
const FIFO_ST = 0x050;
const FIFO_WR = 0x054;
const FIFO_RD = 0x058;
const VLD = 1; // FIFO_ST: this core's incoming FIFO has data
const RDY = 2; // its outgoing FIFO has room
const WOF = 4; // sticky: it wrote to a full FIFO (the word was dropped)
const ROE = 8; // sticky: it read an empty FIFO
const FIFO_DEPTH = 8;
const PER_CORE_SIO_START = 0x060; // the divider, then the two interpolators,
const PER_CORE_SIO_END = 0x100; // up to the spinlocks, which are shared
const SIO_IRQ_PROC0 = 15; // core 1's is 16
const SIO_IRQS = (1 << SIO_IRQ_PROC0) | (1 << (SIO_IRQ_PROC0 + 1));
const PSM_FRCE_OFF = 0x4;
const PSM_PROC1 = 1 << 16;
const WFE = 0xbf20;

// `twoCores(simulator, clock, cache)` gives the simulator's RP2040 its second
// core and returns {cores, sleeping, run(count)}: run() executes up to
// `count` instructions, each on the core that is behind, and stops early
// when both cores sleep (`sleeping` is then true); it returns how many it
// ran. `clock` and `cache` are timing.mjs's. While a core runs, `mcu.core`
// and `mcu.ppb` are that core's, so the code of rp2040js and pico.mjs that
// asks for "the core" gets the one executing.
export function twoCores(simulator, clock, cache) {
  const mcu = simulator.rp2040;
  const time = simulator.clock;
  const CortexM0Core = mcu.core.constructor; // rp2040js exports neither class
  const core0 = mcu.core;
  const core1 = new CortexM0Core(mcu);
  const cores = [core0, core1];
  const views = [coreView(mcu, cores, 0), coreView(mcu, cores, 1)];
  // Each core's private peripheral bus (NVIC, SysTick, SCB): rp2040js's PPB
  // asks its RP2040 for "the core", so each gets a view whose core is its own.
  mcu.ppb.rp2040 = views[0];
  mcu.peripherals[0x40004].rp2040 = views[0]; // SYSCFG's PROC0_NMI_MASK
  const ppbs = [mcu.ppb, new mcu.ppb.constructor(views[1], 'PPB')];
  let current = 0; // the core executing now
  let core1Powered = true;

  function select(n) {
    current = n;
    mcu.core = cores[n];
    mcu.ppb = ppbs[n];
  }

  // ---- Interrupts. A peripheral's line goes to both cores' NVICs; `lines`
  // keeps which are high, for a core 1 that comes out of reset.
  let lines = 0;
  mcu.setInterrupt = (irq, value) => {
    lines = value ? lines | (1 << irq) : lines & ~(1 << irq);
    core0.setInterrupt(irq, value);
    core1.setInterrupt(irq, value);
  };

  // ---- The inter-core FIFOs: fifos[n] holds the words sent to core n.
  const fifos = [[], []];
  const errors = [0, 0]; // each core's sticky WOF and ROE
  const fifoStatus = (n) =>
    (fifos[n].length ? VLD : 0) | (fifos[1 - n].length < FIFO_DEPTH ? RDY : 0) | errors[n];
  // A core's SIO interrupt is the OR of its VLD, WOF and ROE (a level).
  const updateFifoIrq = (n) =>
    cores[n].setInterrupt(SIO_IRQ_PROC0 + n, fifos[n].length > 0 || errors[n] !== 0);

  function readFifo(offset) {
    const n = current;
    if (offset === FIFO_ST) return fifoStatus(n);
    if (offset !== FIFO_RD) return 0; // FIFO_WR is write-only
    if (!fifos[n].length) {
      errors[n] |= ROE;
      updateFifoIrq(n);
      return 0;
    }
    const word = fifos[n].shift();
    updateFifoIrq(n);
    return word;
  }

  function writeFifo(offset, value) {
    const n = current;
    if (offset === FIFO_ST) {
      errors[n] &= ~value; // WOF and ROE: write 1 to clear
      updateFifoIrq(n);
    } else if (offset === FIFO_WR) {
      const out = fifos[1 - n];
      if (out.length === FIFO_DEPTH) {
        errors[n] |= WOF;
        updateFifoIrq(n);
      } else {
        out.push(value >>> 0);
        updateFifoIrq(1 - n);
      }
    }
  }

  // ---- The SIO: CPUID and the FIFOs answer by the core asking; core 1 has
  // its own divider and interpolators (rp2040js's SIO keeps one set, core 0's
  // here); the rest (GPIO, spinlocks) is shared.
  const sio = mcu.sio;
  const sio1 = new sio.constructor(views[1]);
  const readShared = sio.readUint32.bind(sio);
  const writeShared = sio.writeUint32.bind(sio);
  const perCore = (offset) => offset >= PER_CORE_SIO_START && offset < PER_CORE_SIO_END;
  sio.readUint32 = (offset) => {
    if (offset === SIO_CPUID) return current;
    if (offset >= FIFO_ST && offset <= FIFO_RD) return readFifo(offset);
    if (current === 1 && perCore(offset)) return sio1.readUint32(offset);
    return readShared(offset);
  };
  sio.writeUint32 = (offset, value) => {
    if (offset >= FIFO_ST && offset <= FIFO_RD) writeFifo(offset, value);
    else if (current === 1 && perCore(offset)) sio1.writeUint32(offset, value);
    else writeShared(offset, value);
  };

  // ---- SEV and WFE. rp2040js's SEV only logs 'SEV' through the RP2040's
  // logger: the logger is where it is seen (no cost per instruction).
  const logger = mcu.logger;
  mcu.logger = {
    debug: (name, message) => logger.debug(name, message),
    info: (name, message) => (message === 'SEV' ? sendEvent() : logger.info(name, message)),
    warn: (name, message) => logger.warn(name, message),
    error: (name, message) => logger.error(name, message),
  };

  // An event for every core (the one executing SEV too): a core asleep in
  // WFE wakes (the event is spent waking it); any other keeps it in its
  // event register, for its next WFE to return at once.
  function sendEvent() {
    cores.forEach((core, n) => {
      if (core.waiting && (n === 0 || core1Powered) && peek16(mcu, core.PC - 2) === WFE) {
        core.waiting = false;
      } else {
        core.eventRegistered = true;
      }
    });
  }

  // ---- Core 1's power (PSM_FRCE_OFF.proc1): held off, then out of reset.
  const psm = mcu.peripherals[0x40010];
  const writePsm = psm.writeUint32.bind(psm);
  psm.writeUint32 = (offset, value) => {
    const wasOff = psm.frceOff & PSM_PROC1;
    writePsm(offset, value);
    const off = psm.frceOff & PSM_PROC1;
    if (offset === PSM_FRCE_OFF && off !== wasOff) powerCore1(!off);
  };

  // Reset core 1: fresh registers, NVIC and SysTick, starting in the boot
  // ROM (VTOR 0); while powered off it sleeps and nothing wakes it.
  function powerCore1(on) {
    core1Powered = on;
    Object.assign(core1, new CortexM0Core(mcu));
    core1.reset();
    ppbs[1].reset();
    core1.pendingInterrupts = lines & ~SIO_IRQS; // the lines high now
    updateFifoIrq(1);
    core1.waiting = !on;
  }
  powerCore1(true);

  // ---- Running both.
  function run(count) {
    let lead = 0; // how far core 1's time is ahead of core 0's, in ns
    let i = 0;
    for (; i < count && !simulator.stopped; i++) {
      if (core1.waiting) {
        // Core 1 sleeps (as it does until a thread starts): core 0 alone,
        // the device's clock following it.
        if (core0.waiting) break;
        if (current !== 0) select(0);
        const cycles = core0.executeInstruction() + cache.stall;
        cache.stall = 0;
        time.tick(cycles * clock.cycleNanos);
        lead = 0;
      } else if (core0.waiting) {
        if (current !== 1) select(1);
        const cycles = core1.executeInstruction() + cache.stall;
        cache.stall = 0;
        time.tick(cycles * clock.cycleNanos);
        lead = 0;
      } else if (lead >= 0) {
        // Both run: the one behind goes next; the clock is the one behind's.
        if (current !== 0) select(0);
        const nanos = (core0.executeInstruction() + cache.stall) * clock.cycleNanos;
        cache.stall = 0;
        time.tick(Math.min(nanos, lead));
        lead -= nanos;
      } else {
        if (current !== 1) select(1);
        const nanos = (core1.executeInstruction() + cache.stall) * clock.cycleNanos;
        cache.stall = 0;
        time.tick(Math.min(nanos, -lead));
        lead += nanos;
      }
    }
    return i;
  }

  return {
    cores,
    run,
    get sleeping() {
      return core0.waiting && core1.waiting;
    },
  };
}

// What rp2040js's peripherals of core n see as the RP2040: the chip, but
// with core n as "the core".
function coreView(mcu, cores, n) {
  return {
    get core() {
      return cores[n];
    },
    clock: mcu.clock,
    clkSys: mcu.clkSys,
    get logger() {
      return mcu.logger;
    },
  };
}

// The halfword at `address` in the boot ROM, the flash or the RAM, read
// without the XIP cache model (only to see which instruction a core sleeps at).
function peek16(mcu, address) {
  if (address < 0x4000) return (mcu.bootrom[address >>> 2] >>> ((address & 2) * 8)) & 0xffff;
  if (address >= 0x10000000 && address < 0x14000000) return mcu.flashView.getUint16(address & 0xffffff, true);
  if (address >= 0x20000000 && address < 0x20000000 + mcu.sram.length) {
    return mcu.sramView.getUint16(address - 0x20000000, true);
  }
  return 0;
}
