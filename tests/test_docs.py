"""README.md and docs/*.md: every command they show works, every link resolves.

A code block's lines are checked as the HTML comment before it says
(docs/developing.md, "These pages", lists the markers): `run` runs each line
for real, `parse` checks a long or hardware command's options against the
command's own parser without running it (`make -n` for make), `external`
wants each `micro960 COMMAND` inside another program's line to exist, `text`
is not commands. An `sh` or `python` block without a marker fails here, so a
new command cannot slip in unchecked.

Also: the wiring pictures are what docs/wiring.py draws from the board
files, the pin table agrees with them, README stays short and names every
make target and micro960 command.
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from conftest import REPO

from host_tools import bridge, cli, emulator_command, flash, match, pull

PAGES = [REPO / "README.md"] + sorted((REPO / "docs").glob("*.md"))
MARKER = re.compile(r"<!--\s*docs-test:\s*(run|parse|external|text)((?:\s+\w+=\S+)*)\s*-->")
FENCE = re.compile(r"^```(\w*)\s*$")
VENV_BIN = REPO / ".venv" / "bin"
TIMEOUT = 120


# ----------------------------------------------------------------- the blocks

def code_blocks(page):
    """(page, line number, language, marker or None, options, text) of each fenced block."""
    lines = page.read_text().split("\n")
    blocks = []
    i = 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if not fence:
            i += 1
            continue
        start = i
        end = i + 1
        while not lines[end].startswith("```"):
            end += 1
        before = [line for line in lines[:start] if line.strip()][-1:]
        marker = MARKER.search(before[0]) if before else None
        options = dict(word.split("=", 1) for word in marker.group(2).split()) if marker else {}
        blocks.append((page, start + 1, fence.group(1), marker and marker.group(1), options,
                       "\n".join(lines[start + 1:end])))
        i = end + 1
    return blocks


def commands(text):
    """The block's commands: continuation lines joined, blank lines left out."""
    return [line.strip() for line in text.replace("\\\n", " ").split("\n") if line.strip()]


BLOCKS = [block for page in PAGES for block in code_blocks(page)]


def block_id(block):
    return "%s:%d" % (block[0].relative_to(REPO), block[1])


def test_every_shell_or_python_block_says_how_it_is_checked():
    unmarked = [block_id(block) for block in BLOCKS
                if block[2] in ("sh", "bash", "python") and block[3] is None]
    assert not unmarked, "a code block without <!-- docs-test: ... --> before it"


# ------------------------------------------------------------------------ run

def run_line(line, stdin, games):
    env = dict(os.environ, MICRO960_GAMES=games,
               PATH="%s:%s:/usr/games" % (VENV_BIN, os.environ.get("PATH", "")))
    try:
        done = subprocess.run(["bash", "-c", line], cwd=REPO, env=env, input=stdin,
                              capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return "timed out after %d s: %s" % (TIMEOUT, line)
    if done.returncode != 0:
        return "exit status %d: %s\n%s" % (done.returncode, line, (done.stdout +
                                                                  done.stderr)[-1500:])
    return None


def test_the_commands_run(tmp_path):
    """Every line of a `run` block exits with status 0 (side by side: each is
    its own process, mostly waiting on MicroPython or the engine)."""
    jobs = []
    for block in BLOCKS:
        page, line_number, language, marker, options, text = block
        if marker != "run":
            continue
        stdin = options.get("stdin", "").replace(",", "\n") + "\n"
        if language == "python":
            script = tmp_path / ("block%d.py" % len(jobs))
            script.write_text(text)
            jobs.append((block_id(block), "%s %s" % (VENV_BIN / "python", script), stdin))
        else:
            jobs.extend((block_id(block), line, stdin) for line in commands(text))
    assert jobs
    with ThreadPoolExecutor(max_workers=2) as pool:
        failures = list(pool.map(
            lambda job: (job[0], run_line(job[1], job[2], tempfile.mkdtemp(dir=tmp_path))),
            jobs))
    failed = ["%s: %s" % (where, why) for where, why in failures if why]
    assert not failed, "\n\n".join(failed)


# ---------------------------------------------------------------------- parse

def own_parser(command):
    """The argparse parser of a micro960 command that has one, else None."""
    parsers = {"flash": flash.build_parser, "pull": pull.build_parser,
               "bridge": bridge.build_parser, "match": match.build_parser,
               "emulator": emulator_command.build_parser}
    if command in parsers:
        return parsers[command]()
    return None


def firmware_help(command):
    done = subprocess.run([sys.executable, "-m", "host_tools", command, "--help"],
                          capture_output=True, text=True, cwd=REPO, timeout=60)
    return done.stdout + done.stderr


def parse_problem(line):
    """Why `line` would not parse, or None (a pipe's last command is the one checked)."""
    words = shlex.split(line.rsplit("|", 1)[-1], comments=True)
    while words and re.fullmatch(r"[A-Z_]+=.*", words[0]):
        words = words[1:]  # VARIABLE=value before the command
    program, args = Path(words[0]).name, words[1:]
    if program == "make":
        done = subprocess.run(["make", "-n"] + args, cwd=REPO, capture_output=True,
                              text=True, timeout=60)
        return None if done.returncode == 0 else done.stderr
    if program != "micro960":
        return "a parse block runs only make and micro960, not %s" % program
    try:
        if args[0] == "bench":
            cli.build_parser().parse_args(args)
        elif own_parser(args[0]) is not None:
            own_parser(args[0]).parse_args(args[1:])
        else:  # the firmware's own commands: cli's options, then what its help names
            known, rest = cli.build_parser().parse_known_args(args)
            shown = firmware_help(args[0])
            unknown = [word for word in rest if word.startswith("--")
                       and not re.search(re.escape(word) + r"\b", shown)]
            if unknown:
                return "micro960 %s has no %s" % (args[0], " ".join(unknown))
    except SystemExit:
        return "argparse refused it"
    return None


def test_the_long_commands_parse(capsys):
    lines = [(block_id(block), line) for block in BLOCKS if block[3] == "parse"
             for line in commands(block[5])]
    assert lines
    failed = ["%s: %s: %s" % (where, line, why) for where, line in lines
              for why in [parse_problem(line)] if why]
    assert not failed, "\n".join(failed)


def test_a_command_that_would_not_work_is_found():
    assert parse_problem("make play ARGS=--sp") is None
    assert parse_problem("make nosuchtarget")
    assert parse_problem(".venv/bin/micro960 flash --board nosuchboard")
    assert parse_problem(".venv/bin/micro960 bench --nosuch")
    assert parse_problem(".venv/bin/micro960 match --opponent sf --nosuch 1")
    assert parse_problem(".venv/bin/micro960 play --nosuch") == "micro960 play has no --nosuch"
    assert parse_problem("cutechess-cli -engine cmd=micro960")
    assert run_line("false", "", tempfile.mkdtemp()).startswith("exit status 1")


def subcommands():
    return set(cli.build_parser()._subparsers._group_actions[0].choices)


def test_the_micro960_commands_inside_other_programs_exist():
    lines = [(block_id(block), line) for block in BLOCKS if block[3] == "external"
             for line in commands(block[5])]
    assert lines
    for where, line in lines:
        named = re.findall(r"""(?:^|[\s"'/=])micro960\s+(?:arg=)?([a-z][a-z-]*)""", line)
        assert named, "%s: no micro960 command in %s" % (where, line)
        assert set(named) <= subcommands(), (where, line)


# ---------------------------------------------------------------------- links

def slug(heading):
    """A heading's anchor as GitHub makes it."""
    words = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return words.replace(" ", "-")


def anchors(page):
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)
    return {slug(match.group(1)) for match in re.finditer(r"^#+ (.*)$", text, re.M)}


def links(page):
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)
    text = re.sub(r"`[^`]*`", "", text)
    return re.findall(r"\]\(([^)\s]+)\)", text)


def test_every_link_between_the_pages_resolves():
    broken = []
    for page in PAGES:
        for target in links(page):
            if re.match(r"[a-z]+:", target):
                continue  # a web address
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            if not file.exists():
                broken.append("%s: %s (no such file)" % (page.name, target))
            elif anchor and file.suffix == ".md" and anchor not in anchors(file):
                broken.append("%s: %s (no such heading)" % (page.name, target))
    assert not broken, "\n".join(broken)


def test_a_broken_link_is_found(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# Title\n\n[here](#title) [gone](#nothing) [file](missing.md)\n")
    assert links(page) == ["#title", "#nothing", "missing.md"]
    assert anchors(page) == {"title"}
    assert slug("1. MicroPython on the Pico") == "1-micropython-on-the-pico"
    assert slug("On a Pico's serial port") == "on-a-picos-serial-port"


# --------------------------------------------------------------------- README

def test_the_readme_is_short_and_names_every_target_and_command():
    readme = (REPO / "README.md").read_text()
    assert len(readme.split("\n")) <= 250
    makefile = (REPO / "Makefile").read_text()
    targets = set(re.search(r"^\.PHONY: (.*)$", makefile, re.M).group(1).split())
    listed = set(re.findall(r"^\| `make (\w+)` \|", readme, re.M))
    assert listed == targets
    assert not [name for name in sorted(subcommands()) if "micro960 %s" % name not in readme
                and "`%s`" % name not in readme]


# --------------------------------------------------------------------- wiring

sys.path.insert(0, str(REPO / "docs"))
import wiring  # noqa: E402  (docs/wiring.py)

PIN_SETTINGS = ("MATRIX_ROW_PINS", "MATRIX_COL_PINS", "SHIFT165_LOAD_PIN", "SHIFT165_CLOCK_PIN",
                "SHIFT165_DATA_PIN", "MCP23017_SDA_PIN", "MCP23017_SCL_PIN", "MCP23017_I2C",
                "MCP23017_ADDRESSES", "LED_PIN", "SHIFT595_DATA_PIN", "SHIFT595_CLOCK_PIN",
                "SHIFT595_LATCH_PIN", "PROMOTION_BUTTON_PIN", "MOVE_NOW_BUTTON_PIN",
                "DISPLAY_SDA_PIN", "DISPLAY_SCL_PIN", "DISPLAY_I2C", "DISPLAY_ADDRESS")


def test_the_three_picos_share_the_pictures_pins():
    pico = flash.board_config("pico")
    for name in ("pico2", "picow"):
        other = flash.board_config(name)
        assert [getattr(other, s) for s in PIN_SETTINGS] == \
            [getattr(pico, s) for s in PIN_SETTINGS], name


def test_the_wiring_pictures_are_drawn_from_the_board_file():
    config = flash.board_config("pico")
    drawn = wiring.drawings(config)
    for name, text in drawn.items():
        assert (REPO / "docs" / name).read_text() == text, \
            "docs/%s is stale: run .venv/bin/python docs/wiring.py" % name
    pins = {"wiring-matrix.svg": config.MATRIX_ROW_PINS + config.MATRIX_COL_PINS,
            "wiring-shift165.svg": (config.SHIFT165_LOAD_PIN, config.SHIFT165_CLOCK_PIN,
                                    config.SHIFT165_DATA_PIN),
            "wiring-mcp23017.svg": (config.MCP23017_SDA_PIN, config.MCP23017_SCL_PIN),
            "wiring-ws2812.svg": (config.LED_PIN,),
            "wiring-shift595.svg": (config.SHIFT595_DATA_PIN, config.SHIFT595_CLOCK_PIN,
                                    config.SHIFT595_LATCH_PIN),
            "wiring-display.svg": (config.DISPLAY_SDA_PIN, config.DISPLAY_SCL_PIN,
                                   config.PROMOTION_BUTTON_PIN)}
    for name, numbers in pins.items():
        shown = set(int(n) for n in re.findall(r">GP(\d+)<", drawn[name]))
        assert shown == set(numbers), name
    page = (REPO / "docs" / "sensor-board.md").read_text()
    assert not [name for name in drawn if "(%s)" % name not in page]


def gp_numbers(cell):
    """GP2-GP9 -> [2..9]; GP0, GP1, GP21 -> [0, 1, 21]."""
    numbers = []
    for first, last in re.findall(r"GP(\d+)(?:-GP(\d+))?", cell):
        numbers += list(range(int(first), int(last or first) + 1))
    return numbers


def test_the_pin_table_agrees_with_the_board_files():
    page = (REPO / "docs" / "sensor-board.md").read_text()
    rows = re.findall(r"^\| [^|]+ \| `([A-Z0-9_/]+)` \| ([^|]+) \| ([^|]+) \| ([^|]+) \|$",
                      page, re.M)
    assert len(rows) >= 8
    for setting, *cells in rows:
        if setting == "MOVE_NOW_BUTTON_PIN":
            continue  # none by default; the text names the free pin
        stem, _, suffixes = setting.partition("/")
        if suffixes:  # SHIFT165_LOAD/CLOCK/DATA_PIN
            head, tail = stem.rsplit("_", 1)[0], setting.rsplit("_", 1)[1]
            names = ["%s_%s_%s" % (head, word, tail)
                     for word in [stem.rsplit("_", 1)[1]] + suffixes.split("_")[0].split("/")]
        else:
            names = [setting]
        for board, cell in zip(("pico", "pico2", "picow"), cells):
            config = flash.board_config(board)
            expected = []
            for name in names:
                value = getattr(config, name)
                expected += list(value) if isinstance(value, tuple) else [value]
            assert gp_numbers(cell) == expected, (setting, board, cell)


def test_the_board_file_table_gives_the_firmware_defaults():
    from micro960.device.board import DEFAULTS
    page = (REPO / "docs" / "sensor-board.md").read_text()
    section = page[page.index("## The board file"):page.index("## Playing on it")]
    rows = re.findall(r"^\| `([A-Z_0-9]+)` \| ([^|]+) \|", section, re.M)
    assert len(rows) >= 10
    for name, shown in rows:
        assert shown.strip().strip("`") == repr(DEFAULTS[name]).replace("'", '"'), name


def test_every_uci_option_and_xboard_feature_is_in_the_gui_page():
    page = (REPO / "docs" / "gui.md").read_text()
    uci = subprocess.run([sys.executable, "-m", "host_tools", "uci"], input="uci\nquit\n",
                         capture_output=True, text=True, cwd=REPO, timeout=60).stdout
    options = re.findall(r"^option name (.+?) type ", uci, re.M)
    assert options and not [name for name in options if "`%s`" % name not in page]
    xboard = subprocess.run([sys.executable, "-m", "host_tools", "xboard"],
                            input="xboard\nprotover 2\nquit\n", capture_output=True,
                            text=True, cwd=REPO, timeout=60).stdout
    features = set(re.findall(r"(\w+)=\d", xboard)) - {"done"}  # done: the list ends
    declared = page[page.index("It declares"):page.index("and the variants")]
    assert features and not [name for name in features if name not in declared]


def test_the_layout_lists_every_firmware_module():
    """docs/developing.md's layout names each module of firmware/micro960 in
    its folder, and no module that is gone."""
    page = (REPO / "docs" / "developing.md").read_text()
    layout = page[page.index("firmware/micro960/"):]
    layout = layout[:layout.index("```")]
    listed, folder = set(), ""
    for line in layout.split("\n")[1:]:
        words = line.split()
        if not words or line.startswith("firmware/main.py"):
            break
        indent = len(line) - len(line.lstrip())
        if words[0].endswith("/") and indent == 2:
            folder = words[0]
        elif words[0].endswith(".py"):
            listed.add((folder if indent == 4 else "") + words[0])
    package = REPO / "firmware" / "micro960"
    present = {path.relative_to(package).as_posix() for path in package.rglob("*.py")}
    assert sorted(present - listed) == [] and sorted(listed - present) == []
