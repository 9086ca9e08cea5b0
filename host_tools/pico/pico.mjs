// An emulated Raspberry Pi Pico running a MicroPython .uf2, its USB serial
// port on this process's stdin and stdout.
//   node pico.mjs FIRMWARE.uf2 BOOTROM.bin [LITTLEFS.img [ROWS:COLUMNS:FD]]
// ROWS:COLUMNS:FD (e.g. 2,3,4,5,6,7,8,9:10,11,12,13,14,15,16,17:5) wires a
// sensor board's switch matrix to those GPIO pins (see below); the pieces
// on it are read from file descriptor FD, a line `occupied HEX` at a time.
import { createReadStream, readFileSync } from 'fs';
import { createInterface } from 'readline';
import { ConsoleLogger, GPIOPinState, LogLevel, Simulator, USBCDC } from 'rp2040js';

const [uf2Path, bootromPath, fsPath, matrix] = process.argv.slice(2);
const FS_OFFSET = 0xa0000; // where RPI_PICO's MicroPython keeps littlefs
const FLASH_START = 0x10000000;

const simulator = new Simulator();
const mcu = simulator.rp2040;
mcu.logger = new ConsoleLogger(LogLevel.Error);
const rom = readFileSync(bootromPath);
mcu.loadBootrom(new Uint32Array(rom.buffer, rom.byteOffset, rom.length / 4));
// UF2: 512-byte blocks, each a target address (offset 12), a payload size
// (offset 16) and the payload (from offset 32).
const uf2 = readFileSync(uf2Path);
for (let at = 0; at + 512 <= uf2.length; at += 512) {
  const address = uf2.readUInt32LE(at + 12);
  const size = uf2.readUInt32LE(at + 16);
  mcu.flash.set(uf2.subarray(at + 32, at + 32 + size), address - FLASH_START);
}
if (fsPath) {
  mcu.flash.set(readFileSync(fsPath), FS_OFFSET);
}

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

// The switch matrix of firmware/micro960/sensor_matrix.py: a reed switch and
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

// Start at boot2 in flash, as the boot ROM would after checking it (its
// flash reads through the SSI are not emulated).
mcu.core.PC = FLASH_START;
simulator.execute();

