"""Train micro960's network on labelled positions (generate.py's file), in numpy.

    python -m host_tools.nnue.train --data build/nnue/positions.tsv --hidden 32 \
        --epochs 20 --out build/nnue/float.npz

--data takes several files, each plain or xz-compressed (`.xz`), so that
positions made elsewhere (../shared/data/nnue/) train beside make nnue's.

The network is reference.py's, in floats: accumulators of N values (the
bias plus one weight row per piece, from each side's perspective, one
shared matrix), clipped to 0..1 and squared, then the side to move's N and
the other's N dotted with the output weights of the position's material
bucket, plus half the difference of the two sides' material columns (one
unclipped value per input, `psqt`). Its output times SCALE is centipawns
from the side to move's view.

The loss compares win chances, not centipawns, so a 900 cp error in a won
position costs little and a 90 cp error in a level one costs much:

    predicted = sigmoid(output * SCALE / K)
    target    = LAMBDA * sigmoid(stockfish score / K) + (1 - LAMBDA) * game result
    loss      = mean((predicted - target) ** 2)

Optimised with Adam on minibatches; every random choice (initial weights,
the order of the batches) comes from --seed. The validation part is the
last --validation of each file: whole games, unseen in training.

The first layer is sparse: at most 32 of 768 inputs are on. Its forward pass
gathers and sums the weight rows of the pieces (no 768-wide product), and
its gradient adds each row's share back with one np.bincount, which is what
makes this train fast on two cores.
"""
import argparse
import lzma
import sys
import time
from pathlib import Path

import numpy as np

from .reference import INPUTS, bucket_of, features, read

SCALE = 400  # centipawns per unit of the network's output
MAX_PIECES = 32
PAD = INPUTS  # the index of an all-zero row that pads a position's inputs to 32
# Clips that keep the integer network in range (see reference.py's "Ranges").
W1_LIMIT = 127 / 64  # a byte at export's QA (64)
B1_LIMIT = 3.5
W2_LIMIT = 2.5  # * SCALE * QB (32) stays under 32,767
PSQT_LIMIT = 1000 / SCALE  # 1,000 cp: 32 pieces' sum stays under 32,767


def open_data(path):
    """A data file to read as text, xz-compressed if its name ends in .xz."""
    return lzma.open(path, "rt") if str(path).endswith(".xz") else open(path)


def load_positions(path, buckets):
    """A data file -> (stm inputs, other inputs, buckets, scores, results) arrays."""
    ours, theirs, bucket, scores, results = [], [], [], [], []
    with open_data(path) as f:
        for number, line in enumerate(f, 1):
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 4:
                raise ValueError("%s:%d: expected FEN, score, result, rules" % (path, number))
            a, b, pieces = features(parts[0])
            ours.append(a + [PAD] * (MAX_PIECES - len(a)))
            theirs.append(b + [PAD] * (MAX_PIECES - len(b)))
            bucket.append(bucket_of(pieces, buckets))
            scores.append(float(parts[1]))
            results.append(float(parts[2]))
    if not scores:
        raise ValueError("%s: no positions" % path)
    return (np.array(ours, np.int32), np.array(theirs, np.int32), np.array(bucket, np.int32),
            np.array(scores, np.float32), np.array(results, np.float32))


def fen_inputs(fens, buckets):
    """Inputs of a list of FENs, as load_positions gives them."""
    ours, theirs, bucket = [], [], []
    for fen in fens:
        a, b, pieces = features(fen)
        ours.append(a + [PAD] * (MAX_PIECES - len(a)))
        theirs.append(b + [PAD] * (MAX_PIECES - len(b)))
        bucket.append(bucket_of(pieces, buckets))
    return np.array(ours, np.int32), np.array(theirs, np.int32), np.array(bucket, np.int32)


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


class Network:
    """The float network and its Adam state."""

    def __init__(self, hidden, buckets, rng):
        self.hidden = hidden
        self.buckets = buckets
        # Rows of 0.05 give an accumulator of about 0.25 spread over ~30
        # pieces; a bias of 0.25 starts most units in the clamp's linear part.
        w1 = rng.normal(0, 0.05, (INPUTS + 1, hidden)).astype(np.float32)
        w1[PAD] = 0
        # The material column: one value a (colour, piece, square) input,
        # summed unclipped, so that material adds up however much of it
        # there is (16 clipped units saturate a queen up). It starts at
        # 1, 3, 3, 5, 9 pawns of 100 cp, its own pieces plus, the other's minus.
        psqt = np.zeros(INPUTS + 1, np.float32)
        for kind, pawns in enumerate((1, 3, 3, 5, 9, 0)):
            psqt[kind * 64:(kind + 1) * 64] = pawns * 100.0 / SCALE
            psqt[384 + kind * 64:384 + (kind + 1) * 64] = -pawns * 100.0 / SCALE
        self.params = {
            "psqt": psqt,
            "w1": w1,
            "b1": np.full(hidden, 0.25, np.float32),
            "w2": rng.normal(0, 0.05, (buckets, 2 * hidden)).astype(np.float32),
            "b2": np.zeros(buckets, np.float32),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.steps = 0

    def forward(self, ours, theirs, bucket):
        """Output (in SCALE units) and what backward() needs."""
        p = self.params
        acc_us = p["w1"][ours].sum(axis=1) + p["b1"]
        acc_them = p["w1"][theirs].sum(axis=1) + p["b1"]
        h = np.concatenate([np.clip(acc_us, 0, 1), np.clip(acc_them, 0, 1)], axis=1) ** 2
        # Each side's material column counts its pieces plus and the other's
        # minus, so half their difference is the side to move's material.
        out = (h * p["w2"][bucket]).sum(axis=1) + p["b2"][bucket] + \
            (p["psqt"][ours].sum(axis=1) - p["psqt"][theirs].sum(axis=1)) / 2
        return out, (ours, theirs, bucket, acc_us, acc_them, h)

    def backward(self, grad_out, cache):
        ours, theirs, bucket, acc_us, acc_them, h = cache
        p = self.params
        n = self.hidden
        grads = {"b2": np.bincount(bucket, grad_out, self.buckets).astype(np.float32)}
        half = grad_out / 2
        g_psqt = (np.bincount(ours.ravel(), np.repeat(half, ours.shape[1]), INPUTS + 1) -
                  np.bincount(theirs.ravel(), np.repeat(half, theirs.shape[1]), INPUTS + 1))
        g_psqt[PAD] = 0
        grads["psqt"] = g_psqt.astype(np.float32)
        # Each bucket's rows summed: a one-hot product, much faster than np.add.at.
        one_hot = (bucket[None, :] == np.arange(self.buckets)[:, None]).astype(np.float32)
        grads["w2"] = one_hot @ (grad_out[:, None] * h)
        g_h = grad_out[:, None] * p["w2"][bucket]
        # The clamp passes gradient only where the accumulator is inside
        # 0..1, where the square's slope is 2x.
        g_us = g_h[:, :n] * ((acc_us > 0) & (acc_us < 1)) * (2 * acc_us)
        g_them = g_h[:, n:] * ((acc_them > 0) & (acc_them < 1)) * (2 * acc_them)
        grads["b1"] = g_us.sum(axis=0) + g_them.sum(axis=0)
        # Each active input's row gets its position's accumulator gradient:
        # one bincount over (row, column) pairs adds them all up.
        columns = np.arange(n)
        flat = np.concatenate([(ours[:, :, None] * n + columns).ravel(),
                               (theirs[:, :, None] * n + columns).ravel()])
        values = np.concatenate([np.broadcast_to(g_us[:, None, :], ours.shape + (n,)).ravel(),
                                 np.broadcast_to(g_them[:, None, :], theirs.shape + (n,)).ravel()])
        g_w1 = np.bincount(flat, values, (INPUTS + 1) * n).reshape(INPUTS + 1, n)
        g_w1[PAD] = 0
        grads["w1"] = g_w1.astype(np.float32)
        return grads

    def adam(self, grads, lr, beta1=0.9, beta2=0.999, eps=1e-8):
        self.steps += 1
        t = self.steps
        for k, g in grads.items():
            self.m[k] = beta1 * self.m[k] + (1 - beta1) * g
            self.v[k] = beta2 * self.v[k] + (1 - beta2) * g * g
            m_hat = self.m[k] / (1 - beta1 ** t)
            v_hat = self.v[k] / (1 - beta2 ** t)
            self.params[k] -= (lr * m_hat / (np.sqrt(v_hat) + eps)).astype(np.float32)
        p = self.params
        np.clip(p["w1"], -W1_LIMIT, W1_LIMIT, out=p["w1"])
        np.clip(p["b1"], -B1_LIMIT, B1_LIMIT, out=p["b1"])
        np.clip(p["w2"], -W2_LIMIT, W2_LIMIT, out=p["w2"])
        np.clip(p["psqt"], -PSQT_LIMIT, PSQT_LIMIT, out=p["psqt"])
        p["w1"][PAD] = 0
        p["psqt"][PAD] = 0

    def centipawns(self, ours, theirs, bucket, chunk=4096):
        """The float network's scores in centipawns."""
        outs = [self.forward(ours[i:i + chunk], theirs[i:i + chunk], bucket[i:i + chunk])[0]
                for i in range(0, len(ours), chunk)]
        return np.concatenate(outs) * SCALE

    def save(self, path, **info):
        p = self.params
        np.savez(path, psqt=p["psqt"][:INPUTS], w1=p["w1"][:INPUTS], b1=p["b1"], w2=p["w2"], b2=p["b2"], scale=SCALE, **info)


def load_network(path):
    """A Network from train's .npz file (for export and tests)."""
    data = np.load(path)
    w1 = data["w1"]
    net = Network(w1.shape[1], data["w2"].shape[0], np.random.default_rng(0))
    net.params["w1"][:INPUTS] = w1
    if "psqt" in data:  # older models have none: material from the clipped units alone
        net.params["psqt"][:INPUTS] = data["psqt"]
    else:
        net.params["psqt"][:] = 0
    for k in ("b1", "w2", "b2"):
        net.params[k][...] = data[k]
    return net


def from_weights(weights):
    """A Network with a weights file's values (reference.Weights), back in
    floats: training goes on from them (--init) rather than from random ones."""
    net = Network(weights.hidden, weights.buckets, np.random.default_rng(0))
    p = net.params
    p["w1"][:INPUTS] = np.array(weights.w1, np.float32).reshape(INPUTS, weights.hidden) / weights.qa
    p["b1"][:] = np.array(weights.b1, np.float32) / weights.qa
    p["psqt"][:INPUTS] = np.array(weights.material, np.float32) / SCALE
    p["w2"][...] = np.array(weights.w2, np.float32).reshape(weights.buckets, -1) / (SCALE * weights.qb)
    p["b2"][:] = np.array(weights.b2, np.float32) / (SCALE * weights.qa * weights.qb)
    return net


def targets(scores, results, k, lam):
    return lam * sigmoid(scores / k) + (1 - lam) * results


def loss_of(net, data, k, lam):
    ours, theirs, bucket, scores, results = data
    predicted = sigmoid(net.centipawns(ours, theirs, bucket) / k)
    return float(np.mean((predicted - targets(scores, results, k, lam)) ** 2))


def split(data, fraction):
    """(training, validation): the validation part is the file's last
    `fraction`. A game's positions are consecutive in the file and alike,
    and share its result: held back whole, the games of the validation part
    are ones the training never saw, so its loss is not flattered."""
    cut = len(data[0]) - int(len(data[0]) * fraction)
    return tuple(a[:cut] for a in data), tuple(a[cut:] for a in data)


def load_files(paths, buckets, fraction):
    """(training, validation) of several data files: each file's last
    `fraction` is held back (split), so every source's games are judged."""
    parts = [split(load_positions(path, buckets), fraction) for path in paths]
    return tuple(tuple(np.concatenate(arrays) for arrays in zip(*side)) for side in zip(*parts))


def mirrored(data):
    """The positions turned left to right (file a <-> h): the same positions
    to a network that sees no castling rights, and as likely in Chess960,
    whose set-ups come in such pairs."""
    ours, theirs = data[0], data[1]
    return (np.where(ours == PAD, PAD, ours ^ 7), np.where(theirs == PAD, PAD, theirs ^ 7)) + \
        tuple(data[2:])


def train(data, hidden=32, buckets=1, epochs=10, batch=256, lr=2e-3, decay=0.9, k=400.0,
          lam=1.0, validation=0.05, seed=1, say=print, mirror=False, init=None):
    """Train a Network; returns it and the loss history [(epoch, train, validation)].
    data: one file's arrays, its last `validation` held back, or load_files'
    (training, validation) pair. mirror: train on each position and its
    left-right mirror; init: a reference.Weights to start from (its N and
    buckets, not hidden's and buckets')."""
    rng = np.random.default_rng(seed)
    train_part, val_part = data if len(data) == 2 else split(data, validation)
    if mirror:
        train_part = tuple(np.concatenate(pair) for pair in zip(train_part, mirrored(train_part)))
    if not len(val_part[0]):
        val_part = train_part  # too little data to hold any back (tiny tests)
    net = from_weights(init) if init else Network(hidden, buckets, rng)
    history = [(0, loss_of(net, train_part, k, lam), loss_of(net, val_part, k, lam))]
    say("epoch 0 train %.5f validation %.5f" % history[0][1:])
    ours, theirs, bucket, scores, results = train_part
    target = targets(scores, results, k, lam).astype(np.float32)
    best = (history[0][2], 0, {name: w.copy() for name, w in net.params.items()})
    for epoch in range(1, epochs + 1):
        start = time.time()
        order = rng.permutation(len(ours))
        for i in range(0, len(order), batch):
            b = order[i:i + batch]
            out, cache = net.forward(ours[b], theirs[b], bucket[b])
            predicted = sigmoid(out * SCALE / k)
            # d loss / d out, the mean squared error through the sigmoid
            grad = 2 * (predicted - target[b]) * predicted * (1 - predicted) * SCALE / k / len(b)
            net.adam(net.backward(grad.astype(np.float32), cache), lr)
        lr *= decay
        history.append((epoch, loss_of(net, train_part, k, lam), loss_of(net, val_part, k, lam)))
        say("epoch %d train %.5f validation %.5f (%.1f s)" % (history[-1] + (time.time() - start,)))
        if history[-1][2] < best[0]:
            best = (history[-1][2], epoch, {name: w.copy() for name, w in net.params.items()})
    # The epoch that did best on the held-back games, not the last: past it
    # the network learns the training games' quirks, which a search exploits.
    net.params = best[2]
    say("kept epoch %d (validation %.5f)" % (best[1], best[0]))
    return net, history


def build_parser():
    p = argparse.ArgumentParser(prog="python -m host_tools.nnue.train",
                                description="Train micro960's network on labelled positions.")
    p.add_argument("--data", nargs="+", default=["build/nnue/positions.tsv"],
                   help="generate.py's or selfplay.py's files (.xz ones too)")
    p.add_argument("--out", default="build/nnue/float.npz", help="the float weights to write")
    p.add_argument("--hidden", type=int, default=32, help="accumulator size N (16, 32, 64)")
    p.add_argument("--buckets", type=int, default=1, help="output buckets by material count")
    p.add_argument("--epochs", type=int, default=10, help="passes over the data")
    p.add_argument("--batch", type=int, default=256, help="positions per Adam step")
    p.add_argument("--lr", type=float, default=2e-3, help="Adam's first learning rate")
    p.add_argument("--decay", type=float, default=0.9, help="the learning rate's factor per epoch")
    p.add_argument("--k", type=float, default=400.0, help="the sigmoid's scale in centipawns")
    p.add_argument("--lambda", dest="lam", type=float, default=1.0,
                   help="weight of Stockfish's score against the game result (1: the score only)")
    p.add_argument("--validation", type=float, default=0.05, help="the share held back (the file's last games)")
    p.add_argument("--seed", type=int, default=1, help="the seed of every random choice")
    p.add_argument("--mirror", action="store_true",
                   help="train on each position's left-right mirror too (twice the data)")
    p.add_argument("--init", metavar="WEIGHTS",
                   help="start from this weights file (its N and buckets) instead of random weights")
    return p


def main(argv=None):
    args = build_parser().parse_args(argv)
    if not 1 <= args.hidden <= 32:
        sys.exit("train: --hidden must be 1-32 (the output sum must fit in 31 bits)")
    if not 1 <= args.buckets <= 8 or not 0 <= args.lam <= 1:
        sys.exit("train: --buckets must be 1-8 and --lambda 0-1")
    init = None
    try:
        if args.init:
            init = read(args.init)
            args.hidden, args.buckets = init.hidden, init.buckets
        data = load_files(args.data, args.buckets, args.validation)
    except (OSError, ValueError, EOFError, lzma.LZMAError) as e:
        sys.exit("train: %s" % e)
    say = lambda line: print(line, file=sys.stderr, flush=True)  # noqa: E731
    positions = len(data[0][0]) + len(data[1][0])
    say("%d positions, N=%d, %d bucket(s)" % (positions, args.hidden, args.buckets))
    start = time.time()
    net, history = train(data, args.hidden, args.buckets, args.epochs, args.batch, args.lr,
                         args.decay, args.k, args.lam, args.validation, args.seed, say,
                         args.mirror, init)
    say("trained in %.0f s; validation loss %.5f" % (time.time() - start, min(h[2] for h in history)))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    net.save(args.out, k=args.k, lam=args.lam, positions=positions,
             history=np.array(history, np.float64))


if __name__ == "__main__":
    main()
