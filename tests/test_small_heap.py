"""The whole engine, loaded from .mpy, plays a complete game in a small heap.

micro960 runs as a UCI engine on the MicroPython unix port with
`-X heapsize=HEAP` (the hash table sizes itself to what is left) and plays a
Chess960 game to its end against Stockfish, which also checks every move it
makes is legal. The game runs in a child process, so an engine that dies of
MemoryError fails the test instead of hanging it.

    python tests/test_small_heap.py 128K     (prints OK or FAIL and the plies)
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
STOCKFISH = shutil.which("stockfish") or shutil.which("/usr/games/stockfish")
# The least heap a whole game needs on the 64-bit unix port (112K ran out at
# ply 64 of this game); a Pico's 32-bit objects are smaller.
HEAP = "128K"


@pytest.mark.skipif(not STOCKFISH, reason="Debian's stockfish is not installed")
def test_a_complete_game_in_a_small_heap():
    result = subprocess.run([sys.executable, __file__, HEAP], cwd=REPO, capture_output=True,
                            text=True, timeout=600)
    assert result.stdout.startswith("OK"), result.stdout + result.stderr[-3000:]


def play(heap):
    import chess
    import chess.engine
    board = chess.Board.from_chess960_pos(314)
    engine = chess.engine.SimpleEngine.popen_uci(
        [sys.executable, "-m", "host_tools", "uci", "--runtime", "micropython", "--heap", heap],
        cwd=REPO, timeout=60)
    stockfish = chess.engine.SimpleEngine.popen_uci(STOCKFISH, timeout=60)
    try:
        while not board.is_game_over(claim_draw=True):
            player = engine if board.turn == chess.WHITE else stockfish
            limit = chess.engine.Limit(nodes=2000) if player is engine else \
                chess.engine.Limit(depth=8)
            move = player.play(board, limit).move
            if move not in board.legal_moves:
                return "FAIL illegal move %s in %s" % (move, board.fen())
            board.push(move)
        engine.ping()  # still alive after the game
        return "OK %d plies, %s" % (board.ply(), board.outcome(claim_draw=True).result())
    except chess.engine.EngineError as e:
        return "FAIL at ply %d: %r" % (board.ply(), e)


if __name__ == "__main__":
    print(play(sys.argv[1]), flush=True)
    os._exit(0)  # the engines go with this process, dead or alive
