"""An emulated Raspberry Pi Pico running the real firmware, for tests and benchmarks.

The npm package rp2040js (host_tools/pico/pico.mjs on Node.js) runs stock
MicroPython for the Pico (host_tools/pico/firmware/micropython-1.28.0-rpi_pico.uf2,
with the RP2040 boot ROM beside it). Its flash holds, as littlefs at the
place MicroPython mounts it, the bundle `micro960 flash` would copy (main.py,
board.py, lib/micro960/*.mpy compiled for the Cortex-M0+), so the device
boots into micro960 as a flashed Pico does. The host talks to it over the
emulated USB serial port: pico.mjs's stdin and stdout.

Time on the device is the emulated 125 MHz clock's (`time.ticks_ms()`), the
only clock to time it by: this machine runs it several times slower. The
emulator has no flash-cache (XIP) stalls, so a real Pico is somewhat slower.
It does not emulate flash writes either: files written on the device do not
last.

    with EmulatedPico() as pico:
        pico.read_until("press Enter")
        pico.send("uci")
        pico.read_until("uciok")
"""
import os
import queue
import shutil
import subprocess
import threading
import time
from pathlib import Path

from . import runtime

REPO = Path(__file__).resolve().parent.parent
NODE_DIR = REPO / "host_tools" / "pico"
# The stock firmware and boot ROM travel with the repository (firmware/README.md).
PICO_FILES = Path(os.environ.get("MICRO960_PICO") or NODE_DIR / "firmware")
FIRMWARE_UF2 = "micropython-1.28.0-rpi_pico.uf2"
BOOTROM = "rp2040-bootrom-b1.bin"
# RPI_PICO's littlefs: the last 1,408 KB of the 2 MB flash.
FS_BLOCK_SIZE = 4096
FS_BLOCK_COUNT = 352
FS_PROG_SIZE = 256


def missing():
    """Why the emulated Pico cannot run here, or None if it can."""
    for name in (FIRMWARE_UF2, BOOTROM):
        if not (PICO_FILES / name).exists():
            return "no %s in %s (the stock Pico firmware; see host_tools/pico/firmware/README.md)" % (
                name, PICO_FILES)
    if not shutil.which("node"):
        return "Node.js is not installed (apt install nodejs npm)"
    if not (NODE_DIR / "node_modules" / "rp2040js").exists():
        return "rp2040js is not installed (npm ci --prefix host_tools/pico)"
    try:
        import littlefs  # noqa: F401
    except ImportError:
        return "littlefs-python is not installed (pip install -r requirements.txt)"
    return None


def filesystem_image(folder):
    """A littlefs image of every file below `folder`, as MicroPython mounts it."""
    from littlefs import LittleFS
    fs = LittleFS(block_size=FS_BLOCK_SIZE, block_count=FS_BLOCK_COUNT,
                  prog_size=FS_PROG_SIZE, read_size=32, lookahead_size=32)
    folder = Path(folder)
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        if path.is_dir():
            fs.makedirs(name, exist_ok=True)
        elif path.name != "manifest.json":
            with fs.open(name, "wb") as f:
                f.write(path.read_bytes())
    return bytes(fs.context.buffer)


def bundle(board="pico", extra=None):
    """The flash bundle for `board` (build/pico-bundle), plus `extra` {path: text}."""
    from . import flash
    folder = runtime.BUILD / "pico-bundle"
    flash.build_bundle(folder, board, "armv6m")
    for name, text in (extra or {}).items():
        (folder / name).write_text(text)
    return folder


class EmulatedPico:
    """The emulated board: send() lines to its USB serial port, read its lines."""

    def __init__(self, board="pico", extra=None, matrix=None):
        """`extra`: files {name: text} beside the bundle's (e.g. a board.py);
        `matrix`: (row pins, column pins) of a sensor board's switch matrix,
        whose pieces occupy() sets."""
        reason = missing()
        if reason:
            raise runtime.ToolMissing(reason)
        folder = bundle(board, extra)
        self.image = runtime.BUILD / "pico-flash.img"
        self.image.write_bytes(filesystem_image(folder))
        for name in (extra or {}):
            (folder / name).unlink()  # the next bundle is the plain one again
        self.lines = queue.Queue()
        self.said = []
        command = ["node", str(NODE_DIR / "pico.mjs"), str(PICO_FILES / FIRMWARE_UF2),
                   str(PICO_FILES / BOOTROM), str(self.image)]
        self.pieces = None  # where occupy() writes, with a matrix
        fds = ()
        if matrix:
            read_end, write_end = os.pipe()
            fds = (read_end,)
            command.append("%s:%d" % (":".join(",".join(str(pin) for pin in pins)
                                               for pins in matrix), read_end))
            self.pieces = os.fdopen(write_end, "w")
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            pass_fds=fds)
        if fds:
            os.close(fds[0])
        threading.Thread(target=self._read, daemon=True).start()

    def occupy(self, occupied):
        """Put pieces on the sensor board's squares: bit i of `occupied` for
        square i (a1 = 0, h8 = 63), the rest empty."""
        self.pieces.write("occupied %x\n" % occupied)
        self.pieces.flush()

    def _read(self):
        partial = b""
        for data in iter(lambda: self.process.stdout.read1(4096), b""):
            partial += data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
            *done, partial = partial.split(b"\n")
            for line in done:
                self.lines.put(line.decode("utf-8", "replace"))
        if partial:
            self.lines.put(partial.decode("utf-8", "replace"))
        self.lines.put(None)

    def send(self, text, end="\r\n"):
        self.process.stdin.write((text + end).encode())
        self.process.stdin.flush()

    def read_until(self, done, timeout=120):
        """The lines up to the first that starts with `done` (a string) or
        for which done(line) is true; AssertionError after `timeout` seconds
        of this machine's time, or if the device stops."""
        test = done if callable(done) else (lambda line: line.startswith(done))
        deadline = time.monotonic() + timeout
        seen = []
        while True:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError("the Pico said no %r within %s s; last: %r"
                                     % (done, timeout, seen[-8:]))
            if line is None:
                raise AssertionError("the emulator stopped: %r" % seen[-8:])
            seen.append(line)
            self.said.append(line)
            if test(line):
                return seen

    def close(self):
        if self.pieces:
            self.pieces.close()
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.close()
