"""Debouncing 64 presence sensors: a change counts only once it persists.

A reed switch chatters for a few milliseconds when a magnet arrives, a piece
slid across the board brushes the squares it passes, and a loose wire can
drop a single reading. So a square's stable state flips only after the raw
reading has disagreed with it on `scans` scans in a row; one reading that
agrees again starts the count afresh. The scanner runs at a steady period,
so `scans` consecutive scans are a time: scans_for(debounce_ms, period_ms).

Allocation-free: the state is three preallocated bytearrays, and update()
works on rank bytes (small ints). A quiet board (the usual case) costs two
8-byte comparisons; a rank that agrees with its stable state and has
nothing pending costs one.

    >>> d = Debouncer(3)
    >>> quiet = bytearray(8); lifted = bytearray(8); lifted[0] = 1
    >>> d.reset(quiet)
    >>> changes = []
    >>> class Sink:
    ...     def put(self, square, occupied): changes.append((square, occupied))
    >>> for raw in (lifted, quiet, lifted, lifted, lifted):
    ...     d.update(raw, Sink())
    >>> changes             # the first, single reading was a bounce
    [(0, 1)]
"""


def scans_for(debounce_ms, period_ms):
    """How many consecutive scans `period_ms` apart span `debounce_ms`
    (at least one: a change is seen on the scan that reads it)."""
    if period_ms < 1:
        raise ValueError("scan period must be at least 1 ms")
    return max(1, (debounce_ms + period_ms - 1) // period_ms)


class Debouncer:
    def __init__(self, scans):
        if not 1 <= scans <= 255:
            raise ValueError("debounce must be 1-255 scans, not %r" % (scans,))
        self.scans = scans
        self.stable = bytearray(8)   # the debounced state, rank bytes
        self.pending = bytearray(8)  # squares whose raw reading differs, per rank
        self.counts = bytearray(64)  # consecutive differing scans per square
        self.nothing = bytes(8)

    def reset(self, ranks):
        """Take `ranks` as the stable state at once, with nothing pending."""
        for rank in range(8):
            self.stable[rank] = ranks[rank]
            self.pending[rank] = 0
        for square in range(64):
            self.counts[square] = 0

    def update(self, raw, sink):
        """Count one scan's raw rank bytes; for each square whose change has
        persisted long enough, flip its stable state and call
        sink.put(square, occupied) (occupied: 0 or the square's bit)."""
        stable = self.stable
        pending = self.pending
        if raw == stable and pending == self.nothing:
            return  # a quiet board
        counts = self.counts
        need = self.scans
        for rank in range(8):
            level = raw[rank]
            diff = level ^ stable[rank]
            watch = diff | pending[rank]
            if not watch:
                continue
            square = rank * 8
            bit = 1
            while bit <= watch:
                if watch & bit:
                    if diff & bit:
                        count = counts[square] + 1
                        if count >= need:
                            counts[square] = 0
                            stable[rank] ^= bit
                            pending[rank] &= 0xFF ^ bit
                            sink.put(square, level & bit)
                        else:
                            counts[square] = count
                            pending[rank] |= bit
                    else:  # back to the stable state: that was a bounce
                        counts[square] = 0
                        pending[rank] &= 0xFF ^ bit
                bit <<= 1
                square += 1
