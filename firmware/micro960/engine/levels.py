"""Playing below full strength: a level is a rating (`level 1500`, UCI's
UCI_Elo) or a skill level 0-19 (`level 7`, UCI's Skill Level), each made of
three knobs:

- nodes: the most a move may search, in the Pico's nodes (docs/developing.md's
  Measurements give the Pico's nodes a second): the same strength on the
  device and on a PC, and at any clock;
- depth: the deepest iteration, so a level misses the tactics beyond it
  however fast it runs. These two are the weakening: a lower level sees
  less, as a weaker player does;
- noise: a random bonus of 0 to `noise` centipawns added to each root move's
  score before the best is taken. It varies the play and prefers the moves
  that score close to the best, the plausible ones: a move further below
  the best than the noise is never played (the bonus stays below it). From
  1250 up the noise is at most a pawn (100), so a move the search saw lose
  material never gets enough of it; below 1250 a pawn may go, as a
  beginner's do, but never a piece (the noise is at most 300): no level
  gives pieces away at random.

The first iteration always runs whole (see prepare), so even the lowest
level weighs every move. The lowest row (one ply, the most noise that
gives no piece away) measures about 1100: below it the only weakening
left would be giving material away, so no level goes lower.

Each row was measured (host_tools/levels/README.md has the matches and
their games): against Stockfish 15.1 at the same UCI_Elo, 0.2 s a move
(its weakening picks its move at a shallow depth, which that reaches), or,
below Stockfish's floor of 1350, against the row above, which it should
score as far below as its rating is (24% at 200 below, 30% at 150). A
rating between two rows takes knobs between theirs. At full strength
(level 20, the default) nothing loads this module.
"""

from micro960.compat import zeros

# rating, nodes a move, depth, noise (centipawns); what it scored
LEVELS = (
    (1100, 300, 1, 220),  # 76/200 against 1250: -85.0 +/- 43.7
    (1250, 300, 1, 100),  # 56/200 against 1450: -164.1 +/- 48.5
    (1450, 1000, 2, 30),  # 92/200 against Stockfish 1450: -27.9 +/- 45.6
    (1650, 8000, 4, 20),  # 114/200 against Stockfish 1650: +49.0 +/- 44.2
    (1900, 12000, 12, 0),  # 93/200 against Stockfish 1900: -24.4 +/- 42.3
)
LOWEST = LEVELS[0][0]
HIGHEST = LEVELS[-1][0]


def rating(level):
    """The rating a level plays at: a skill level 0-19 spreads evenly from
    the lowest rating to the highest (20 is full strength, above them all);
    a rating is itself."""
    if level < 20:
        return LOWEST + (HIGHEST - LOWEST) * level // 20
    return level


def check(level):
    """`level` if micro960 plays it: 0-20 or a rating LOWEST-HIGHEST."""
    if not (0 <= level <= 20 or LOWEST <= level <= HIGHEST):
        raise ValueError("levels are 0-20 (20 = full strength) or a rating %d-%d"
                         % (LOWEST, HIGHEST))
    return level


def nearest(level):
    """A saved level as micro960 plays it now: a rating beyond the table's
    ends becomes the end's (a game saved at 1050, the lowest rating before
    2026-11-29, resumes at 1100); a skill level stays."""
    return min(max(level, LOWEST), HIGHEST) if level > 20 else level


def ponders(level):
    """Whether the engine may think on the opponent's time: at level 10 and
    up, and at the ratings from level 10's up (below it, a move takes little
    time to think anyway)."""
    return level == 20 or rating(level) >= rating(10)


def knobs(level):
    """(nodes, depth, noise) of a level below full strength, between the
    two rows of LEVELS around its rating (rounded)."""
    elo = rating(level)
    low = LEVELS[0]
    for high in LEVELS:
        if high[0] >= elo:
            break
        low = high
    span = high[0] - low[0]
    if not span:
        return high[1:]
    part = elo - low[0]
    return tuple(a + ((b - a) * part * 2 + span) // (2 * span) for a, b in zip(low[1:], high[1:]))


# Every root move and its score, for the noise: the search's iteration
# under way up to 256, the last finished one's from 256 on. Made when first
# needed, and kept as long as this module.
ROOT = []
HELD = [0]  # the node limit, held back while the first iteration runs


def prepare(search, max_depth):
    """Search.think at a level: (its depth cap, its noise). With noise, the
    search keeps every root move's score (with the full window, so each is
    exact) in ROOT's buffers, and its first iteration runs whole whatever
    the node budget: every move is weighed at least one ply and its
    captures deep, so none that loses material there is played."""
    _, depth, noise = knobs(search.level)
    if noise:
        if not ROOT:
            ROOT.append(zeros("H", 512))
            ROOT.append(zeros("h", 512))
        search.root_moves, search.root_scores = ROOT
        HELD[0] = search.node_limit
        search.node_limit = 0
    return min(max_depth, depth), noise


def keep(search):
    """After each iteration not stopped (and the first, which only the
    clock can stop): its root moves and scores (from 256 on) for
    weaker_choice; how many. The node limit is back from the first on.
    Cut short, the last move searched is left out (its score is not
    known)."""
    if HELD[0]:
        search.node_limit = HELD[0]
        HELD[0] = 0
    moves = search.root_moves
    scores = search.root_scores
    count = search.root_count - (1 if search.stopped else 0)
    for i in range(count):
        moves[256 + i] = moves[i]
        scores[256 + i] = scores[i]
    return count


def weaker_choice(search, best, noise, count):
    """The root move with the best score plus noise, out of the `count` moves
    of the last finished iteration (see keep); `best` when there is no
    choice."""
    if count < 2 or not noise:
        return best
    moves = search.root_moves
    scores = search.root_scores
    rng = search.rng
    chosen = best
    top = -32768
    for i in range(256, 256 + count):
        value = scores[i] + noise * rng.getrandbits(8) // 256
        if value > top:
            top = value
            chosen = moves[i]
    return chosen
