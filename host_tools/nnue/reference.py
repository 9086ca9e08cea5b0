"""The network's integer arithmetic, defined once: the firmware must give
the same score as `evaluate` here, to the bit.

Pure Python, integers only, no numpy: it reads a weights file (see FORMAT)
and scores a FEN.

The network ("(768 -> N + 1) x 2 -> 1"):

- Inputs: one per (colour, piece type, square), seen from one side, the
  "perspective": from White's, a white knight on g1 is input
  0*384 + 1*64 + 6; from Black's the board is turned upside down (rank r
  becomes 9 - r) and the colours swap, so a black knight on g8 is the same
  input for Black. Both perspectives share one weight matrix, so a position
  and its colour-flipped mirror score the same by construction.
- Two accumulators of N + 1 int16 values: the side to move's and the other
  side's, each the bias plus the weight rows of its active inputs. (Make and
  unmake update them by adding and subtracting rows, the point of it all.)
- Squared clipped ReLU: each of the first N accumulator values clamped to
  0..QA and squared. (Squared, a unit can bend: a clipped line alone
  could not say "this much more is worth more than twice as much".)
- The last value of each accumulator is the material column, in
  centipawns, never clipped: a piece's worth on its square, its own side's
  plus and the other's minus, so that material adds up however much of it
  there is (N clipped units alone saturate: a queen up looked like a rook up).
- Output: a dot product of the side to move's N squared values, each
  product divided by QA (floor, v * v * w // QA: QA is a power of two, so a
  shift on the device) to keep the QA scale, then the
  other side's, with the 2N output weights of the position's bucket, plus
  that bucket's bias, plus (the side to move's material column - the other
  side's) * QA * QB / 2; divided by QA * QB (floor division, as Python's and
  MicroPython's `//`) to give centipawns from the side to move's view.
- Buckets: the output weights may come in B sets chosen by how many pieces
  (kings included) are on the board: bucket = min(B - 1, (pieces - 2) * B // 30).

Ranges, so that 16- and 32-bit arithmetic cannot overflow (the trainer
clips its float weights to keep them): a first-layer weight is one byte,
|w| <= 127 (1.98 at QA = 64), so an accumulator of 35 rows (32 pieces, the
bias, a row in flight during a move) stays under 32,767; a material value
is at most 1,000 cp, so 32 pieces' sum does too; the output sum is at most
2N * QA * 32,767 plus 65,534 * QA * QB / 2 plus the bias, under 2**30 for
N <= 64 (a MicroPython small int on a 32-bit Pico), and a product before
its division by QA at most QA * QA * 32,767, 2**27 at QA = 64.

The first layer's weights are stored as bytes, each plus 128 (0..255): a
Pico keeps the whole file in its heap, and a byte a weight is half of
int16's 24 KB at N = 16. The device adds and takes off rows as stored:
each update adds two rows and takes off two (the zero row, 128s, where a
move has fewer), so the 128s cancel.
"""
import struct

try:
    from binascii import crc32
except ImportError:  # pragma: no cover - every CPython has it
    from zlib import crc32

MAGIC = b"M9NN"
VERSION = 3  # 2 was the clipped ReLU's, unsquared
INPUTS = 768
# magic, version, inputs, hidden N, buckets, QA, QB, reserved
HEADER = struct.Struct("<4sHHHHHHH")
PIECES = "pnbrqk"

FORMAT = """\
weights file, little-endian:
  header  magic 'M9NN', u16 version (3), u16 inputs (768), u16 N, u16 buckets,
          u16 QA, u16 QB, u16 reserved (0)
  W1      uint8[768][N]      first layer, one row per input, each weight + 128
  b1      int16[N]           first layer bias
  M       int16[768]         the material column, one per input (cp)
  W2      int16[buckets][2N] output weights: side to move's N, then the other side's
  b2      int32[buckets]     output bias
  crc     u32 CRC-32 of everything before it
"""


class Weights:
    """A network's integer weights, as read from or written to a file."""

    def __init__(self, hidden, buckets, qa, qb, w1, b1, material, w2, b2):
        self.hidden = hidden
        self.buckets = buckets
        self.qa = qa
        self.qb = qb
        self.w1 = w1  # INPUTS * hidden ints (-127..127), row by row
        self.b1 = b1
        self.material = material  # INPUTS ints (cp)
        self.w2 = w2  # buckets * 2 * hidden ints
        self.b2 = b2


def payload_size(hidden, buckets):
    return INPUTS * hidden + 2 * hidden + 2 * INPUTS + 2 * 2 * hidden * buckets + 4 * buckets


def to_bytes(weights):
    """The weights as a file's bytes, header and checksum included."""
    n, b = weights.hidden, weights.buckets
    data = HEADER.pack(MAGIC, VERSION, INPUTS, n, b, weights.qa, weights.qb, 0)
    data += bytes(w + 128 for w in weights.w1)
    data += struct.pack("<%dh" % n, *weights.b1)
    data += struct.pack("<%dh" % INPUTS, *weights.material)
    data += struct.pack("<%dh" % (2 * n * b), *weights.w2)
    data += struct.pack("<%di" % b, *weights.b2)
    return data + struct.pack("<I", crc32(data) & 0xFFFFFFFF)


def from_bytes(data, name="weights"):
    """Read a weights file's bytes; ValueError saying what is wrong with it."""
    if len(data) < HEADER.size + 4:
        raise ValueError("%s: %d bytes is too short for a weights file" % (name, len(data)))
    magic, version, inputs, n, b, qa, qb, _ = HEADER.unpack_from(data, 0)
    if magic != MAGIC:
        raise ValueError("%s: not a micro960 weights file (magic %r)" % (name, magic))
    if version != VERSION or inputs != INPUTS:
        raise ValueError("%s: version %d with %d inputs; this reads version %d with %d" % (
            name, version, inputs, VERSION, INPUTS))
    if not (n and b and qa and qb) or qa & (qa - 1) or qa > 64:
        raise ValueError("%s: N, buckets and QB must not be 0, QA a power of two to 64" % name)
    size = HEADER.size + payload_size(n, b) + 4
    if len(data) != size:
        raise ValueError("%s: %d bytes where N=%d, %d buckets need %d (truncated or padded)" % (
            name, len(data), n, b, size))
    (stored,) = struct.unpack_from("<I", data, size - 4)
    if crc32(data[:size - 4]) & 0xFFFFFFFF != stored:
        raise ValueError("%s: checksum mismatch (the file is corrupted)" % name)
    at = HEADER.size
    w1 = [w - 128 for w in data[at:at + INPUTS * n]]
    at += INPUTS * n
    b1 = struct.unpack_from("<%dh" % n, data, at)
    at += 2 * n
    material = struct.unpack_from("<%dh" % INPUTS, data, at)
    at += 2 * INPUTS
    w2 = struct.unpack_from("<%dh" % (2 * n * b), data, at)
    at += 4 * n * b
    b2 = struct.unpack_from("<%di" % b, data, at)
    return Weights(n, b, qa, qb, w1, b1, material, w2, b2)


def read(path):
    with open(path, "rb") as f:
        return from_bytes(f.read(), str(path))


def features(fen):
    """(side to move's inputs, other side's inputs, pieces on the board) of a FEN."""
    fields = fen.split()
    white_to_move = fields[1] == "w" if len(fields) > 1 else True
    white, black = [], []
    rank = 7
    file = 0
    for c in fields[0]:
        if c == "/":
            rank -= 1
            file = 0
        elif c.isdigit():
            file += int(c)
        else:
            kind = PIECES.index(c.lower())
            colour = 0 if c.isupper() else 1
            square = rank * 8 + file
            white.append(colour * 384 + kind * 64 + square)
            black.append((1 - colour) * 384 + kind * 64 + (square ^ 56))  # upside down
            file += 1
    if white_to_move:
        return white, black, len(white)
    return black, white, len(white)


def bucket_of(pieces, buckets):
    return min(buckets - 1, max(0, pieces - 2) * buckets // 30)


def evaluate(weights, fen):
    """The network's score of `fen` in centipawns, from the side to move's view."""
    n = weights.hidden
    qa = weights.qa
    w1 = weights.w1
    ours, theirs, pieces = features(fen)
    bucket = bucket_of(pieces, weights.buckets)
    w2 = weights.w2
    base = bucket * 2 * n
    out = weights.b2[bucket]
    for half, sign, inputs in ((0, 1, ours), (n, -1, theirs)):
        for j in range(n):
            acc = weights.b1[j]
            for i in inputs:
                acc += w1[i * n + j]
            acc = 0 if acc < 0 else (qa if acc > qa else acc)  # clipped ReLU
            out += acc * acc * w2[base + half + j] // qa  # squared, back to QA's scale
        out += sign * sum(weights.material[i] for i in inputs) * (qa * weights.qb // 2)
    return out // (qa * weights.qb)


def mirror(fen):
    """The colour-flipped mirror of a FEN's board and side to move (the
    position with White and Black swapped); castling and en passant dropped."""
    fields = fen.split()
    ranks = fields[0].split("/")
    board = "/".join(rank.swapcase() for rank in reversed(ranks))
    side = "b" if fields[1] == "w" else "w"
    return "%s %s - - 0 1" % (board, side)
