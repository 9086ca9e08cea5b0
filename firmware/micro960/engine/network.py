"""The learned evaluation: host_tools/nnue/reference.py's integer network,
(768 -> N + 1) x 2 perspectives -> 1, scored exactly as reference.evaluate does.

The weights file (micro960.nnue, in the package's folder) is read once, when the
first search is made (engine/netfile.py), into a bytearray `rows8` and a
16-bit array `rows`:

    rows8[0:N]           a zero row (128s): "no input" for push_move's update
    rows8[(i+1)*N:...]   the first layer's row of input i (0-767), each
                         weight + 128 (reference.py: the 128s cancel)
    rows[0:N]            the first layer's bias
    rows[N]              0: the zero row's material
    rows[N+1+i]          the material column's value of input i
    rows[N+769:...]      the output weights, 2N a bucket; then the output
                         biases, two halves of an int32 each; then the CRC

Input i from White's perspective is position.piece_row(piece) * 64 +
square: the piece's Zobrist index. From Black's the board is turned upside
down and the colours swap: i ^ 56, 384 further on or back.

The accumulators are a stack of 32 slots of 2(N + 1) int16 values (White's
perspective, then Black's: N units, then the material column), indexed by the position's undo-stack ply & 31.
push_move notes in `pending` which inputs the move into slot ply + 1 adds
and removes, and marks the slot not made; score() makes it (and any slot
above it not made yet) from the nearest made slot above, when the node is
scored: a node cut off before its score costs nothing here, and pop_move
has nothing to undo. A search never goes 32 plies below its root, so the
slots of one search's path never meet; the search refreshes the root's
slot in full (and marks it made) before it starts.

Values are kept as unsigned 16-bit (viper's ptr16 reads them so): sums wrap
mod 2**16 and stay right as long as the true value fits int16, which
reference.py's ranges promise; score() sign-extends where it must.
"""
from micro960.compat import const, micropython, ptr8, ptr16, zeros  # noqa: F401
from micro960.rules.position import TO64

SLOTS = const(32)  # accumulator slots; their index is the ply & 31
_SIDE = const(0)  # rules/position.py's values (viper code needs its own)
_PLY = const(5)
_WHITE = const(8)
# Network.shape's fields: what score() needs to know.
_HIDDEN = const(0)  # N, the clipped units
_BUCKETS = const(1)  # output buckets (by the number of pieces)
_QA = const(2)  # the quantization of the first layer
_QB = const(3)  # and of the output layer
_QA_SHIFT = const(4)  # log2(QA): a product's division by QA is a shift
_LIMIT = const(20000)  # no network score may look like a mate (search.MATE_BOUND)

_network = None


class Network:
    """The weights (rows8, rows), their shape, and the accumulator stack."""

    def __init__(self, rows8, rows, hidden, buckets, qa, qb):
        self.rows8 = rows8
        self.rows = rows
        self.hidden = hidden  # N, the clipped units
        self.width = hidden + 1  # an accumulator: the units, then the material column
        self.buckets = buckets
        self.qa = qa
        self.qb = qb
        self.acc = zeros("H", SLOTS * 2 * self.width)
        # Per slot, what the move into it adds and removes (push_move's four
        # inputs + 1, 0 for none) and whether the slot is made (1) or not (0).
        self.pending = zeros("H", SLOTS * 5)
        # What score() needs to know: the fields _HIDDEN ... _QA_SHIFT above.
        shape = self.shape = zeros("H", 5)
        shape[_HIDDEN], shape[_BUCKETS], shape[_QA], shape[_QB] = hidden, buckets, qa, qb
        shape[_QA_SHIFT] = len(bin(qa)) - 3

    def twin(self):
        """A network with these weights and accumulators of its own, for a
        second search running at the same time (engine/smp.py)."""
        return Network(self.rows8, self.rows, self.hidden, self.buckets, self.qa, self.qb)


def network():
    """The network, read from its file (engine/netfile.py) on the first call. A
    missing or bad file ends the program with one line saying why: never a
    wrong score. (Every front end makes its Search, which calls this, at start.)"""
    global _network
    if _network is None:
        from ..compat import load, release
        try:
            _network = load("engine.netfile").read()
        except ValueError as e:
            print("micro960: no network: %s" % e)
            raise SystemExit(1)
        finally:
            release("engine.netfile")  # its code is needed no more
    return _network


def refresh(net, pos):
    """Set the accumulators of pos's current ply from its pieces."""
    ply = pos.state[_PLY] & (SLOTS - 1)
    fill(net.acc, net.rows8, net.rows, net.hidden, ply, pos.board, pos.squares, pos.counts)
    net.pending[ply * 5 + 4] = 1


def fill(acc, rows8, rows, n, ply, board, squares, counts):
    """Both perspectives' accumulators (N units and the material column) at
    slot `ply`: bias plus the rows of every piece (see refresh). Plain
    Python: it runs once a search, and bytecode takes less heap than viper's
    machine code."""
    for side in range(2):
        at = (ply * 2 + side) * (n + 1)
        for j in range(n):
            acc[at + j] = rows[j]
        acc[at + n] = 0
        for c in range(2):
            for i in range(16 * c, 16 * c + counts[c]):
                sq = squares[i]
                piece = board[sq]
                code = ((piece - 9 - ((piece >> 3) & 2)) << 6) | TO64[sq]  # piece_row, square
                if side:
                    code ^= 56
                    code = code + 384 if code < 384 else code - 384
                row = (code + 1) * n
                for j in range(n):
                    acc[at + j] = (acc[at + j] + rows8[row + j] - 128) & 0xFFFF
                acc[at + n] = (acc[at + n] + rows[n + 1 + code]) & 0xFFFF


def null_move(pending, ply):
    """A null move into slot ply + 1 (ply: the position's before it): no
    input changes."""
    p = ((ply + 1) & (SLOTS - 1)) * 5
    for i in range(p, p + 5):
        pending[i] = 0


@micropython.viper
def score(acc: ptr16, rows8: ptr8, rows: ptr16, shape: ptr16, pending: ptr16, ply: int,
          side: int, counts: ptr8, kings: ptr8) -> int:
    """The side to move's score in centipawns at slot `ply`: its accumulators
    made first if they are not (from the nearest slot above that is, by
    the inputs push_move noted); then the squared clipped ReLU and the dot product
    with the output weights of the bucket the pieces on the board (`counts`
    a side, kings included) choose, and half the difference of the
    material columns. shape: Network.shape (_HIDDEN ... _QA_SHIFT). `kings`
    is for engine/mopup.py's score, which takes the same arguments: the
    search calls one or the other (Search.think)."""
    pieces = int(counts[0]) + int(counts[1])
    n = int(shape[_HIDDEN])
    width = n + 1  # an accumulator: the units, then the material column
    material = n  # rows[material + row]: the material of input row - 1 (row 0: none, 0)
    here = ply & (SLOTS - 1)
    k = here
    while int(pending[k * 5 + 4]) == 0:  # the root's slot is made (refresh)
        k = (k - 1) & (SLOTS - 1)
    while k != here:
        # Make slot k + 1 from slot k: one loop a perspective, over four
        # rows (castling: two on, two off; a capture one on, two off), the
        # zero row where a move has fewer: two rows on and two off, so the
        # weights' + 128 cancel. A plain move (one of each) has a loop of its
        # own over its two: 1.9% more nodes a second on the emulated Pico,
        # for 192 bytes of heap.
        src = k * 2 * width
        k = (k + 1) & (SLOTS - 1)
        dst = k * 2 * width
        p = k * 5
        added = int(pending[p])
        removed = int(pending[p + 1])
        added2 = int(pending[p + 2])
        removed2 = int(pending[p + 3])
        pending[p + 4] = 1
        for _side in range(2):
            a1 = added * n
            r1 = removed * n
            a2 = added2 * n  # row 0 is the zero row: a plain move or a capture adds it
            r2 = removed2 * n
            if a2 or r2:
                for j in range(n):
                    acc[dst + j] = (int(acc[src + j]) + int(rows8[a1 + j]) + int(rows8[a2 + j]) -
                                    int(rows8[r1 + j]) - int(rows8[r2 + j])) & 0xFFFF
            else:  # a plain move, the most of them: one row on, one off
                for j in range(n):
                    acc[dst + j] = (int(acc[src + j]) + int(rows8[a1 + j]) -
                                    int(rows8[r1 + j])) & 0xFFFF
            acc[dst + n] = (int(acc[src + n]) + int(rows[material + added]) +
                            int(rows[material + added2]) - int(rows[material + removed]) -
                            int(rows[material + removed2])) & 0xFFFF
            src += width
            dst += width
            # Black's perspective: the board upside down (square ^ 56), the
            # colours swapped; 0 (no input) stays 0.
            if added:
                added = ((added - 1) ^ 56) + (385 if added <= 384 else -383)
            if removed:
                removed = ((removed - 1) ^ 56) + (385 if removed <= 384 else -383)
            if added2:
                added2 = ((added2 - 1) ^ 56) + (385 if added2 <= 384 else -383)
            if removed2:
                removed2 = ((removed2 - 1) ^ 56) + (385 if removed2 <= 384 else -383)
    buckets = int(shape[_BUCKETS])
    qa = int(shape[_QA])
    bucket = (pieces - 2) * buckets // 30 if pieces > 2 else 0
    if bucket > buckets - 1:
        bucket = buckets - 1
    w2 = material + 769 + bucket * 2 * n
    b2 = material + 769 + buckets * 2 * n + 2 * bucket
    out = (((int(rows[b2 + 1]) ^ 0x8000) - 0x8000) << 16) | int(rows[b2])  # int32, signed
    at = here * 2 * width
    ours = at if side == _WHITE else at + width
    theirs = at + width if side == _WHITE else at
    d = qa * int(shape[_QB])
    shift = int(shape[_QA_SHIFT])  # v * v * w // QA, floored as reference.py's
    # The material columns, sign-extended, count at half their difference.
    out += (((int(acc[ours + n]) ^ 0x8000) - (int(acc[theirs + n]) ^ 0x8000)) * (d >> 1))
    for j in range(n):
        # The clipped ReLU (an accumulator above 32767 is negative: 0),
        # squared, times the output weight, sign-extended ((x ^ 0x8000) - 0x8000).
        v = int(acc[ours + j])
        if v > qa:
            v = 0 if v & 0x8000 else qa
        out += (v * v * ((int(rows[w2 + j]) ^ 0x8000) - 0x8000)) >> shift
        v = int(acc[theirs + j])
        if v > qa:
            v = 0 if v & 0x8000 else qa
        out += (v * v * ((int(rows[w2 + n + j]) ^ 0x8000) - 0x8000)) >> shift
    cp = out // d if out >= 0 else -((d - 1 - out) // d)  # floor division on both runtimes
    if cp > _LIMIT:
        return _LIMIT
    if cp < -_LIMIT:
        return -_LIMIT
    return cp


def evaluate(pos, net=None):
    """Score of pos for the side to move, in centipawns (refreshes its slot)."""
    net = net or network()
    refresh(net, pos)
    return score(net.acc, net.rows8, net.rows, net.shape, net.pending, pos.state[_PLY],
                 pos.state[_SIDE], pos.counts, pos.kings)
