"""Every option a command takes is in its help text and in the docs.

The firmware's text commands parse their own arguments (no argparse on
MicroPython), so their options are read from the source: every string literal
that looks like `--option` in the code that parses a command's arguments.
The host tools' options come from their argparse parsers. A new option that
no help text or page of the docs (README.md and docs/*.md) names fails here.
"""
import ast
import re
import subprocess
import sys

import pytest

from host_tools import bridge, cli, emulator_command, flash, match, pull

from conftest import FIRMWARE, REPO

# README.md and the pages it links to, read as one text
README = "\n".join(path.read_text() for path in
                   [REPO / "README.md"] + sorted((REPO / "docs").glob("*.md")))
PACKAGE = FIRMWARE / "micro960"

# command: (source file, the functions that read its arguments)
FIRMWARE_PARSERS = {
    "perft": ("text/commands.py", ("perft_command", "take_rules")),
    "startpos": ("text/commands.py", ("startpos_command", "take_rules")),
    "replay": ("text/commands.py", ("replay_command",)),
    "eboard-sim": ("eboard/sim.py", ("main",)),
    "play": ("text/play.py", None),
}


def flags_in(source, functions):
    """The `--option` string literals in `functions` of `source` (all of it: None)."""
    tree = ast.parse((PACKAGE / source).read_text())
    if functions is not None:
        tree = ast.Module(body=[node for node in tree.body if getattr(node, "name", None)
                                in functions], type_ignores=[])
    return {node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and re.fullmatch(r"--[a-z][a-z-]*", node.value)} - {"--help"}


def help_text(*argv):
    done = subprocess.run([sys.executable, "-m", "host_tools", *argv], capture_output=True,
                          text=True, cwd=REPO, timeout=120)
    return done.stdout + done.stderr


@pytest.mark.parametrize("command", sorted(FIRMWARE_PARSERS))
def test_every_option_of_a_firmware_command_is_in_its_help_and_the_readme(command):
    flags = flags_in(*FIRMWARE_PARSERS[command])
    assert flags, "no options found for %s: has its parser moved?" % command
    shown = help_text(command, "--help")
    assert not [flag for flag in sorted(flags) if flag not in shown], shown
    assert not [flag for flag in sorted(flags) if flag not in README]


def argparse_options(parser):
    return {option for action in parser._actions for option in action.option_strings
            if option.startswith("--") and option != "--help"}


@pytest.mark.parametrize("name, parser", [
    ("bench", [p for p in cli.build_parser()._subparsers._group_actions[0].choices.values()
               if p.prog.endswith(" bench")][0]),
    ("bridge", bridge.build_parser()),
    ("emulator", emulator_command.build_parser()),
    ("flash", flash.build_parser()),
    ("pull", pull.build_parser()),
    ("match", match.build_parser()),
])
def test_every_option_of_a_host_tool_is_in_the_readme(name, parser):
    missing = sorted(option for option in argparse_options(parser)
                     if not re.search(re.escape(option) + r"\b", README))
    assert not missing, "the docs do not name %s of micro960 %s" % (missing, name)



def test_the_readme_names_every_xboard_variant():
    from micro960.text import xboard
    gui = (REPO / "docs" / "gui.md").read_text()
    section = gui[gui.index("## The XBoard engine"):]
    section = section[:section.index("\n## ")]
    assert not [name for name in xboard.VARIANTS if "`%s`" % name not in section]


def test_the_readme_asks_stockfish_for_an_elo_it_accepts(stockfish_path):
    """Debian's Stockfish refuses a UCI_Elo below its minimum: an example that
    asks for less fails for a user who copies it."""
    answer = subprocess.run([stockfish_path], input="uci\nquit\n", capture_output=True,
                            text=True, timeout=30).stdout
    low, high = map(int, re.search(r"option name UCI_Elo type spin default \d+ "
                                   r"min (\d+) max (\d+)", answer).groups())
    asked = [int(elo) for elo in re.findall(r"UCI_Elo[= ](?:value )?(\d+)", README)]
    assert asked and all(low <= elo <= high for elo in asked), (low, high, asked)


@pytest.mark.parametrize("runtime", ["micropython", "cpython"])
def test_play_help_gives_the_heap_and_runtime_the_command_uses(runtime):
    """`micro960 play --help` said --heap defaulted to 192K, where the command
    used 256K (issue 40): the defaults shown are the ones cli.py applies."""
    _, default_runtime, default_heap, _ = cli.FIRMWARE_COMMANDS["play"]
    shown = help_text("play", "--runtime", runtime, "--help")
    heap = [line for line in shown.split("\n") if line.strip().startswith("--heap")]
    assert heap and re.findall(r"default (\w+)", shown[shown.index(heap[0]):]
                               )[0] == default_heap, shown
    assert "(default %s)" % default_runtime in shown, shown
    assert shown.count("--heap") == 1 and shown.count("--runtime") == 1, shown
