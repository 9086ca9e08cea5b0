"""How close a weights file's integer scores come to Stockfish's labels on
the held-back games (each data file's last --validation, as train.py holds
them back), beside micro960's hand-written evaluation on the same positions.

    python -m host_tools.nnue.validate --weights firmware/micro960/micro960.nnue \
        --data build/nnue/positions.tsv
"""
import argparse
import lzma
import math
import sys

from . import reference
from .generate import FIRMWARE  # noqa: F401 (puts firmware/ on sys.path)


def held_back(paths, fraction):
    """The last `fraction` of each file's lines, split into their fields."""
    from .train import open_data
    kept = []
    for path in paths:
        with open_data(path) as f:
            lines = [line.rstrip("\n").split("\t") for line in f]
        kept += lines[len(lines) - int(len(lines) * fraction):]
    return kept


def hand_written(fen, rules):
    from host_tools.nnue.handwritten import evaluate
    from micro960.rules.position import Position
    from micro960.rules.variants import Rules
    pos = Position()
    Rules(rules).apply(pos)
    pos.set_fen(fen)
    return evaluate(pos)


def win_chance(cp, k):
    return 1 / (1 + math.exp(-cp / k))


def report(name, scores, labels, k):
    """One line: mean |score - label| in cp, and the squared error of win chances."""
    n = len(labels)
    error = sum(abs(s - t) for s, t in zip(scores, labels)) / n
    loss = sum((win_chance(s, k) - win_chance(t, k)) ** 2 for s, t in zip(scores, labels)) / n
    return "%-24s |score - Stockfish| %5.0f cp, win-chance loss %.5f" % (name, error, loss)


def build_parser():
    p = argparse.ArgumentParser(prog="python -m host_tools.nnue.validate",
                                description="The network and the hand-written evaluation against Stockfish.")
    p.add_argument("--weights", default="firmware/micro960/micro960.nnue", help="the weights file")
    p.add_argument("--data", nargs="+", default=["build/nnue/positions.tsv"],
                   help="generate.py's or selfplay.py's files (.xz ones too)")
    p.add_argument("--validation", type=float, default=0.05, help="the share held back, as in training")
    p.add_argument("--k", type=float, default=400.0, help="the sigmoid's scale in centipawns")
    return p


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        weights = reference.read(args.weights)
        lines = held_back(args.data, args.validation)
    except (OSError, ValueError, EOFError, lzma.LZMAError) as e:
        sys.exit("validate: %s" % e)
    if not lines:
        sys.exit("validate: no positions held back")
    labels = [int(score) for _, score, _, _ in lines]
    print("%d positions held back" % len(lines))
    print(report("network", [reference.evaluate(weights, fen) for fen, _, _, _ in lines],
                 labels, args.k))
    print(report("hand-written handwritten.py", [hand_written(fen, rules) for fen, _, _, rules in lines],
                 labels, args.k))


if __name__ == "__main__":
    main()
