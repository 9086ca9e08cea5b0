"""The firmware's network (firmware/micro960/engine/network.py) against
host_tools/nnue/reference.py, the definition: the same score to the bit on
CPython and on the MicroPython unix port, for positions of random Chess960
games and the bench's; and a missing or damaged weights file stops either
runtime at start with one line saying why.
"""
import random
import shutil
import subprocess
import sys

import chess
import pytest

from host_tools import runtime
from host_tools.nnue import reference

WEIGHTS = runtime.FIRMWARE / "micro960" / "micro960.nnue"

# Prints the network's score of each FEN read from stdin, one a line.
SCORES = (
    "import sys\n"
    "sys.path.insert(0, %r)\n"
    "from micro960.engine import network\n"
    "from micro960.rules.position import Position\n"
    "for line in sys.stdin:\n"
    "    if line.strip():\n"
    "        print(network.evaluate(Position(line.strip())))\n"
)


def positions(count=120, seed=27):
    """FENs along seeded random Chess960 games (captures, promotions and all)."""
    rng = random.Random(seed)
    fens = []
    while len(fens) < count:
        board = chess.Board.from_chess960_pos(rng.randrange(960))
        for _ in range(rng.randrange(10, 120)):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            board.push(rng.choice(moves))
            if rng.randrange(6) == 0:
                fens.append(board.shredder_fen())
    from micro960.engine.bench import POSITIONS
    return fens[:count] + list(POSITIONS)


@pytest.fixture(scope="module")
def fens_and_reference():
    sys.path.insert(0, str(runtime.FIRMWARE))
    fens = positions()
    weights = reference.read(WEIGHTS)
    return fens, [reference.evaluate(weights, fen) for fen in fens]


def test_cpython_scores_as_the_reference(fens_and_reference):
    fens, expected = fens_and_reference
    result = subprocess.run([sys.executable, "-c", SCORES % str(runtime.FIRMWARE)],
                            input="\n".join(fens), capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert [int(x) for x in result.stdout.split()] == expected


def test_micropython_scores_as_the_reference(fens_and_reference):
    fens, expected = fens_and_reference
    result = runtime.run_micropython(SCORES % str(runtime.build_firmware()), heap="128K",
                                     input="\n".join(fens), timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert [int(x) for x in result.stdout.split()] == expected
    assert len(set(expected)) > len(expected) // 2  # varied scores, not one for all


def copy_with_bad_weights(folder, python, replacement):
    """The firmware (compiled for MicroPython, the sources for CPython) copied
    into folder, its weights file left out (replacement None) or replaced by
    `replacement` bytes; the folder for sys.path."""
    source = runtime.FIRMWARE if python else runtime.build_firmware()
    shutil.copytree(source / "micro960", folder / "micro960",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "micro960" / "micro960.nnue").unlink()
    if replacement is not None:
        (folder / "micro960" / "micro960.nnue").write_bytes(replacement)
    return folder


@pytest.mark.parametrize("python", [None, sys.executable], ids=["micropython", "cpython"])
@pytest.mark.parametrize("damage", ["missing", "corrupted"])
def test_a_bad_weights_file_stops_the_uci_engine_at_start_with_one_line(tmp_path, damage, python):
    data = bytearray(WEIGHTS.read_bytes())
    data[500] ^= 0x40
    folder = copy_with_bad_weights(tmp_path, python, None if damage == "missing" else bytes(data))
    boot = runtime.UCI_BOOT % str(folder)
    commands = "uci\nisready\nquit\n"
    if python:
        result = subprocess.run([python, "-c", boot], input=commands, capture_output=True,
                                text=True, timeout=60)
    else:
        result = runtime.run_micropython(boot, heap="192K", input=commands, timeout=60)
    lines = result.stdout.strip().split("\n")
    assert result.returncode == 1, result.stdout + result.stderr
    assert len(lines) == 1 and lines[0].startswith("micro960: no network: "), result.stdout
    assert ("cannot read it" if damage == "missing" else "checksum mismatch") in lines[0]
    assert "micro960.nnue" in lines[0] and not result.stderr
