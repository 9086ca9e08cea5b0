"""Transposition table: preallocated arrays whose total size is a setting in KB."""
from micro960.compat import const, micropython, ptr8, ptr16, ptr32, zeros  # noqa: F401

ENTRY_BYTES = 10  # key 4, move 2, score 2, depth and bound 1, age 1
_DEFAULT_KB = const(16)  # on CPython, which has no heap to measure
# On MicroPython the default table is sized from the heap left once
# everything else is loaded: GAME_KB stays free for the game (its moves, the
# modules the console loads now and then, a PGN to write), and the table
# takes half of the rest, up to _MAX_DEFAULT_KB (`micro960 bench --pico`
# prints the sizes on a Pico). A game's end (the archive written, then the
# next game set up) needs about 37 KB of it on the console's 192K heap
# since the modules went into folders (33 before; the 64-bit unix port pays
# twice a board's bytes for each package and name: tests/test_play_game_end.py);
# 38 leaves some to spare.
GAME_KB = 38
_MAX_DEFAULT_KB = const(64)


def default_kb():
    """The table's size in KB when none is asked for: see GAME_KB."""
    try:
        import gc
        gc.collect()
        spare = gc.mem_free() // 1024 - GAME_KB
    except AttributeError:  # CPython
        return _DEFAULT_KB
    return max(1, min(_MAX_DEFAULT_KB, spare // 2))

EXACT = const(1)
LOWER = const(2)  # the score is at least this (a fail-high)
UPPER = const(3)  # the score is at most this (a fail-low)


class TranspositionTable:
    def __init__(self, kb=None):
        self.keys = self.moves = self.scores = self.info = self.ages = None
        self.age = 0  # of the current search; entries of older searches give way
        self.resize(kb)

    def resize(self, kb=None):
        """Reallocate for `kb` kilobytes (default: default_kb()); the old table goes first."""
        self.keys = self.moves = self.scores = self.info = self.ages = None
        self.asked = kb  # None: sized from the free heap, and sized so again (smp.set_threads)
        kb = kb or default_kb()
        self.kb = kb
        self.size = max(1, kb * 1024 // ENTRY_BYTES)
        self.keys = zeros("i", self.size)
        self.moves = zeros("H", self.size)
        self.scores = zeros("h", self.size)
        self.info = bytearray(self.size)  # depth + 1 in bits 0-5, bound in bits 6-7; 0 = empty
        self.ages = bytearray(self.size)

    def new_search(self):
        """Entries stored before now are from an earlier search: any store may replace them."""
        self.age = (self.age + 1) & 255

    def clear(self):
        info = self.info
        for i in range(self.size):
            info[i] = 0

    @micropython.viper
    def probe(self, key: int) -> int:
        """The entry index for `key`, or -1."""
        i = key % int(self.size)
        if ptr8(self.info)[i] and ptr32(self.keys)[i] == key:
            return i
        return -1

    @micropython.viper
    def store(self, key: int, depth: int, bound: int, score: int, move: int):
        i = key % int(self.size)
        info = ptr8(self.info)
        keys = ptr32(self.keys)
        moves = ptr16(self.moves)
        ages = ptr8(self.ages)
        age = int(self.age)
        old = info[i]
        # Keep a deeper entry of another position from this search, unless
        # this one is exact. (One entry a key: buckets of two played worse,
        # docs/developing.md's Measurements, the search changes not taken.)
        if old and keys[i] != key and (old & 63) - 1 > depth and bound != EXACT and \
                ages[i] == age:
            return
        ages[i] = age
        if move == 0 and keys[i] == key:
            move = moves[i]  # keep the best move we knew
        keys[i] = key
        moves[i] = move
        ptr16(self.scores)[i] = score  # a 16-bit store keeps the sign for the signed array
        info[i] = (depth + 1 if depth < 62 else 63) | (bound << 6)

    def hashfull(self):
        """Permille of the first 1000 entries in use, as UCI reports it."""
        n = min(1000, self.size)
        used = 0
        for i in range(n):
            if self.info[i]:
                used += 1
        return used * 1000 // n
