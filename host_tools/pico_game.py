"""`micro960 bench --pico-game`: a whole console game on the emulated Pico.

The console (micro960/console.py, as main.py starts it) plays both sides on
the device, `go` for every move at `level` and `time` per move, until the
game ends or `plies` are played; after every move the free heap is sampled
(`gc.collect()`, then `gc.mem_free()`). Any MemoryError fails it. Times are
the device's own clock; see pico_bench.py.
"""
from . import emulator
from .pico_bench import at_prompt, run_code

GAME = """
import gc
from micro960.console import Console
said = []
console = Console(out=said.append)
for line in ("both", "new %d", "level %d", "time %s"):
    console.handle(line)
game = console.game
while game.result() == "*" and len(game.moves) < %d:
    del said[:]
    console.handle("go")
    game = console.game
    gc.collect()
    errors = [text for text in said if text.startswith("error")]
    print("ply", len(game.moves), "free", gc.mem_free(), game.result(), errors)
print("result", game.result(), game.reason())
"""


def run(sp=518, level=20, seconds=0.3, plies=160, out=print):
    """Play the game; one line a ply (ply, free heap, result), then the result."""
    reason = emulator.missing()
    if reason:
        out("micro960 bench --pico-game: %s" % reason)
        return 1
    out("A console game on the emulated Pico, the engine on both sides (SP %d, level %d, "
        "%s s a move); the free heap after every move:" % (sp, level, seconds))
    with emulator.EmulatedPico() as pico:
        at_prompt(pico)
        said = run_code(pico, GAME % (sp, level, seconds, plies), timeout=7200)
    frees = []
    for line in said:
        if line.startswith(("ply", "result", "Traceback", "MemoryError")) or "Error" in line:
            out(line)
        if line.startswith("ply"):
            frees.append(int(line.split()[3]))
    if frees:
        out("%d plies; free heap from %d to %d bytes" % (len(frees), min(frees), max(frees)))
    failed = not frees or any("Error" in line for line in said)
    return 1 if failed else 0
