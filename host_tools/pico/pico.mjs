// An emulated Raspberry Pi Pico running a MicroPython .uf2, its USB serial
// port on this process's stdin and stdout.
//   node pico.mjs FIRMWARE.uf2 BOOTROM.bin [LITTLEFS.img [ROWS:COLUMNS:FD]]
// With MICRO960_REAL_TIME_IDLE=1 in the environment, the device's clock
// follows this machine's while the CPU waits (see the end of this file).
// LITTLEFS.img is the flash from FS_OFFSET on, and stays so: every erase and
// program of the flash is written through to it, so after the process is
// killed (a power cut) it holds what the flash would. When the firmware
// resets the chip (machine.reset(), through the watchdog) the process exits
// with code REBOOT, for its runner to start the board again.
// ROWS:COLUMNS:FD (e.g. 2,3,4,5,6,7,8,9:10,11,12,13,14,15,16,17:5) wires a
// sensor board's switch matrix to those GPIO pins (see below); the pieces
// on it are read from file descriptor FD, a line `occupied HEX` at a time.
import { createReadStream, openSync, readFileSync, writeSync } from 'fs';
import { createInterface } from 'readline';
import { ConsoleLogger, GPIOPinState, LogLevel, Simulator, USBCDC } from 'rp2040js';
import { twoCores } from './cores.mjs';
import { deviceClock, flashCache } from './timing.mjs';

const [uf2Path, bootromPath, fsPath, matrix] = process.argv.slice(2);
const FS_OFFSET = 0xa0000; // where RPI_PICO's MicroPython keeps littlefs
const FLASH_START = 0x10000000;
const REBOOT = 3; // exit code: the firmware reset the chip

const simulator = new Simulator();
const mcu = simulator.rp2040;
mcu.logger = new ConsoleLogger(LogLevel.Error);
const rom = readFileSync(bootromPath);
const servedRomFunctions = serveFlashFunctions(rom);
mcu.loadBootrom(new Uint32Array(rom.buffer, rom.byteOffset, rom.length / 4));
// UF2: 512-byte blocks, each a target address (offset 12), a payload size
// (offset 16) and the payload (from offset 32).
const uf2 = readFileSync(uf2Path);
for (let at = 0; at + 512 <= uf2.length; at += 512) {
  const address = uf2.readUInt32LE(at + 12);
  const size = uf2.readUInt32LE(at + 16);
  mcu.flash.set(uf2.subarray(at + 32, at + 32 + size), address - FLASH_START);
}
const image = fsPath ? readFileSync(fsPath) : Buffer.alloc(0);
mcu.flash.set(image, FS_OFFSET);
const imageFile = fsPath ? openSync(fsPath, 'r+') : null;

// ---- The flash chip, as the boot ROM's flash functions see it.
// rp2040js reads the flash (XIP) but does not emulate the QSPI flash chip
// behind it, so the pico-sdk's flash_range_erase/flash_range_program, which
// MicroPython's littlefs writes through, would change nothing. They drive the
// chip only through the boot ROM's functions, found by their two-letter codes
// in the ROM's function table; here the first instruction of each is a BKPT,
// and that breakpoint does the function's work on mcu.flash and returns.
// (A BKPT costs nothing per instruction, unlike checking the PC before each.)

// The ROM function with this two-letter code: the table's address is the
// 16-bit word at 0x14, and each entry is a 16-bit code ('I' | 'F' << 8 for
// 'IF') and a 16-bit Thumb address, up to a code of 0.
function romFunction(rom, name) {
  const code = name.charCodeAt(0) | (name.charCodeAt(1) << 8);
  for (let at = rom.readUInt16LE(0x14); rom.readUInt16LE(at); at += 4) {
    if (rom.readUInt16LE(at) === code) return rom.readUInt16LE(at + 2) & ~1;
  }
  throw new Error(`the boot ROM has no function ${name}`);
}

// Put a BKPT at the start of each flash function in `rom` (our copy of it);
// returns {address of the BKPT: what to do there, given r0..r3}.
function serveFlashFunctions(rom) {
  const nothing = () => {}; // switching the chip between XIP and commands: no chip to switch
  const served = {
    IF: nothing, // connect_internal_flash
    EX: nothing, // flash_exit_xip
    RE: eraseFlash, // flash_range_erase(offset, count, block size, block command)
    RP: programFlash, // flash_range_program(offset, data, count)
    FC: () => cache.flush(), // flash_flush_cache: the flash changed under the cache
    CX: nothing, // flash_enter_cmd_xip
  };
  const byAddress = {};
  for (const [name, serve] of Object.entries(served)) {
    const address = romFunction(rom, name);
    rom.writeUInt16LE(0xbe00, address); // BKPT #0
    byAddress[address] = serve;
  }
  return byAddress;
}

// NOR flash: erasing sets every bit of whole 4 KB sectors to 1...
function eraseFlash(offset, count) {
  mcu.flash.fill(0xff, offset, offset + count);
  keep(offset, count);
}

// ...and programming can only clear bits: the data is ANDed in.
function programFlash(offset, data, count) {
  for (let i = 0; i < count; i++) mcu.flash[offset + i] &= mcu.readUint8(data + i);
  keep(offset, count);
}

// Write a changed part of the flash through to the image file, so that it
// outlives this process as the flash outlives a power cut. Only the file
// system's part is kept: the firmware does not write elsewhere.
function keep(offset, count) {
  const start = Math.max(offset, FS_OFFSET);
  const end = Math.min(offset + count, FS_OFFSET + image.length);
  if (imageFile !== null && start < end) {
    writeSync(imageFile, mcu.flash, start, end - start, start - FS_OFFSET);
  }
}

// The CPU stops at a BKPT (core.PC is just past it): serve the ROM function
// whose first instruction it is, then return to the caller as its `bx lr`
// would (the caller is RAM code of the pico-sdk, running with interrupts
// off; the core only runs Thumb code, so the PC drops LR's Thumb bit).
const stopAtBreak = mcu.onBreak;
mcu.onBreak = (code) => {
  const { core } = mcu;
  const serve = servedRomFunctions[core.PC - 2];
  if (!serve) {
    stopAtBreak(code);
    return;
  }
  serve(core.registers[0], core.registers[1], core.registers[2], core.registers[3]);
  core.PC = core.LR & ~1;
};

// machine.reset() resets the chip through the watchdog: this process ends,
// for its runner to boot the board again from the same flash.
mcu.findPeripheral(0x40058000).onWatchdogTrigger = () => process.exit(REBOOT);

// The host side of the USB serial port. rp2040js's USBCDC answers the
// device's request for data at once, empty if it has none, which interrupts
// the firmware some 100,000 times a second: a request is held here until
// there is data, as a real host holds it (NAK). Bytes wait in `waiting`.
const cdc = new USBCDC(mcu.usbCtrl);
const waiting = [];
const held = {}; // endpoint -> size of a read request with no data for it yet
const usb = mcu.usbCtrl;
const cdcRead = usb.onEndpointRead;
let connected = false;
const feed = () => {
  const endpoint = cdc.outEndpoint;
  if (!connected || !waiting.length || held[endpoint] === undefined) return;
  const buffer = new Uint8Array(Math.min(held[endpoint], waiting.length));
  for (let i = 0; i < buffer.length; i++) buffer[i] = waiting.shift();
  delete held[endpoint];
  usb.endpointReadDone(endpoint, buffer);
};
usb.onEndpointRead = (endpoint, size) => {
  if (endpoint === 0) {
    cdcRead(endpoint, size);
  } else {
    held[endpoint] = size;
    feed();
  }
};
cdc.onDeviceConnected = () => {
  connected = true;
  feed();
};
cdc.onSerialData = (buffer) => process.stdout.write(Buffer.from(buffer));
process.stdin.on('data', (data) => {
  for (const byte of data) waiting.push(byte);
  feed();
});
process.stdin.on('end', () => {
  // Let the device finish what it was told, then stop.
  setTimeout(() => process.exit(0), 200);
});

// rp2040js leaves out the pads' pull resistors: an input that nothing
// drives reads as its pull-up or pull-down makes it (a button not pressed).
mcu.gpio.forEach((pin) => pin.addListener((state) => {
  if (state === GPIOPinState.InputPullUp || state === GPIOPinState.InputPullDown) {
    pin.setInputValue(state === GPIOPinState.InputPullUp);
  }
}));

// The switch matrix of firmware/micro960/device/sensor_matrix.py: a reed switch and
// a diode per square between its rank's row pin and its file's column pin.
// A column reads low while a row driven low has a piece in that column, and
// high otherwise (its pull-up). The board is an int, bit i for square i
// (a1 = 0, b1 = 1, ..., h8 = 63), as the host sends it.
if (matrix) {
  const [rows, columns, [fd]] = matrix.split(':').map((pins) => pins.split(',').map(Number));
  let occupied = 0n;
  const update = () => {
    columns.forEach((column, file) => {
      const low = rows.some((row, rank) => mcu.gpio[row].value === GPIOPinState.Low &&
                            (occupied >> BigInt(rank * 8 + file)) & 1n);
      mcu.gpio[column].setInputValue(!low);
    });
  };
  rows.forEach((row) => mcu.gpio[row].addListener(update));
  update();
  createInterface({ input: createReadStream(null, { fd }) }).on('line', (line) => {
    const [word, value] = line.split(' ');
    if (word === 'occupied') {
      occupied = BigInt('0x' + value);
      update();
    }
  });
}

// The device's timing (timing.mjs): its clock at the frequency the firmware
// sets, and the stalls of the flash behind the XIP cache.
const clock = deviceClock(mcu);
const cache = flashCache(mcu);
// Both of the RP2040's cores (cores.mjs): core 1 waits in the boot ROM
// until the firmware launches it.
const chip = twoCores(simulator, clock, cache);

// Start at boot2 in flash, as the boot ROM would after checking it (its
// flash reads through the SSI are not emulated).
mcu.core.PC = FLASH_START;
run(process.env.MICRO960_REAL_TIME_IDLE === '1');

// Run the cores, each instruction taking its cycles (and the stalls of the
// flash reads it made) at the clock's frequency of the moment (cores.mjs).
// rp2040js's own Simulator.execute() runs one core at a fixed 125 MHz with
// no stalls. While both cores wait for an interrupt or an event (WFE, WFI)
// the device's clock jumps to its next timer, and stands still when none is
// set: tests want that (they wait less). With `realTimeIdle` (a person at
// `micro960 emulator`, whose thinking time a board waiting for a move must
// count) the device's clock runs as this machine's does while they wait.
function run(realTimeIdle) {
  const time = simulator.clock;
  let waitingSince = null; // this machine's time (ns) the device's clock has caught up to
  simulator.stopped = false; // a BKPT that is not a flash function stops it
  const step = () => {
    for (let i = 0; i < 1000000 && !simulator.stopped;) {
      if (!chip.sleeping) {
        waitingSince = null;
        i += chip.run(1000000 - i);
        continue;
      }
      const alarm = time.nanosToNextAlarm; // 0: no timer set
      if (!realTimeIdle) {
        time.tick(alarm);
        i += 1 + alarm / clock.cycleNanos;
        continue;
      }
      const now = Number(process.hrtime.bigint());
      if (waitingSince === null) waitingSince = now;
      const behind = now - waitingSince;
      if (alarm > 0 && alarm <= behind) {
        time.tick(alarm); // a timer due in the time passed: it fires, as it would have
        waitingSince += alarm;
        i++;
        continue;
      }
      time.tick(behind); // caught up: let this machine's time pass, and input come in
      waitingSince = now;
      setTimeout(step, alarm > 0 ? Math.min(10, Math.ceil((alarm - behind) / 1e6)) : 10);
      return;
    }
    if (!simulator.stopped) setTimeout(step, 0);
  };
  step();
}
