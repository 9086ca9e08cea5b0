"""`micro960 bench --pico-game`: a whole console game on the emulated Pico.

The console (micro960/text/console.py, as main.py starts it) gets a game of
`plies` moves typed as a person types them, two players, the engine asked
for a `hint` (a search of `time` seconds) every fourth ply; after every move
the free heap is sampled (`gc.collect()`, then `gc.mem_free()`). The moves
are a random game (python-chess, seeded; quiet moves preferred, so it lasts)
from Chess960 SP `sp`. Any MemoryError fails it. Times are the device's own
clock; see pico_bench.py.
"""
import random

import chess
from . import emulator
from .pico_bench import at_prompt, run_code

GAME = """
import gc
from micro960.text.console import Console
said = []
console = Console(out=said.append)
for line in ("both", "new %d", "time %s"):
    console.handle(line)
for ply, move in enumerate(%r):
    del said[:]
    console.handle(move)
    if ply %% 4 == 3:
        console.handle("hint")
    gc.collect()
    errors = [text for text in said if text.startswith("error")]
    print("ply", len(console.game.moves), "free", gc.mem_free(), console.game.result(), errors)
print("result", console.game.result(), console.game.reason())
"""


def long_game(sp, plies, seed=60):
    """UCI moves of a random game that lasts `plies` (quiet moves preferred)."""
    rng = random.Random(seed)
    board = chess.Board.from_chess960_pos(sp)
    moves = []
    while len(moves) < plies:
        legal = list(board.legal_moves)
        quiet = [m for m in legal if not board.is_capture(m)]
        for move in rng.sample(quiet or legal, len(quiet or legal)):
            board.push(move)
            if not board.is_game_over(claim_draw=True):
                break
            board.pop()
        else:
            raise ValueError("no move keeps the game going")
        moves.append(board.peek().uci())  # chess960 rules: castling is king takes rook
    return moves


def run(sp=518, seconds=0.5, plies=130, out=print):
    """Play the game; one line a ply (ply, free heap, result), then the result."""
    reason = emulator.missing()
    if reason:
        out("micro960 bench --pico-game: %s" % reason)
        return 1
    out("A console game of %d plies on the emulated Pico from SP %d, a hint (%s s) every "
        "fourth ply; the free heap after every move:" % (plies, sp, seconds))
    board = chess.Board.from_chess960_pos(sp)
    moves = []
    for move in long_game(sp, plies):  # as a person types them: SAN
        moves.append(board.san(chess.Move.from_uci(move)))
        board.push_uci(move)
    with emulator.EmulatedPico() as pico:
        at_prompt(pico)
        said = run_code(pico, GAME % (sp, seconds, moves), timeout=7200)
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
