#!/usr/bin/env python3
"""Move micro960's firmware into sub-packages by concern (issue 26).

A one-off: it is kept until the move lands, and removed with it. Run on
main at stop 28 it moved everything and the tests passed, but the folders
cost the emulated Pico's console 1,440 bytes of heap against the 1 KB the
issue allows (about 130 bytes a package object, 470 for the longer module
and file names), so the move waits for that room.

    python3 host_tools/relayout.py CHECKOUT          # then review `git diff`, run the tests, commit
    python3 host_tools/relayout.py CHECKOUT --dry-run  # only the report

In the git checkout CHECKOUT (its working tree; no commit is made) it

1. `git mv`s each module of firmware/micro960/ to its place in MODULES
   (micro960/eboard/game.py -> micro960/eboard/game.py): five sub-packages,
   the issue's five concerns (rules, engine, text front ends, sensor board,
   device with its drivers), as folders without __init__.py (see PACKAGES);
   compat.py and cpython.py, which every module imports, stay at the top;
2. `git mv`s each test module of tests/firmware/ into the folder of what it
   tests (TESTS); the helpers (support.py, ...) stay at the top, where
   conftest.py and mprun.py find them;
3. rewrites every reference to a moved module in firmware/, boards/,
   host_tools/, tests/, the README and the Makefile, in the forms the project
   writes: `from .x import a` and `from . import x` (made absolute: `from
   micro960.rules.variants.fen import parse`, see ABSOLUTE), `from micro960 import x`
   (in code, and in code run on a board as a string, where statements are
   joined by "; "), `from micro960.x import a`, `import micro960.x`,
   micro960.x anywhere (sys.modules keys, strings), the names
   compat.load()/release() take ("console_commands" -> "text.console_commands"),
   the places in host_tools/flash.py's PC_ONLY and tests/test_flash.py's
   lists (SLASH_LINES), micro960/x.py and tests/firmware/test_x.py paths in
   text, and `x.py` file names in the firmware's docstrings and comments;
4. writes package.json's mip list from the new tree, and the README's
   Layout block from the tables' descriptions;
5. reports what it could not map: a module or test module not in the
   tables (it stays where it is; its imports are rewritten all the same),
   `x.py` names it left because they are ambiguous (board.py is also
   boards/NAME/board.py), lines that still name a module the new tree
   does not have, and lines now longer than 100 characters.

It is deterministic and works on any checkout of the flat layout (main
after other branches merged in): the rewriting is by regular expressions
over all files, not a patch. It refuses a checkout laid out already.

Not handled (review by hand after a run): prose naming a module without
`.py` or `micro960.` (a `console_setup.SetUpPhase` in a comment), the order
of import lines (they stay where they were, not sorted), lines it made
longer than 100 characters (listed), and any new way of naming a module in
a string that the forms above do not cover (the leftover check catches the
`micro960.` and `micro960/` ones).
"""
import json
import os
import re
import subprocess
import sys

# ------------------------------------------------------------------ tables

# Sub-packages: name -> what the README's Layout says of it. They are folders
# without __init__.py (namespace packages, which MicroPython and CPython both
# import): on a board an __init__.mpy, even an empty one, costs about 100
# bytes of heap a package (measured on the emulated Pico), and each mode
# loads three packages (UCI, console, XBoard) or four (the sensor board).
# Five packages, not more: each a mode loads costs heap (its module object,
# its folder's name in each of its modules' names and file names).
PACKAGES = {
    "rules": "the rules of chess and Chess960 (imports nothing above it)",
    "engine": "the engine (imports the rules)",
    "text": "the text front ends: console, UCI, XBoard, line input, command line",
    "eboard": "the electronic chessboard (sensor board)",
    "device": "the device: drivers (import nothing of chess), settings, clock, saves",
}

# Old module (firmware/micro960/OLD.py) -> (new place below micro960/, what it holds).
# A new place without a folder stays at the package's top.
MODULES = [
    ("__init__", "__init__", "the package: VERSION"),
    ("compat", "compat", "the micropython module or CPython stand-ins; load/release on demand"),
    ("cpython", "cpython", "CPython's stand-ins for MicroPython's"),
    ("position", "rules/position", "the 10x12 mailbox board, make/unmake, hashing"),
    ("fen", "rules/fen", "FEN in and out (loaded when a position is set up or written)"),
    ("movegen", "rules/movegen", "pseudo-legal and legal moves, Chess960 castling, perft"),
    ("startpos", "rules/startpos", "set-up numbers of each rule set, random and die-roll set-ups"),
    ("rules", "rules/variants", "the rule sets: what each allows"),
    ("setup", "rules/setup", "the set-up phase: back-rank pieces placed in turn"),
    ("notation", "rules/notation", "SAN move text"),
    ("ucimove", "rules/ucimove", "UCI move text"),
    ("pgn", "rules/pgn", "PGN out and in"),
    ("replay", "rules/replay", "micro960 replay: the games of a PGN file replayed by the rules"),
    ("history", "rules/history", "the moves and repetition keys of a game, all UCI keeps"),
    ("game", "rules/game", "a game: history, repetition, results, undo, save"),
    ("search", "engine/search", "iterative deepening; alpha-beta with its pruning, one viper loop"),
    ("quiescence", "engine/quiescence", "the capture search at the leaves, one viper loop"),
    ("evaluate", "engine/evaluate", "the evaluation"),
    ("see", "engine/see", "static exchange evaluation: what a capture wins or loses"),
    ("ordering", "engine/ordering", "move ordering: hash move, captures, killers, history"),
    ("tt", "engine/tt", "the transposition table"),
    ("skill", "engine/skill", "playing below full strength (loaded at levels below 20)"),
    ("bench", "engine/bench", "the search benchmark"),
    ("board", "device/board", "board settings: /board.py read, checked, defaults"),
    ("clock", "device/clock", "chess clocks: time controls, increments, flag fall"),
    ("storage", "device/storage", "saved games: the game in progress and the archive"),
    ("selftest", "device/selftest", "the self-test micro960 flash runs on the board"),
    ("sensor_matrix", "device/sensor_matrix", "reed switches in a matrix on GPIO pins"),
    ("sensor_shift165", "device/sensor_shift165", "sensors through 74HC165 shift registers"),
    ("sensor_mcp23017", "device/sensor_mcp23017", "sensors on MCP23017 I2C expanders"),
    ("led_ws2812", "device/led_ws2812", "WS2812 (NeoPixel) LEDs"),
    ("led_shift595", "device/led_shift595", "LEDs through 74HC595 shift registers"),
    ("ssd1306", "device/ssd1306", "the SSD1306 OLED's I2C driver"),
    ("occupancy", "device/occupancy", "8 rank bytes <-> a 64-bit occupancy"),
    ("eboard", "eboard/moves", "sensor events -> moves (pure logic, no pins)"),
    ("eboard_game", "eboard/game", "a game on a sensor board: inference, engine, clock, LEDs"),
    ("eboard_ponder", "eboard/pondering", "the sensor board's engine thinking on the player's "
                                          "time"),
    ("eboard_setup", "eboard/setup", "the set-up phase on a sensor board"),
    ("eboard_sim", "eboard/sim", "the eboard-sim command"),
    ("sensorboard", "eboard/sensorboard", "the device loop of a sensor board"),
    ("scanner", "eboard/scanner", "steady scanning"),
    ("debounce", "eboard/debounce", "debouncing"),
    ("display", "eboard/display", "what the OLED shows"),
    ("console", "text/console", "the text game: board, moves, the engine's replies"),
    ("console_commands", "text/console_commands", "commands typed now and then (loaded when typed)"),
    ("console_help", "text/console_help", "the help text (loaded when asked for)"),
    ("console_resume", "text/console_resume", "a saved game taken up at start (loaded for it)"),
    ("console_setup", "text/console_setup", "the set-up phase at the console (loaded for it)"),
    ("pondering", "text/pondering", "the console thinking on the person's time"),
    ("play", "text/play", "micro960 play's command line (a PC's; a board starts the console)"),
    ("uci", "text/uci", "the UCI engine"),
    ("xboard", "text/xboard", "the XBoard engine"),
    ("lines", "lines", "the serial line every mode reads: terminals and GUIs, edited lines, "
                       "polling"),
    ("threadedlines", "threadedlines", "a PC's line input read by a thread"),
    ("commands", "text/commands", "the firmware's command line: perft, startpos, "
                                           "replay, play, uci, ... on both runtimes"),
]

# tests/firmware/TEST.py -> its folder (the package it tests).
TESTS = {
    "test_position": "rules", "test_perft": "rules", "test_startpos": "rules",
    "test_rules": "rules", "test_lrs": "rules", "test_notation": "rules", "test_pgn": "rules",
    "test_game": "rules", "test_pgn_files": "rules", "test_rules_castling": "rules",
    "test_search": "engine", "test_quiescence": "engine", "test_evaluate": "engine",
    "test_see": "engine", "test_ordering": "engine", "test_tt": "engine",
    "test_selective": "engine",
    "test_storage": "device",
    "test_drivers": "device",
    "test_eboard": "eboard", "test_eboard_clock": "eboard", "test_eboard_ponder": "eboard",
    "test_display": "eboard",
    "test_console": "text", "test_console_clock": "text", "test_console_input": "text",
    "test_console_ponder": "text", "test_console_rules": "text", "test_console_saved": "text",
}
HELPERS = ("support", "console_driver", "fake_hardware", "power_cut")

# Written in text as a file name, yet ambiguous: left alone, reported.
AMBIGUOUS_FILE_NAMES = ("board", "setup", "rules", "game", "commands", "__init__")

OLD = dict((old, new) for old, new, _ in MODULES)
SCAN_DIRS = ("firmware", "boards", "host_tools", "tests")
SCAN_FILES = ("README.md", "Makefile")


# ------------------------------------------------------------------ moving

def git(checkout, *args):
    return subprocess.run(("git", "-C", checkout) + args, check=True, capture_output=True,
                          text=True).stdout


def move_files(checkout, dry_run, report):
    firmware = os.path.join(checkout, "firmware", "micro960")
    present = sorted(name[:-3] for name in os.listdir(firmware) if name.endswith(".py"))
    for name in present:
        if name not in OLD:
            report.append("module not in the table, left at micro960/%s.py" % name)
    for package in PACKAGES:
        if not dry_run:
            os.makedirs(os.path.join(firmware, package), exist_ok=True)
    for old, new, _ in MODULES:
        if old == new or old not in present:
            if old not in present and old != new:
                report.append("module in the table but not in the checkout: %s" % old)
            continue
        if not dry_run:
            git(checkout, "mv", "firmware/micro960/%s.py" % old, "firmware/micro960/%s.py" % new)
    tests = os.path.join(checkout, "tests", "firmware")
    for name in sorted(os.listdir(tests)):
        if not name.endswith(".py"):
            continue
        stem = name[:-3]
        if stem in TESTS:
            if not dry_run:
                os.makedirs(os.path.join(tests, TESTS[stem]), exist_ok=True)
                git(checkout, "mv", "tests/firmware/%s" % name,
                    "tests/firmware/%s/%s" % (TESTS[stem], name))
        elif stem not in HELPERS:
            report.append("test module not in the table, left at tests/firmware/%s" % name)


# --------------------------------------------------------------- rewriting

def old_module_of(path, checkout):
    """The old module name of a file of firmware/micro960/ ('fen'), else None."""
    rel = os.path.relpath(path, os.path.join(checkout, "firmware", "micro960"))
    if rel.startswith("..") or os.sep in rel or not rel.endswith(".py"):
        return None
    return rel[:-3]


def relative(my_package, new):
    """From a module in package `my_package` ('rules', '' at the top), how to
    name module `new` ('engine/search'): (package to import from, leaf),
    e.g. ('..engine', 'search'), ('.', 'fen'), ('..', 'compat')."""
    here = my_package.split("/") if my_package else []
    parts = new.split("/")
    common = 0
    while common < len(here) and common < len(parts) - 1 and here[common] == parts[common]:
        common += 1
    return "." * (len(here) - common + 1) + ".".join(parts[common:-1]), parts[-1]


# The firmware imports its modules by their full names (from
# micro960.rules.variants.game import Game), not relative ones (from ..rules.game):
# on a board the import's name is then the very string of the module's name,
# where a relative one is one string more (about 100 bytes of heap with the
# console loaded, measured on the emulated Pico).
ABSOLUTE = True


def module_spec(package, leaf):
    """('..engine', 'search') -> '..engine.search'; ('.', 'fen') -> '.fen'."""
    return package + leaf if package.endswith(".") else package + "." + leaf


def absolute(new):
    """('micro960.rules.variants', 'fen') for rules/fen; ('micro960', 'compat') for compat."""
    package, _, leaf = new.rpartition("/")
    return ("micro960." + package.replace("/", ".")) if package else "micro960", leaf


def split_names(names, place, own_package):
    """`a, b as c` imported from the package: [(package, `leaf [as name]`)],
    each module at its new place (place(new) -> (package, leaf)); other
    names (VERSION) stay with `own_package`."""
    groups = []
    for item in names.split(","):
        item = item.strip()
        if not item:
            continue
        name, _, alias = item.partition(" as ")
        name, alias = name.strip(), alias.strip()
        if name in OLD:
            package, leaf = place(OLD[name])
            bound = alias or name
            text = leaf if leaf == bound else "%s as %s" % (leaf, bound)
        else:
            package, text = own_package, item
        for group in groups:
            if group[0] == package:
                group[1].append(text)
                break
        else:
            groups.append((package, [text]))
    return groups


def statements(groups, joiner):
    return joiner.join("from %s import %s" % (package, ", ".join(texts))
                       for package, texts in groups)


def rewrite_relative(text, my_package):
    """`from .x import ...` and `from . import x, y` in a module now in
    `my_package`: absolute imports (ABSOLUTE) or relative to its new place."""
    def place(new):
        return absolute(new) if ABSOLUTE else relative(my_package, new)

    def from_module(match):
        indent, name, rest = match.groups()
        if name not in OLD:
            return match.group(0)
        return "%sfrom %s import %s" % (indent, module_spec(*place(OLD[name])), rest)

    def from_package(match):
        indent, names, comment = match.groups()
        own = place("x")[0] if ABSOLUTE else "." * (len(my_package.split("/")) + 1
                                                    if my_package else 1)
        groups = split_names(names, place, own)
        return indent + statements(groups, "\n" + indent) + ("  " + comment if comment else "")

    text = re.sub(r"(?m)^([ \t]*)from \.(\w+) import (.*)$", from_module, text)
    return re.sub(r"(?m)^([ \t]*)from \. import ([\w, ]+?)[ \t]*(#.*)?$", from_package, text)


def rewrite_absolute(text):
    """`from micro960 import x` (statements, and code in strings, where the
    statements are joined by '; '), micro960.x anywhere, micro960/x.py paths."""
    def at_line(match):
        indent, names, comment = match.groups()
        groups = split_names(names, absolute, "micro960")
        return indent + statements(groups, "\n" + indent) + ("  " + comment if comment else "")

    # micro960.x first: what the `from micro960 import` forms below write
    # (micro960.rules.variants) may be an old module's name too.
    moved = "|".join(sorted((old for old in OLD if OLD[old] != old), key=len, reverse=True))
    text = re.sub(r"\bmicro960\.(%s)\b(?![\w/])" % moved,
                  lambda m: "micro960." + OLD[m.group(1)].replace("/", "."), text)
    text = re.sub(r"\bmicro960/(%s)\.(py|mpy)\b" % moved,
                  lambda m: "micro960/%s.%s" % (OLD[m.group(1)], m.group(2)), text)
    text = re.sub(r"(?m)^([ \t]*)from micro960 import ([\w, ]+?)[ \t]*(#.*)?$", at_line, text)
    text = re.sub(r"(?<![\w.])from micro960 import (\w+(?:, \w+)*)",
                  lambda m: statements(split_names(m.group(1), absolute, "micro960"), "; "), text)
    text = re.sub(r"\btests/firmware/(test_\w+)\.py\b", lambda m: "tests/firmware/%s/%s.py" % (
        TESTS[m.group(1)], m.group(1)) if m.group(1) in TESTS else m.group(0), text)
    # Path("...") / "micro960" / "engine" / "tt.mpy"
    return re.sub(r"([\"'])micro960\1 / ([\"'])(%s)\.(py|mpy)\2" % moved,
                  lambda m: "%smicro960%s / %s / %s" % (
                      m.group(1), m.group(1),
                      " / ".join('"%s"' % part for part in OLD[m.group(3)].split("/")[:-1]),
                      '"%s.%s"' % (OLD[m.group(3)].split("/")[-1], m.group(4))), text)


def rewrite_loader_names(text):
    """compat.load("rules.fen"), release("text.console_commands", ...): the new dotted names."""
    def names(match):
        return re.sub(r"([\"'])(\w+)\1", lambda m: m.group(1) + OLD.get(
            m.group(2), m.group(2)).replace("/", ".") + m.group(1), match.group(0))
    return re.sub(r"(?<!def )\b(?:release|load)\([^()]*\)", names, text)


# Lines whose quoted bare module names ("eboard_sim") are places in the
# package, written with slashes ("eboard/sim"): {file: pattern of the line}.
# Files that know both layouts: not rewritten.
LAYOUT_AWARE = ("tests/layers.py", "tests/test_layers.py")
SLASH_LINES = {"host_tools/flash.py": r"^PC_ONLY = ",
               "tests/test_flash.py": r"^\s*for module in \("}


def rewrite_slash_names(text, line_pattern):
    def line(match):
        return re.sub(r"([\"'])(\w+)\1", lambda m: m.group(1) + OLD.get(m.group(2), m.group(2))
                      + m.group(1), match.group(0))
    return re.sub(r"(?m)^" + line_pattern.lstrip("^") + r".*$", line, text)


def rewrite_file_names(text, where, report):
    """`fen.py` in prose -> `rules/fen.py` (not micro960/rules/fen.py: done already)."""
    def name(match):
        old = match.group(2)
        if old not in OLD or OLD[old] == old:
            return match.group(0)
        if old in AMBIGUOUS_FILE_NAMES:
            report.append("%s: `%s.py` left as it is (ambiguous)" % (where, old))
            return match.group(0)
        return match.group(1) + OLD[old] + ".py"
    return re.sub(r"(^|[\s(`'\",])(\w+)\.py\b", name, text, flags=re.M)


def rewrite_file(path, checkout, report):
    with open(path) as f:
        text = f.read()
    original = text
    rel = os.path.relpath(path, checkout).replace(os.sep, "/")
    old = old_module_of(path, checkout)
    if rel in LAYOUT_AWARE:
        return False
    # micro960.x first, then the relative imports (which write micro960.rules.variants...
    # that must not be read as the old module rules).
    text = rewrite_absolute(text)
    if old is not None:
        text = rewrite_relative(text, OLD.get(old, old).rpartition("/")[0])
    if rel.endswith(".py"):
        text = rewrite_loader_names(text)
    if old is not None or rel == "firmware/main.py" or rel.startswith("boards/"):
        text = rewrite_file_names(text, rel, report)
    if rel == "README.md":
        text = rewrite_file_names(text, rel, report)
    if rel in SLASH_LINES:
        text = rewrite_slash_names(text, SLASH_LINES[rel])
    if text != original:
        with open(path, "w") as f:
            f.write(text)
        return True
    return False


# --------------------------------------------------------- generated files

def write_package_json(checkout):
    path = os.path.join(checkout, "package.json")
    with open(path) as f:
        package = json.load(f)
    flash = open(os.path.join(checkout, "host_tools", "flash.py")).read()
    pc_only = re.search(r"PC_ONLY = \(([^)]*)\)", flash).group(1)
    pc_only = set(re.findall(r"[\"']([\w/]+)[\"']", pc_only))
    root = os.path.join(checkout, "firmware", "micro960")
    urls = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                place = os.path.relpath(os.path.join(folder, name), root)[:-3]
                if place not in pc_only:
                    urls.append(["micro960/%s.py" % place, "firmware/micro960/%s.py" % place])
    package["urls"] = sorted(urls)
    with open(path, "w") as f:
        f.write(json.dumps(package, indent=2) + "\n")


def layout_block():
    """The README's Layout block for the new tree, from the tables."""
    lines = ["firmware/micro960/   the code that runs on the device and on CPython"]
    for _, new, what in MODULES:
        if "/" not in new:
            lines.append("  %-18s %s" % (new + ".py", what))
    for package, short in PACKAGES.items():
        lines.append("  %-18s %s" % (package + "/", short))
        for _, new, what in MODULES:
            if new.rpartition("/")[0] == package:
                lines.append("    %-16s %s" % (new.rpartition("/")[2] + ".py", what))
    return "\n".join(lines)


def write_readme_layout(checkout, report):
    path = os.path.join(checkout, "README.md")
    text = open(path).read()
    start = text.find("## Layout")
    block = text.find("```\nfirmware/micro960/", start)
    end = text.find("firmware/main.py", block)
    if start < 0 or block < 0 or end < 0:
        report.append("README.md: no Layout block found; not rewritten")
        return
    text = text[:block + 4] + layout_block() + "\n" + text[end:]
    text = text.replace("tests/               pytest; tests/firmware/ runs on both runtimes;",
                        "tests/               pytest; tests/firmware/ (in the package's folders) "
                        "runs on both runtimes;")
    with open(path, "w") as f:
        f.write(text)


# ---------------------------------------------------------------- checking

def exists(checkout, dotted_name):
    """Is micro960.a.b (or a name inside one, micro960.a.b.Thing) a module or
    package of the tree? Checked part by part: the first part that is no
    module must come after a module."""
    path = os.path.join(checkout, "firmware")
    parts = dotted_name.split(".")
    for i, part in enumerate(parts):
        path = os.path.join(path, part)
        if os.path.isdir(path):
            continue
        return os.path.isfile(path + ".py") or i > 1 and os.path.isfile(
            os.path.dirname(path) + ".py")
    return True


def leftovers(checkout):
    """Lines that name a module the new tree does not have: micro960.x.y,
    micro960/x/y.py, or a relative import in micro960/ of a missing module."""
    found = []
    for path in files(checkout):
        rel = os.path.relpath(path, checkout)
        if rel in LAYOUT_AWARE:
            continue
        for number, line in enumerate(open(path), 1):
            bad = [name for name in re.findall(r"\bmicro960(?:\.\w+)+", line)
                   if not exists(checkout, name) and not name.endswith((".py", ".mpy"))]
            bad += [name for name in re.findall(r"\bmicro960/[\w/]+\.m?py\b", line)
                    if not os.path.isfile(os.path.join(checkout, "firmware", re.sub(
                        r"\.mpy$", ".py", name)))]
            if bad:
                found.append("%s:%d: %s" % (rel, number, line.strip()))
    return found


SKIP_DIRS = ("__pycache__", "node_modules", ".venv", "build")
SKIP_PATHS = ("tests/data", "host_tools/pico/firmware")


def files(checkout):
    """Every file the rewriting looks at."""
    for top in SCAN_DIRS:
        for folder, dirs, names in os.walk(os.path.join(checkout, top)):
            rel = os.path.relpath(folder, checkout).replace(os.sep, "/")
            dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS
                             and "%s/%s" % (rel, d) not in SKIP_PATHS)
            for name in sorted(names):
                if name.endswith((".py", ".mjs")):
                    yield os.path.join(folder, name)
    for name in SCAN_FILES:
        path = os.path.join(checkout, name)
        if os.path.exists(path):
            yield path


def new_path(rel):
    """Where file `rel` of the old layout is now."""
    match = re.match(r"firmware/micro960/(\w+)\.py$", rel)
    if match and match.group(1) in OLD:
        return "firmware/micro960/%s.py" % OLD[match.group(1)]
    match = re.match(r"tests/firmware/(\w+)\.py$", rel)
    if match and match.group(1) in TESTS:
        return "tests/firmware/%s/%s.py" % (TESTS[match.group(1)], match.group(1))
    return rel


def main(argv):
    if not argv or argv[0].startswith("-"):
        print(__doc__)
        return 2
    checkout = os.path.abspath(argv[0])
    dry_run = "--dry-run" in argv
    firmware = os.path.join(checkout, "firmware", "micro960")
    if os.path.isdir(os.path.join(firmware, "rules")):
        print("relayout: %s is laid out already (firmware/micro960/rules/ exists)" % checkout)
        return 1
    report = []
    # Rewrite first, knowing each file's old place; then move.
    changed = []
    for path in files(checkout):
        if not dry_run and rewrite_file(path, checkout, report):
            changed.append(os.path.relpath(path, checkout))
    move_files(checkout, dry_run, report)
    if not dry_run:
        write_package_json(checkout)
        write_readme_layout(checkout, report)
    print("relayout: %d modules in %d packages; %d files rewritten"
          % (len(MODULES), len(PACKAGES), len(changed)))
    for line in report:
        print("note: " + line)
    for line in leftovers(checkout):
        print("still names an old module: " + line)
    for rel in changed:
        rel = new_path(rel)
        for number, line in enumerate(open(os.path.join(checkout, rel)), 1):
            if len(line.rstrip("\n")) > 100 and rel.endswith(".py"):
                print("longer than 100 characters now: %s:%d" % (rel, number))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
