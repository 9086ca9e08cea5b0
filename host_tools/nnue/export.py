"""Quantize a trained network (train.py's .npz) into micro960's weights file.

    python -m host_tools.nnue.export --model build/nnue/float.npz --out build/nnue/micro960.nnue

First layer: one byte a weight, times QA (64: a clamped accumulator value
of 1.0 is 64); its bias int16 at that scale; the material column int16 in
centipawns. Output weights: int16, in centipawns times QB (32), so the
output sum is centipawns times QA * QB with no further scale to apply;
output bias int32 at that scale. reference.py defines the arithmetic and the
file format; this only rounds and checks the ranges.
"""
import argparse
import sys
from pathlib import Path

import numpy as np

from . import reference
from .train import load_network

QA = 64
QB = 32


def quantize(net, qa=QA, qb=QB):
    """A reference.Weights from a float train.Network; ValueError if a weight
    does not fit its integer type."""
    from .train import SCALE
    p = net.params
    material = np.rint(p["psqt"][:reference.INPUTS] * SCALE).astype(np.int64)
    w1 = np.rint(p["w1"][:reference.INPUTS] * qa).astype(np.int64)
    b1 = np.rint(p["b1"] * qa).astype(np.int64)
    w2 = np.rint(p["w2"] * SCALE * qb).astype(np.int64)
    b2 = np.rint(p["b2"] * SCALE * qa * qb).astype(np.int64)
    for name, values, limit in (("W1", w1, 127), ("b1", b1, 32767), ("material", material, 32767),
                                ("W2", w2, 32767), ("b2", b2, 2 ** 31 - 1)):
        if values.size and np.abs(values).max() > limit:
            raise ValueError("%s does not fit its integer type (max %d)" % (name, np.abs(values).max()))
    return reference.Weights(net.hidden, net.buckets, qa, qb, [int(x) for x in w1.ravel()],
                             [int(x) for x in b1], [int(x) for x in material],
                             [int(x) for x in w2.ravel()], [int(x) for x in b2])


def export(model_path, out_path):
    weights = quantize(load_network(model_path))
    data = reference.to_bytes(weights)
    Path(out_path).parent.mkdir(parents=True, exist_ok=True)
    Path(out_path).write_bytes(data)
    reference.from_bytes(data, str(out_path))  # what was written reads back
    return weights, len(data)


def build_parser():
    p = argparse.ArgumentParser(prog="python -m host_tools.nnue.export",
                                description="Quantize a trained network into a weights file.")
    p.add_argument("--model", default="build/nnue/float.npz", help="train.py's output")
    p.add_argument("--out", default="build/nnue/micro960.nnue", help="the weights file to write")
    return p


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        weights, size = export(args.model, args.out)
    except (OSError, ValueError, KeyError) as e:
        sys.exit("export: %s" % e)
    print("%s: N=%d, %d bucket(s), %d bytes" % (args.out, weights.hidden, weights.buckets, size),
          file=sys.stderr)


if __name__ == "__main__":
    main()
