"""The console typed at for the fuzz tests, on CPython and on MicroPython.

    micropython -c "...; import console_driver; console_driver.main(FOLDER)"

Each line of standard input is the hex of bytes typed at the console: they go
through the line editor one at a time, as from a serial port, and each line
it finishes is handled. After each input line the driver prints `PROBLEM
...` for each refused line that changed the game anyway, then `END`. With a
FOLDER the console first takes up the game saved there and prints `RESUMED`
or `FRESH` (and any warning), then `END`. tests/test_fuzz_console.py and
tests/test_fuzz_saves.py run it (not a test module: mprun does not).
"""
import sys

from micro960.text.console import Console
from micro960.lines import CONSOLE_LIMIT, LineEditor
from micro960.engine.search import Limits
from game_text import uci_moves


def state(console):
    game = console.game
    return game.pos.fen(), " ".join(uci_moves(game)), game.result()


def make_console(said, folder=None):
    """A two-player console from SP 518, quick to think, its words in `said`."""
    console = Console("chess960", 518, out=said.append, engine_side=None, hash_kb=4)
    console.limits = Limits(nodes=200)
    if folder:
        from micro960.device.storage import GameStore
        said.append("RESUMED" if console.resume(GameStore(folder)) else "FRESH")
    return console


def type_bytes(console, said, editor, data):
    """Type `data` at the console; the problems found (a list of text)."""
    problems = []
    for byte in data:
        line = editor.feed(chr(byte))
        if line is None:
            continue
        before = state(console)
        del said[:]
        console.handle(line)
        if [text for text in said if text.startswith("error:")] and state(console) != before:
            problems.append("refused but changed the game: %r" % line)
    return problems


def person_typing():
    """A line editor as the console has it: a person types, so what is not
    ASCII is marked (and the line refused), not dropped."""
    editor = LineEditor(None, CONSOLE_LIMIT)
    editor.mark_foreign = True
    return editor


def main(folder=None):
    said = []
    console = make_console(said, folder)
    if folder:
        for text in said:
            if text.startswith(("RESUMED", "FRESH", "warning")):
                print(text)
        print("END")
    editor = person_typing()
    while True:
        line = sys.stdin.readline()
        if not line:
            break
        data = bytes(int(line[i:i + 2], 16) for i in range(0, len(line.strip()), 2))
        for problem in type_bytes(console, said, editor, data):
            print("PROBLEM " + problem)
        print("END")
