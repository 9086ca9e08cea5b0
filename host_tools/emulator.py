"""An emulated Raspberry Pi Pico running the real firmware, for tests and benchmarks.

The npm package rp2040js (host_tools/pico/pico.mjs on Node.js) runs stock
MicroPython for the Pico (host_tools/pico/firmware/micropython-1.28.0-rpi_pico.uf2,
with the RP2040 boot ROM beside it). Its flash holds, as littlefs at the
place MicroPython mounts it, the bundle `micro960 flash` would copy (main.py,
board.py, lib/micro960/*.mpy compiled for the Cortex-M0+), so the device
boots into micro960 as a flashed Pico does (or, with board=None, nothing:
a Pico fresh from MicroPython's .uf2). The host talks to it over the
emulated USB serial port: pico.mjs's stdin and stdout, line by line with
send() and read_until(), and byte for byte through serial_port(), a
pseudo-terminal that programs open as a serial port (mpremote: `micro960
flash --port`, `micro960 pull --port`).

The flash is writable: pico.mjs serves the boot ROM's flash functions (erase
and program, as NOR flash does them), through which MicroPython writes its
file system, and writes every change through to this board's own image
file. So files written on the device last: the console's saves, its
archive, what mpremote copies. power_cut() kills the emulator and boots the
board again from that image; machine.reset() (as `mpremote reset` does it)
boots it again too; soft_reset() only starts main.py again on a cleared
heap, as Ctrl-D at MicroPython's prompt does. files() reads the file system
on the host.

Time on the device is the emulated clock's (`time.ticks_ms()`), the only
clock to time it by: this machine runs it several times slower. It runs at
the frequency the firmware sets (200 MHz once micro960's main.py has set
it), and reads of the flash stall the CPU as the XIP cache makes them
(host_tools/pico/timing.mjs, which says what it leaves out); flash erases
and writes take no time on its clock (on a Pico, some milliseconds each). While the CPU waits (WFE, WFI) the clock jumps to the
next timer, and stands still with none set, unless real_time says so.

    with EmulatedPico() as pico:
        pico.read_until("micro960 on Raspberry Pi Pico")
        pico.send("uci")
        pico.read_until("uciok")

(read_until() waits for a line that starts with its text; tests/test_pico.py
runs this example as it stands.) `micro960 emulator` puts a person's terminal
on the board's serial port (host_tools/emulator_command.py).
"""
import os
import queue
import select
import shutil
import subprocess
import tempfile
import threading
import time
import tty
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


def filesystem_image(folder=None, extra=None):
    """A littlefs image of every file below `folder` (none without it), as
    MicroPython mounts it, and of `extra` {path: text} beside them."""
    from littlefs import LittleFS
    fs = LittleFS(block_size=FS_BLOCK_SIZE, block_count=FS_BLOCK_COUNT,
                  prog_size=FS_PROG_SIZE, read_size=32, lookahead_size=32)
    folder = Path(folder) if folder else None
    files = {}
    for path in sorted(folder.rglob("*")) if folder else ():
        name = path.relative_to(folder).as_posix()
        if path.is_dir():
            fs.makedirs(name, exist_ok=True)
        elif path.name != "manifest.json":
            files[name] = path.read_bytes()
    files.update((name, text.encode()) for name, text in (extra or {}).items())
    for name, data in files.items():
        with fs.open(name, "wb") as f:
            f.write(data)
    return bytes(fs.context.buffer)


def bundle(board="pico"):
    """The flash bundle for `board`, where `micro960 flash` builds it
    (build/flash/BOARD-armv6m): every process shares it (the tests run side
    by side), as build_bundle writes each file whole and compiles only what
    changed, so only the first emulated Pico of a run compiles it."""
    from . import flash
    folder = flash.FLASH_BUILD / ("%s-armv6m" % board)
    flash.build_bundle(folder, board, "armv6m")
    return folder


# pico.mjs's exit code when the firmware resets the chip (machine.reset()).
REBOOT = 3


class EmulatedPico:
    """The emulated board: send() lines to its USB serial port, read its lines."""

    def __init__(self, board="pico", extra=None, matrix=None, on_output=None,
                 real_time=False):
        """`board`: whose bundle the flash holds (None: none, a Pico fresh
        from MicroPython's .uf2, for `micro960 flash` to fill); `extra`:
        files {name: text} beside the bundle's (e.g. a board.py); `matrix`:
        (row pins, column pins) of a sensor board's switch matrix, whose
        pieces occupy() sets; `on_output`: a function given every chunk of
        bytes the board says, as it comes (a terminal shows them);
        `real_time`: the board's clock runs as this machine's while its CPU
        waits (for a person's keys), where it would stand still or jump
        to its next timer (see pico.mjs)."""
        reason = missing()
        if reason:
            raise runtime.ToolMissing(reason)
        folder = bundle(board) if board else None
        # This board's own flash: pico.mjs writes the device's saves into it.
        runtime.BUILD.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(prefix="pico-flash-", suffix=".img", dir=runtime.BUILD)
        os.close(handle)
        self.image = Path(name)
        self.image.write_bytes(filesystem_image(folder, extra if folder else None))
        self.lines = queue.Queue()
        self.said = []
        self.matrix = matrix
        self.on_output = on_output
        self.real_time = real_time
        self.occupied = None  # the pieces on the sensor board, as occupy() last set them
        self.pieces = None  # where occupy() writes, with a matrix
        self.port = None  # the pseudo-terminal's path once serial_port() made it
        self._port_fd = None
        self._stdin_lock = threading.Lock()  # send() and the port both write to the board
        self.closed = False
        self._start()

    def _start(self):
        """Switch the board on: boot the firmware from the flash image."""
        command = ["node", str(NODE_DIR / "pico.mjs"), str(PICO_FILES / FIRMWARE_UF2),
                   str(PICO_FILES / BOOTROM), str(self.image)]
        fds = ()
        if self.matrix:
            read_end, write_end = os.pipe()
            fds = (read_end,)
            command.append("%s:%d" % (":".join(",".join(str(pin) for pin in pins)
                                               for pins in self.matrix), read_end))
            self.pieces = os.fdopen(write_end, "w")
        process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            pass_fds=fds, env=dict(os.environ, MICRO960_REAL_TIME_IDLE="01"[self.real_time]))
        if fds:
            os.close(fds[0])
        self.process = process
        self._reader = threading.Thread(target=self._read, args=(process,), daemon=True)
        self._reader.start()
        if self.occupied is not None:
            self.occupy(self.occupied)  # the pieces are still on the board

    def occupy(self, occupied):
        """Put pieces on the sensor board's squares: bit i of `occupied` for
        square i (a1 = 0, h8 = 63), the rest empty."""
        self.occupied = occupied
        self.pieces.write("occupied %x\n" % occupied)
        self.pieces.flush()

    def _read(self, process):
        """Read what `process` says: lines for read_until(), and every byte to
        the serial port when there is one. When the firmware resets the chip,
        boot it again; when the emulator stops, a None line says so."""
        partial = b""
        for data in iter(lambda: process.stdout.read1(4096), b""):
            if self.on_output:
                self.on_output(data)
            self._to_port(data)
            partial += data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
            *done, partial = partial.split(b"\n")
            for line in done:
                self.lines.put(line.decode("utf-8", "replace"))
        if partial:
            self.lines.put(partial.decode("utf-8", "replace"))
        if process is not self.process or self.closed:
            return  # power_cut() or close() stopped it
        if process.wait() == REBOOT:
            self._start()
        else:
            self.lines.put(None)

    def power_cut(self):
        """Cut the power and switch it on again: the board boots from what
        its flash held at the cut (littlefs's last completed write). Lines
        said before the cut and not yet read are dropped."""
        process, self.process = self.process, None  # its reader thread lets it go
        process.kill()
        process.wait()
        self._reader.join()
        if self.pieces:
            self.pieces.close()
        while not self.lines.empty():
            self.lines.get()
        self._start()

    def soft_reset(self, at_prompt=False):
        """MicroPython's soft reset, Ctrl-D at its prompt: the heap cleared
        (the same free heap to the byte as after a boot) and main.py run
        again; the flash keeps its files. It costs half of what a boot does
        (some 0.7 s of this machine's CPU against 1.4). What runs is stopped
        first (Ctrl-C), unless `at_prompt` says the board is at the prompt
        already. Returns when main.py has started."""
        if not at_prompt:
            self.write(b"\x03")
            self.read_until('Type "help()" for more information.')
        self.write(b"\x04")
        self.read_until("MPY: soft reboot")

    def files(self):
        """The device's file system as it is now, read from its flash image:
        a littlefs.LittleFS (e.g. .open("games.pgn").read())."""
        from littlefs import LittleFS, UserContext
        return LittleFS(UserContext(buffer=bytearray(self.image.read_bytes())),
                        block_size=FS_BLOCK_SIZE, block_count=FS_BLOCK_COUNT,
                        prog_size=FS_PROG_SIZE, read_size=32, lookahead_size=32)

    def serial_port(self):
        """The path of a pseudo-terminal (e.g. /dev/pts/5) that is the board's
        USB serial port, for programs that open a serial port: mpremote,
        `micro960 pull --port`, `micro960 flash --port`. It stays the same
        across power cuts and resets, as /dev/serial/by-id/... does."""
        if self.port is None:
            self._port_fd, terminal = os.openpty()
            # The terminal side is held open, so the port lasts from one
            # program to the next; raw, so bytes pass as they are (no echo of
            # what the board says, no CR/LF changes, Ctrl-C and Ctrl-D are bytes).
            tty.setraw(terminal)
            self._terminal_fd = terminal
            self.port = os.ttyname(terminal)
            threading.Thread(target=self._from_port, args=(self._port_fd,), daemon=True).start()
        return self.port

    def _from_port(self, port):
        """Relay what programs write to the serial port to the board."""
        while True:
            try:
                data = os.read(port, 4096)
            except OSError:
                return  # close() closed the port
            if not data:
                return
            self.write(data)

    def _to_port(self, data):
        """Relay what the board says to the serial port. With no program
        reading the port its buffer fills; then the rest is dropped after a
        moment (as a board's output is with no terminal open), rather than
        stop the board: the next program starts with a Ctrl-C and reads on
        from there, as mpremote does."""
        port = self._port_fd
        while port is not None and data:
            try:
                if not select.select([], [port], [], 1.0)[1]:
                    return
                data = data[os.write(port, data):]
            except (OSError, ValueError):
                return  # close() closed the port

    def write(self, data):
        """Bytes to the board's serial port, as they are (keys as typed)."""
        with self._stdin_lock:
            try:
                self.process.stdin.write(data)
                self.process.stdin.flush()
            except (AttributeError, OSError, ValueError):
                pass  # the board is off (a power cut, a reset): the bytes are lost

    def send(self, text, end="\r\n"):
        self.write((text + end).encode())

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
        self.closed = True
        if self.pieces:
            self.pieces.close()
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        if self._port_fd is not None:
            port, self._port_fd = self._port_fd, None
            os.close(self._terminal_fd)  # first, so that a read of the port ends
            os.close(port)
        self.image.unlink(missing_ok=True)

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.close()
