"""Make the reference tables the tests check micro960 against, from programs we did not write.

    python3 tests/data/make_reference_data.py [--stockfish PATH]

writes, beside this script:

sp960.tsv      every Chess960 start position: SP number, back rank, X-FEN and
               Shredder-FEN, from python-chess (chess.Board.from_chess960_pos).
perft960.tsv   perft of the 960 start positions to depth 5: depths 1-3 counted
               with python-chess, 4-5 with Stockfish's `go perft` in
               UCI_Chess960 mode (python-chess would take hours), after
               checking that Stockfish agrees with python-chess at depths 1-3.
perft_std.tsv  the standard perft positions (startpos, kiwipete, positions
               3-6 of the Chess Programming Wiki) with their published counts,
               each checked by Stockfish in both modes and, up to a million
               leaves, by python-chess; `status` is OK when all agree.

The tables are committed, so the tests need neither program; run this again
only to check or extend them (it takes a few minutes on two cores). Debian's
`stockfish` package installs the engine in /usr/games.
"""
import argparse
import shutil
import subprocess
import sys
from multiprocessing import Pool
from pathlib import Path

import chess

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))  # the repository, for host_tools
from host_tools.bench import chess_perft  # noqa: E402
PYTHON_CHESS_DEPTH = 3  # perft960 depths counted by python-chess
DEEPEST = 5  # perft960's deepest column
PYTHON_CHESS_MAX_LEAVES = 1_000_000  # perft_std rows python-chess also counts

# name, FEN, published counts for depth 1, 2, ... (Chess Programming Wiki, "Perft Results").
STANDARD = (
    ("startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
     (20, 400, 8902, 197281, 4865609, 119060324)),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
     (48, 2039, 97862, 4085603, 193690690)),
    ("position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
     (14, 191, 2812, 43238, 674624)),
    ("position4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
     (6, 264, 9467, 422333, 15833292)),
    ("position4_mirrored", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
     (6, 264, 9467, 422333, 15833292)),
    ("position5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
     (44, 1486, 62379, 2103487, 89941194)),
    ("position6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
     (46, 2079, 89890, 3894594, 164075551)),
)


def start_position_counts(sp):
    board = chess.Board.from_chess960_pos(sp)
    return [chess_perft(board, d) for d in range(1, PYTHON_CHESS_DEPTH + 1)]


class Stockfish:
    """Stockfish over UCI, asked for `go perft` counts."""

    def __init__(self, path):
        self.process = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, bufsize=1)
        self.send("uci")
        self.wait_for("uciok")

    def send(self, line):
        self.process.stdin.write(line + "\n")

    def wait_for(self, start):
        for line in self.process.stdout:
            if line.startswith(start):
                return line.strip()
        raise RuntimeError("stockfish stopped before %r" % start)

    def perft(self, fen, depth, chess960):
        self.send("setoption name UCI_Chess960 value %s" % ("true" if chess960 else "false"))
        self.send("position fen " + fen)
        self.send("go perft %d" % depth)
        return int(self.wait_for("Nodes searched").split(":")[1])

    def close(self):
        self.send("quit")
        self.process.wait()


def write_table(name, header, rows):
    with open(HERE / name, "w", newline="\n") as f:
        f.write("\t".join(header) + "\n")
        for row in rows:
            f.write("\t".join(str(field) for field in row) + "\n")
    print("wrote %s: %d rows" % (name, len(rows)))


def make_sp960():
    rows = []
    for sp in range(960):
        board = chess.Board.from_chess960_pos(sp)
        backrank = "".join(board.piece_at(chess.square(f, 0)).symbol() for f in range(8))
        rows.append((sp, backrank, board.fen(), board.fen(shredder=True)))
    write_table("sp960.tsv", ("sp", "backrank", "xfen", "shredder_fen"), rows)


def make_perft960(stockfish):
    with Pool() as pool:
        shallow = pool.map(start_position_counts, range(960), chunksize=16)
    rows = []
    for sp, counts in enumerate(shallow):
        fen = chess.Board.from_chess960_pos(sp).fen(shredder=True)
        for depth, count in enumerate(counts, 1):
            if stockfish.perft(fen, depth, True) != count:
                sys.exit("SP %d depth %d: Stockfish and python-chess disagree" % (sp, depth))
        deep = [stockfish.perft(fen, d, True) for d in range(PYTHON_CHESS_DEPTH + 1, DEEPEST + 1)]
        rows.append([sp, fen] + counts + deep)
    write_table("perft960.tsv", ["sp", "fen"] + ["d%d" % d for d in range(1, DEEPEST + 1)], rows)


def make_perft_std(stockfish):
    rows = []
    for name, fen, published in STANDARD:
        for depth, count in enumerate(published, 1):
            classical = stockfish.perft(fen, depth, False)
            chess960 = stockfish.perft(fen, depth, True)
            ours = ""
            if count <= PYTHON_CHESS_MAX_LEAVES:
                ours = chess_perft(chess.Board(fen), depth)
            agree = classical == chess960 == count and ours in ("", count)
            rows.append((name, fen, depth, count, classical, chess960, ours,
                         "OK" if agree else "DISAGREE"))
    write_table("perft_std.tsv", ("name", "fen", "depth", "published", "stockfish",
                                  "stockfish_chess960_mode", "python_chess", "status"), rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stockfish", default=shutil.which("stockfish") or "/usr/games/stockfish",
                        help="the Stockfish executable (default: on PATH or /usr/games)")
    args = parser.parse_args()
    if not Path(args.stockfish).is_file():
        sys.exit("Stockfish not found at %s (Debian: apt-get install stockfish)" % args.stockfish)
    make_sp960()
    stockfish = Stockfish(args.stockfish)
    try:
        make_perft_std(stockfish)
        make_perft960(stockfish)
    finally:
        stockfish.close()


if __name__ == "__main__":
    main()
