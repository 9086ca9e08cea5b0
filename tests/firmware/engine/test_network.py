"""The learned evaluation (network.py) on both runtimes: after make and
unmake the accumulators (made when a node is scored, for the slots between
too) equal a full refresh in every rule set (castling of
every kind, promotions, en passant, LRS king captures, null moves); a
position and its colour-flipped mirror score the same; the search stands
pat on the network's score; a damaged weights file is refused with its
reason. (tests/test_nnue_reference.py checks the scores against reference.py.)
"""
import os
import random

from micro960.engine import netfile, network
from micro960.compat import zeros
from micro960.rules.game import Game
from micro960.rules.position import Position, pop_move, push_move
from micro960.rules.variants import NAMES, Rules
from micro960.rules.startpos import setup_fen

from support import legal, raises

NET = network.network()
N = NET.hidden
W = NET.width  # an accumulator: N units and the material column
SCRATCH = network.Network(NET.rows8, NET.rows, N, NET.buckets, NET.qa, NET.qb)  # refreshed for each score
FRESH = zeros("H", network.SLOTS * 2 * W)  # full refreshes, to compare with
_PLY = 5  # Position.state's ply


def matches_refresh(pos):
    """Are the accumulators at pos's ply, once scored, those a full refresh gives?"""
    score = network.score(NET.acc, NET.rows8, NET.rows, NET.shape, NET.pending,
                          pos.state[_PLY], pos.state[0], pos.counts, pos.kings)
    network.refresh(SCRATCH, pos)
    assert score == network.score(SCRATCH.acc, SCRATCH.rows8, SCRATCH.rows, SCRATCH.shape,
                                  SCRATCH.pending, pos.state[_PLY], pos.state[0], pos.counts,
                                  pos.kings)
    ply = pos.state[_PLY] & (network.SLOTS - 1)
    network.fill(FRESH, NET.rows8, NET.rows, N, ply, pos.board, pos.squares, pos.counts)
    at = ply * 2 * W
    for j in range(at, at + 2 * W):
        if NET.acc[j] != FRESH[j]:
            return False
    return True


def make(pos, move):
    """A move as the search makes it, the network's accumulators with it."""
    push_move(pos.board, pos.squares, pos.slot, pos.counts, pos.kings, pos.castle_mask, pos.state,
              pos.saved, move, pos.en_passant, NET.pending, N)


def unmake(pos, move):
    pop_move(pos.board, pos.squares, pos.slot, pos.counts, pos.kings, pos.state, pos.saved, move)


def kind_of(pos, move):
    """What a move is, to count them: castle, promotion, en passant, king
    capture, capture or quiet."""
    flag = move >> 12
    if flag == 3:
        return "castle"
    if flag >= 4:
        return "promotion"
    if flag == 2:
        return "en passant"
    victim = pos.board[21 + ((move >> 6) & 7) + 10 * ((move >> 9) & 7)]
    if victim & 7 == 6:
        return "king capture"
    return "capture" if victim else "quiet"


def walk(pos, depth, seen, rng=None):
    """Every move to `depth` plies (or one random move a ply, with null moves
    now and then, with `rng`), checking the accumulators after each make and
    each unmake; counts the kinds of move in `seen`."""
    moves = legal(pos)
    if rng and moves:
        special = [m for m in moves if kind_of(pos, m) not in ("quiet", "capture")]
        moves = [rng.choice(special if special and rng.randrange(3) else moves)]
    for move in moves:
        kind = kind_of(pos, move)
        seen[kind] = seen.get(kind, 0) + 1
        make(pos, move)
        # (In a random line, not every node is scored: score() then makes
        # the slots between, as the search's cut-off nodes leave them.)
        if not rng or rng.randrange(3) == 0:
            assert matches_refresh(pos), (pos.fen(), move)
        if depth > 1 and pos.kings[0] and pos.kings[1]:
            walk(pos, depth - 1, seen, rng)
        unmake(pos, move)
        assert matches_refresh(pos), (pos.fen(), move)
    if rng and depth > 1 and rng.randrange(6) == 0 and not pos.in_check():
        seen["null"] = seen.get("null", 0) + 1
        pos.push_null()
        network.null_move(NET.pending, pos.state[_PLY] - 1)
        if rng.randrange(2):
            assert matches_refresh(pos), pos.fen()
        walk(pos, depth - 1, seen, rng)
        pos.pop_null()
        assert matches_refresh(pos), pos.fen()


PLIES = 60  # a rule set's plies played, each with a random line below it


def test_make_and_unmake_match_a_refresh_in_long_random_games_of_every_rule_set():
    rng = random
    rng.seed(27)
    promotions = en_passant = 0
    for name in NAMES:
        rules = Rules(name)
        game = Game(rules)
        seen = {}
        plies = 0
        while plies < PLIES:
            game.new(setup_fen(rules, rng=rng))
            while plies < PLIES and game.result() == "*":
                pos = game.pos
                network.refresh(NET, pos)
                walk(pos, 12, seen, rng)  # a line 12 plies deep and back
                moves = legal(pos)
                game.push(rng.choice(moves))  # then on with the game
                plies += 1
        assert seen.get("capture") and seen.get("null"), (name, seen)
        if rules.castling:
            assert seen.get("castle"), (name, seen)
        en_passant += seen.get("en passant", 0)
        if rules.king_capture:
            assert seen.get("king capture"), (name, seen)
        promotions += seen.get("promotion", 0)
    # Rare in random games: so also every such move of the special positions below.
    assert promotions and en_passant


# Positions where every move to two plies is checked: castling with a king
# or a rook that does not move, Chess480's castling and its corner swap,
# promotions (with captures), en passant both ways, a king captured.
SPECIAL = (
    ("chess960", "r5kr/pppppppp/8/8/8/8/PPPPPPPP/R5KR w KQkq - 0 1"),  # O-O: the king stays
    ("chess960", "rnbqkr2/pppppppp/8/8/8/8/PPPPPPPP/RNBQKR2 w KQkq - 0 1"),  # the rook stays
    ("chess960", "1rk3r1/pppppppp/8/8/8/8/PPPPPPPP/1RK3R1 b KQkq - 0 1"),
    ("classical", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("chess480", "rk4r1/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 w KQkq - 0 1"),  # the corner swap
    ("shuffle", "r2k3r/pppppppp/8/8/8/8/PPPPPPPP/R2K3R w KQkq - 0 1"),
    ("double960", "rk4r1/pppppppp/8/8/8/8/PPPPPPPP/R5KR b KQkq - 0 1"),
    ("chess960", "r3k3/1P6/8/8/8/8/6p1/4K2R w K - 0 1"),
    ("chess960", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"),
    ("chess960", "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1"),
    ("lrs", "4k3/8/8/8/8/8/1p6/4RK2 w - - 0 1"),
)


def test_every_move_of_special_positions_matches_a_refresh():
    seen = {}
    for name, fen in SPECIAL:
        pos = Game(name, fen).pos
        network.refresh(NET, pos)
        walk(pos, 2, seen)
    for kind in ("castle", "promotion", "en passant", "king capture", "capture"):
        assert seen.get(kind), (kind, seen)


def mirror(fen):
    """The colour-flipped mirror: White and Black swapped, the board upside down."""
    fields = fen.split()
    swap = "".join(c.lower() if c.isupper() else c.upper() for c in fields[0])
    board = "/".join(reversed(swap.split("/")))
    return "%s %s - - 0 1" % (board, "b" if fields[1] == "w" else "w")


MIRRORED = (
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1",
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w - - 0 1",
)


def test_a_position_and_its_colour_flipped_mirror_score_the_same():
    for fen in MIRRORED:
        score = network.evaluate(Position(fen), NET)
        assert network.evaluate(Position(mirror(fen)), NET) == score, fen
    # ... and the side to move matters: a queen up is good for its owner only.
    up = "4k3/8/8/8/8/8/8/3QK3 %s - - 0 1"
    assert network.evaluate(Position(up % "w"), NET) > 300
    assert network.evaluate(Position(up % "b"), NET) < -300


def test_the_search_stands_pat_on_the_network_score():
    from micro960.engine.quiescence import quiesce
    from micro960.engine.search import INFINITE, Search
    fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    search = Search(1)
    search.at(Game("chess960", fen))
    assert quiesce(search, -INFINITE, INFINITE, 0, 0) == network.evaluate(Position(fen), NET)


def temp_path(name):
    return (os.getenv("TMPDIR") or "/tmp") + "/micro960-test-%s.nnue" % name


def damaged(name, head=None, keep=None, extra=b""):
    """A copy of the weights file, its first 2 KB changed by head(bytearray),
    only its first `keep` bytes kept, `extra` appended; its path. (Copied a
    piece at a time: a small heap holds no second copy of the weights.)"""
    size = os.stat(netfile.path())[6]
    keep = size if keep is None else keep
    path = temp_path(name)
    with open(netfile.path(), "rb") as f, open(path, "wb") as out:
        done = 0
        while done < keep:
            chunk = bytearray(f.read(min(2048, keep - done)))
            if done == 0 and head:
                head(chunk)
            out.write(chunk)
            done += len(chunk)
        out.write(extra)
    return path


def reason(path):
    try:
        netfile.read(path)
    except ValueError as e:
        return str(e)
    finally:
        try:
            os.remove(path)
        except OSError:  # the missing file's
            pass
    return None


def flip_a_byte(data):
    data[1000] ^= 1


def wrong_magic(data):
    data[0:4] = b"XXXX"


def test_a_damaged_weights_file_is_refused_with_its_reason():
    size = os.stat(netfile.path())[6]
    assert "checksum mismatch" in reason(damaged("crc", head=flip_a_byte))
    assert "truncated or padded" in reason(damaged("short", keep=size - 10))
    assert "truncated or padded" in reason(damaged("long", extra=b"\0\0"))
    assert "not a micro960 weights file" in reason(damaged("magic", head=wrong_magic))
    assert "too short" in reason(damaged("empty", keep=5))
    assert "cannot read it" in reason(temp_path("missing"))
    # A good copy reads as the network.
    path = damaged("good")
    copy = netfile.read(path)
    os.remove(path)
    assert copy.hidden == N and len(copy.rows) == len(NET.rows)
    assert all(copy.rows[i] == NET.rows[i] for i in range(len(NET.rows)))
    assert copy.rows8 == NET.rows8


def test_a_bare_king_is_scored_by_the_mop_up_where_it_can_be_mated():
    from micro960.engine import mopup

    def mop(fen):
        pos = Position(fen)
        network.refresh(NET, pos)
        return mopup.score(NET.acc, NET.rows8, NET.rows, NET.shape, NET.pending,
                           pos.state[_PLY], pos.state[0], pos.counts, pos.kings)
    centre, edge = mop("8/8/8/3k4/8/8/8/KQ6 w - - 0 1"), mop("3k4/8/8/8/8/8/8/KQ6 w - - 0 1")
    assert 1000 < centre < edge  # the bare king at the edge is better for White
    assert mop("3k4/8/8/8/8/8/8/KQ6 b - - 0 1") == -edge  # from the side to move's view
    assert mop("3k4/8/3K4/8/8/8/8/1Q6 w - - 0 1") > edge  # and the kings close
    # The network's own score (reference.py's) stays the network's ...
    assert network.evaluate(Position("3k4/8/8/8/8/8/8/KQ6 w - - 0 1"), NET) != edge
    # ... and so is the mop-up's where no king is bare (it took the last piece).
    for fen in ("3k4/8/8/8/8/8/3p4/KQ6 w - - 0 1", "3k4/8/8/8/8/8/8/K7 w - - 0 1"):
        assert mop(fen) == network.evaluate(Position(fen), NET), fen


def test_the_search_scores_by_the_mop_up_only_where_a_bare_king_can_be_mated():
    """The search loads engine/mopup.py for such an ending only: until then
    a board's heap is spared its code."""
    import sys
    from micro960.engine.search import Limits, Search, bare_king_to_mate
    drive = lambda fen: bare_king_to_mate(Position(fen))  # noqa: E731
    assert drive("8/8/8/3k4/8/8/8/KQ6 w - - 0 1") is True
    assert drive("8/8/8/3k4/8/8/8/KR6 b - - 0 1") is True
    assert drive("8/8/8/3k4/8/8/8/KBB5 w - - 0 1") is True
    assert drive("8/8/8/3k4/8/8/8/KNN5 w - - 0 1") is False  # no mate to force
    assert drive("8/8/8/3k4/8/8/4P3/K7 w - - 0 1") is False  # the network pushes the pawn
    assert drive("8/8/8/3k4/8/8/4p3/KQ6 w - - 0 1") is False  # no bare king
    assert drive("8/8/8/3K4/8/8/8/kr6 w - - 0 1") is True  # for Black too
    assert drive("8/8/8/3k4/8/8/8/KBN5 w - - 0 1") is False  # mate to force, too long a way
    sys.modules.pop("micro960.engine.mopup", None)  # as on a board at start
    search = Search(1)
    for fen, mop_up, loaded in (("8/8/8/3k4/8/8/8/KNN5 w - - 0 1", False, False),
                                ("8/8/8/3k4/8/8/8/KQ6 w - - 0 1", True, True),
                                ("8/8/8/3k4/8/8/4p3/KQ6 w - - 0 1", False, True)):
        move, score = search.think(Game("chess960", fen), Limits(depth=2))
        mopup = sys.modules.get("micro960.engine.mopup")
        assert (mopup is not None) == loaded, fen
        assert search.scoring is (mopup.score if mop_up else network.score), fen
        assert (score > 1000) == mop_up, (fen, score)  # the mop-up's 1000 up
