"""Start positions: SP number <-> back rank, random and die-roll set-ups, the
set-ups of shuffle and LRS chess.

SP numbers follow the standard (Scharnagl) scheme: SP 518 = RNBQKBNR,
SP 0 = BBQNNRKR, SP 959 = RKRNNQBB.
"""
import random

CLASSICAL_SP = 518

# Where the two knights go among the five squares left after bishops and queen.
KNIGHT_PLACES = ((0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4))
# Shuffle chess keeps R.K at a, e, h; these files take Q, B, B, N, N.
SHUFFLE_FILES = (1, 2, 3, 5, 6)


def backrank(sp):
    """SP number -> back rank, e.g. backrank(518) == 'RNBQKBNR'."""
    if not 0 <= sp <= 959:
        raise ValueError("SP numbers run from 0 to 959")
    rank = [""] * 8
    sp, light = divmod(sp, 4)
    rank[2 * light + 1] = "B"
    sp, dark = divmod(sp, 4)
    rank[2 * dark] = "B"
    knights, queen = divmod(sp, 6)
    _fill(rank, queen, "Q")
    first, second = KNIGHT_PLACES[knights]
    _fill(rank, second, "N")  # the later square first, so `first` still counts right
    _fill(rank, first, "N")
    for letter in "RKR":
        _fill(rank, 0, letter)
    return "".join(rank)


def _fill(rank, index, letter):
    """Put `letter` on the index-th empty square from the a-file."""
    for file in range(8):
        if not rank[file]:
            if index == 0:
                rank[file] = letter
                return
            index -= 1
    raise ValueError("no empty square left")


def sp_number(rank):
    """Back rank -> SP number; ValueError if it is not a Chess960 start rank."""
    rank = _pieces(rank)
    light, dark = _opposite_bishops(rank)
    rooks_king = [rank[f] for f in range(8) if rank[f] in "RK"]
    if rooks_king != ["R", "K", "R"]:
        raise ValueError("the king must stand between the rooks: " + rank)
    rest = [rank[f] for f in range(8) if rank[f] != "B"]
    queen = rest.index("Q")
    rest = [c for c in rest if c != "Q"]
    knights = KNIGHT_PLACES.index(tuple(i for i in range(5) if rest[i] == "N"))
    return light + 4 * dark + 16 * queen + 96 * knights


def uniform(n, rng=random):
    """A uniform random integer in 0..n-1 using only getrandbits (all ports have it)."""
    bits = 1
    while (1 << bits) < n:
        bits += 1
    while True:
        x = rng.getrandbits(bits)
        if x < n:
            return x


def random_sp(rng=random):
    return uniform(960, rng)


def sp_from_dice(rolls):
    """Bodlaender's die procedure: an iterable of die rolls (1-6) -> SP number.

    In order: the dark-squared bishop (1-4 = a, c, e, g; re-roll 5 and 6),
    the light-squared bishop (1-4 = b, d, f, h; re-roll 5 and 6), the queen
    on the n-th empty square (1-6), a knight on the n-th empty square (1-5;
    re-roll 6), the other knight (1-4; re-roll 5 and 6); the king then goes
    between the rooks on the last three squares. Raises ValueError when the
    rolls run out or one is not 1-6.
    """
    rolls = iter(rolls)
    rank = [""] * 8
    dark = _roll(rolls, 4) - 1
    rank[2 * dark] = "B"
    light = _roll(rolls, 4) - 1
    rank[2 * light + 1] = "B"
    _fill(rank, _roll(rolls, 6) - 1, "Q")
    _fill(rank, _roll(rolls, 5) - 1, "N")
    _fill(rank, _roll(rolls, 4) - 1, "N")
    for letter in "RKR":
        _fill(rank, 0, letter)
    return sp_number("".join(rank))


def _roll(rolls, highest):
    """The next roll that is at most `highest`; higher ones are re-rolled."""
    for roll in rolls:
        if not 1 <= roll <= 6:
            raise ValueError("a die shows 1 to 6, not " + str(roll))
        if roll <= highest:
            return roll
    raise ValueError("more die rolls needed")


def start_fen(white_rank, black_rank=None, castling=True):
    """FEN of a start position from back ranks (Black mirrors White by default)."""
    black_rank = black_rank or white_rank
    rights = "KQkq" if castling else "-"
    return "%s/pppppppp/8/8/8/8/PPPPPPPP/%s w %s - 0 1" % (
        black_rank.lower(), white_rank.upper(), rights)


def shuffle_rank(n):
    """Set-up 0-17 of shuffle chess: bishops on opposite colours, R.K on a, e, h."""
    if not 0 <= n < 18:
        raise ValueError("shuffle set-ups run from 0 to 17")
    rank = ["R", "", "", "", "K", "", "", "R"]
    n, light = divmod(n, 3)
    n, dark = divmod(n, 2)
    rank[(1, 3, 5)[light]] = "B"
    rank[(2, 6)[dark]] = "B"
    empty = [f for f in SHUFFLE_FILES if not rank[f]]
    rank[empty.pop(n)] = "Q"
    for f in empty:
        rank[f] = "N"
    return "".join(rank)


def shuffle_number(rank):
    """Back rank -> shuffle set-up number; ValueError with the rule it breaks."""
    rank = _pieces(rank)
    if rank[0] + rank[4] + rank[7] != "RKR":
        raise ValueError("shuffle chess has the rooks on a and h and the king on e: " + rank)
    _opposite_bishops(rank)
    for n in range(18):
        if shuffle_rank(n) == rank:
            return n


def lrs_rank(n):
    """Arrangement 0-5039 of R, N, B, Q, K, B, N, R with no restriction."""
    if not 0 <= n < 5040:
        raise ValueError("LRS set-ups run from 0 to 5039")
    return _arrangement(n, "BBKNNQRR")


def lrs_number(rank):
    return _arrangement_number(_pieces(rank))


def transcendental_rank(n):
    """Rank 0-2879 of transcendental chess: bishops on opposite colours, the
    other six pieces anywhere. n = light bishop + 4 * dark bishop + 16 * the
    arrangement (0-179, alphabetical) of K, N, N, Q, R, R on the squares left."""
    if not 0 <= n < 2880:
        raise ValueError("transcendental set-ups run from 0 to 2879")
    n, light = divmod(n, 4)
    rest, dark = divmod(n, 4)
    rank = [""] * 8
    rank[2 * light + 1] = "B"
    rank[2 * dark] = "B"
    others = iter(_arrangement(rest, "KNNQRR"))
    return "".join(p or next(others) for p in rank)


def transcendental_number(rank):
    rank = _pieces(rank)
    light, dark = _opposite_bishops(rank)
    return light + 4 * dark + 16 * _arrangement_number(rank.replace("B", ""))


def _pieces(rank):
    """The rank in capitals if it holds R, N, B, Q, K, B, N, R in some order."""
    rank = rank.upper()
    if len(rank) != 8 or sorted(rank) != sorted("RNBQKBNR"):
        raise ValueError("a back rank has R, N, B, Q, K, B, N, R in some order: " + rank)
    return rank


def _opposite_bishops(rank):
    """(light, dark): the bishops' places among the b/d/f/h and a/c/e/g files."""
    bishops = [f for f in range(8) if rank[f] == "B"]
    if bishops[0] % 2 == bishops[1] % 2:
        raise ValueError("bishops must stand on opposite colours: " + rank)
    light = [f for f in bishops if f % 2][0] // 2
    dark = [f for f in bishops if not f % 2][0] // 2
    return light, dark


def _arrangement(n, letters):
    """The n-th arrangement of `letters` (a multiset), in alphabetical order."""
    pieces = sorted(letters)
    rank = ""
    while pieces:
        for letter in sorted(set(pieces)):
            rest = list(pieces)
            rest.remove(letter)
            count = _arrangements(rest)
            if n < count:
                rank += letter
                pieces = rest
                break
            n -= count
    return rank


def _arrangement_number(rank):
    """Inverse of _arrangement: the place of `rank` among its letters' arrangements."""
    pieces = sorted(rank)
    n = 0
    for letter in rank:
        for smaller in sorted(set(pieces)):
            if smaller == letter:
                break
            rest = list(pieces)
            rest.remove(smaller)
            n += _arrangements(rest)
        pieces.remove(letter)
    return n


def _arrangements(pieces):
    total = 1
    for i in range(2, len(pieces) + 1):
        total *= i
    for letter in set(pieces):
        k = pieces.count(letter)
        for i in range(2, k + 1):
            total //= i
    return total


# ------------------------------------------------ each rule set's set-ups
# `rules` is a rules.Rules: these number its set-ups (SP 0-959 in the
# Chess960 family, shuffle 0-17, transcendental 0-2879, LRS 0-5039).

def setup_rank(rules, number):
    """Set-up number -> White's back rank, e.g. SP 518 -> 'RNBQKBNR'."""
    name = rules.name
    if name == "classical" and number != CLASSICAL_SP:
        raise ValueError("classical chess has only SP 518")
    if name == "shuffle":
        return shuffle_rank(number)
    if name == "transcendental":
        return transcendental_rank(number)
    if name == "lrs":
        return lrs_rank(number)
    return backrank(number)


def setup_number(rules, rank):
    """Back rank -> its set-up number; ValueError saying which rule it breaks."""
    name = rules.name
    if name == "shuffle":
        return shuffle_number(rank)
    if name == "transcendental":
        return transcendental_number(rank)
    if name == "lrs":
        return lrs_number(rank)
    number = sp_number(rank)
    if name == "classical" and number != CLASSICAL_SP:
        raise ValueError("classical chess has only RNBQKBNR")
    return number


def random_setup(rules, rng=random):
    """A random set-up number. Chess480 draws one of the 480 whose king stands
    right of its queen: one of each mirrored pair, which play alike there."""
    if rules.name == "classical":
        return CLASSICAL_SP
    while True:
        number = uniform(rules.setups, rng)
        rank = setup_rank(rules, number)
        if rules.name != "chess480" or rank.index("K") > rank.index("Q"):
            return number


def setup_fen(rules, number=None, black_number=None, rng=random):
    """The start FEN of a set-up number (random when None). Rules that give
    each side its own rank take Black's number too (the same when None)."""
    if number is None:
        number = random_setup(rules, rng)
        if rules.two_ranks and black_number is None:
            black_number = random_setup(rules, rng)
    if black_number is not None and black_number != number and not rules.two_ranks:
        raise ValueError("%s gives both sides the same set-up; one number, please" % rules.name)
    white = setup_rank(rules, number)
    black = white if black_number is None else setup_rank(rules, black_number)
    return start_fen(white, black, castling=rules.castling)


def setup_numbers(rules, words):
    """`518`, `RNBQKBNR`, or White's and Black's (`3 900`) -> set-up numbers,
    checked against the rules."""
    if len(words) > (2 if rules.two_ranks else 1):
        raise ValueError("%s takes %s" % (rules.name, "White's and Black's set-up" if
                                          rules.two_ranks else "one set-up for both sides"))
    numbers = []
    for word in words:
        if len(word) == 8 and not word.isdigit():
            numbers.append(setup_number(rules, word))
            continue
        try:
            number = int(word)
        except ValueError:
            raise ValueError("a set-up is a number or a back rank like RNBQKBNR, not %r" % word)
        setup_rank(rules, number)  # raises, saying the range, if there is no such set-up
        numbers.append(number)
    return numbers


def setup_of(rules, fen):
    """(White's number, Black's number) if `fen` is a start position of the
    rules, else None."""
    fields = fen.split()
    rows = fields[0].split("/")
    if len(rows) != 8 or rows[1] != "pppppppp" or rows[6] != "PPPPPPPP" or \
            rows[2:6] != ["8"] * 4 or fields[1] != "w" or fields[3] != "-" or \
            not rows[7].isupper() or not rows[0].islower():
        return None
    if (fields[2] == "-") == rules.castling or rules.castling and len(fields[2]) != 4:
        return None
    try:
        numbers = (setup_number(rules, rows[7]), setup_number(rules, rows[0]))
    except ValueError:
        return None
    if numbers[0] != numbers[1] and not rules.two_ranks:
        return None
    return numbers


def setup_text(rules, fen):
    """'SP 518 (RNBQKBNR)', 'SP 0 / SP 959 (BBQNNRKR / RKRNNQBB)', or None."""
    numbers = setup_of(rules, fen)
    if numbers is None:
        return None
    # Chess960's numbers are SPs; the other rule sets number their own.
    label = "SP" if rules.setups == 960 or rules.name == "classical" else "set-up"
    ranks = (fen.split("/")[7].split()[0], fen.split("/")[0].upper())
    if numbers[0] == numbers[1]:
        return "%s %d (%s)" % (label, numbers[0], ranks[0])
    return "%s %d / %s %d (%s / %s)" % (label, numbers[0], label, numbers[1], ranks[0], ranks[1])
