"""RAM on the device: a console game in a heap the size of a Pico's.

The MicroPython unix port runs with -X heapsize=224K (192K before the network's weights) (a Pico has about 241 KB
free at boot; the unix port's objects are bigger, with 8-byte pointers, so
192K is the harder test). It loads the firmware as .mpy files, as a board
does, starts the console with the board's default hash table and a game
store, as firmware/main.py does, and plays: White's moves are fed in as
typed lines (chosen by a quick search), the engine answers each. After every
line, and at every finished depth of every search, it collects garbage and
reads gc.mem_free(); the lowest reading must stay above FLOOR.

    .venv/bin/python tests/test_play_ram.py      prints the figures
"""
import sys
from pathlib import Path

from host_tools import runtime

HEAP = "224K"
FLOOR = 32 * 1024  # free at the low point: room for a long game's moves and PGN
MOVES = 30  # White's moves; then White resigns and the game summary is printed

GAME = '''
import gc
import sys
sys.path.insert(0, %(build)r)
gc.collect()
at_start = gc.mem_free()
from micro960.device import board
from micro960.lines import StdinLines
from micro960.text.console import Console
from micro960.rules.notation import uci_text
from micro960.engine.search import Limits
from micro960.device.storage import GameStore

low = [1 << 30, ""]
shown = [0]


def measure(where):
    gc.collect()
    free = gc.mem_free()
    if free < low[0]:
        low[0] = free
        low[1] = where


def out(text):  # the console's words go nowhere, as on a board nobody watches
    shown[0] += 1


config = board.load()
lines = StdinLines()  # main.py reads lines through it
lines.interactive(True)
game = Console(out=out, hash_kb=config.HASH_KB)
game.resume(GameStore(%(games)r))
game.handle("new 100")
game.handle("time 1")
# The engine's replies: by node count, so the game and its figures are the
# same on every machine; every depth it finishes is measured.
game.limits = Limits(nodes=3000)
thinking = game.engine.on_info


def info(*args):
    thinking(*args)
    measure("the engine thinking at ply %%d" %% len(game.game.moves))


game.engine.on_info = info
measure("after loading")
after_load = low[0]
for number in range(%(moves)d):
    if game.game.result() != "*":
        break
    move, _ = game.engine.think(game.game, Limits(nodes=300))  # White's choice, fed as text
    game.handle(uci_text(game.game.pos, move))
    measure("after White's move %%d and the reply" %% (number + 1))
game.handle("resign")  # the summary with the whole game's PGN, and the archive
measure("after the game summary")
print("heap", gc.mem_free() + gc.mem_alloc())
print("free at start", at_start)
print("free with the console loaded", after_load)
print("plies", len(game.game.moves), "result", game.game.result(), "lines shown", shown[0])
print("lowest free", low[0], "-", low[1])
'''


def play(tmp_path):
    """Run the game on MicroPython; its figures as a dict of text."""
    code = GAME % {"build": str(runtime.build_firmware()), "games": str(tmp_path),
                   "moves": MOVES}
    result = runtime.run_micropython(code, heap=HEAP, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    figures = {}
    for line in result.stdout.strip().split("\n"):
        for name in ("heap", "free at start", "free with the console loaded", "plies",
                     "lowest free"):
            if line.startswith(name + " "):
                figures[name] = line[len(name) + 1:]
    return figures, result.stdout


def test_a_console_game_leaves_room_in_a_pico_sized_heap(tmp_path):
    figures, output = play(tmp_path)
    print(output)
    assert int(figures["heap"]) <= 224 * 1024  # HEAP
    plies = int(figures["plies"].split()[0])
    assert plies >= 2 * 10, output  # a real game was played, not one move
    assert "result 0-1" in figures["plies"], output  # White resigned: the summary ran
    assert (tmp_path / "games.pgn").read_text().count('[Result "0-1"]') == 1
    lowest = int(figures["lowest free"].split()[0])
    assert lowest >= FLOOR, output


if __name__ == "__main__":
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        figures, output = play(Path(folder))
    sys.stdout.write(output)
