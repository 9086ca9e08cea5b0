"""Training positions for micro960's network: games in every rule set,
labelled by Stockfish.

    python -m host_tools.nnue.generate --positions 100000 --depth 8 --seed 1 \
        --out build/nnue/positions.tsv

Each game starts from a random set-up of a rule set (all 960 Chess960
set-ups, both ranks of double960 and transcendental, ...), plays a few
random plies so that no two games are alike, then is played on by a weak,
fast player:

- Stockfish itself (`go depth D`) where its rules are the game's rules:
  chess960, classical, double960, shuffle (classical castling is Chess960
  castling with the king on e and the rooks in the corners) and
  transcendental (no castling rights at all);
- micro960's own search at a small node count (--player-nodes) in chess480
  (Lewis's orthodox castling, which Stockfish does not know) and LRS (no
  check, king captures).

Every position after the random plies is searched by Stockfish at the fixed
depth (UCI_Chess960 on, one thread, a 16 MB hash cleared before each game);
that one search gives both the move Stockfish plays and the label. Only
quiet positions are kept: the side to move is not in check and Stockfish's
best move is neither a capture nor a promotion (the network should learn
what a position is worth, not what a capture sequence wins). Mate scores are
not kept (the search finds mates; the network need not).

Where Stockfish's rules differ:
- chess480: the position is labelled with its castling rights removed,
  since Stockfish would castle the Chess960 way. Its score therefore misses
  what castling is worth there; the game result still carries it.
- LRS: a position is labelled only when both kings are on the board and the
  side not to move is not in check (otherwise it is no legal chess position
  and Stockfish cannot read it). Stockfish then scores it as chess; with no
  check rule a king left in check is simply captured, so a chess mate is an
  LRS win too, and the scores mean nearly the same. Positions it cannot
  label are not kept.

Each game ends by the rules (micro960's Game), or is adjudicated: won when
the searches agree the score is beyond 1000 cp for 6 plies in a row, and at
--max-plies by the last score (beyond 300 cp a win, else a draw).

Output: one line per position, tab-separated:
    FEN  score  result  rules
FEN as micro960 writes it (X-FEN), score in centipawns from the side to
move's view, result from the side to move's view (1 won, 0.5 drawn, 0 lost),
rules the rule set's name. Game i is played from
random.Random(seed * 1000003 + i) alone (and Stockfish's hash cleared), so
the file is the same for the same seed and arguments whatever --jobs is.
"""
import argparse
import multiprocessing
import random
import subprocess
import sys
import time
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
if str(FIRMWARE) not in sys.path:
    sys.path.insert(0, str(FIRMWARE))

from micro960.rules.game import Game  # noqa: E402
from micro960.rules.position import BOTH, PAWN, TO120, WHITE  # noqa: E402
from micro960.rules.variants import Rules  # noqa: E402
from micro960.engine.search import Limits, Search  # noqa: E402
from micro960.rules.startpos import random_setup  # noqa: E402
from micro960.rules.ucimove import parse_uci  # noqa: E402

STOCKFISH = "/usr/games/stockfish"

# How often each rule set is drawn for a game: Chess960 most, as micro960
# plays it most; every rule set is there so the network knows its positions.
RULE_WEIGHTS = (("chess960", 40), ("classical", 10), ("double960", 12), ("shuffle", 6),
                ("chess480", 10), ("transcendental", 10), ("lrs", 12))
# Rules whose games Stockfish can play itself (see the module's doc).
STOCKFISH_PLAYS = ("chess960", "classical", "double960", "shuffle", "transcendental")

WIN_SCORE = 1000  # adjudication: beyond this for WIN_PLIES plies in a row wins
WIN_PLIES = 6
LAST_SCORE_WIN = 300  # at the ply limit, a score beyond this wins, else a draw
MATE = 30000  # a mate score, for adjudication only


class Engine:
    """A UCI engine, one search at a time, each `go <limit>`."""

    def __init__(self, command, options, limit, cwd=None):
        self.limit = limit
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        universal_newlines=True, bufsize=1, cwd=cwd)
        self.send("uci")
        self.wait_for("uciok")
        for name, value in options:
            self.send("setoption name %s value %s" % (name, value))
        self.new_game()

    def send(self, line):
        self.process.stdin.write(line + "\n")

    def wait_for(self, word):
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("the engine stopped unexpectedly")
            if line.startswith(word):
                return line

    def new_game(self):
        self.send("ucinewgame")
        self.send("isready")
        self.wait_for("readyok")

    def search(self, fen, limit=None):
        """(score in cp or None, mate in N or None, best move text) at the fixed
        limit, or at `limit` ("depth 9") for this search alone."""
        self.send("position fen " + fen)
        self.send("go " + (limit or self.limit))
        score = mate = None
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("the engine stopped on " + fen)
            words = line.split()
            if words[:1] == ["bestmove"]:
                return score, mate, words[1]
            if "score" in words and "bound" not in line:  # not a fail-high/low report
                i = words.index("score")
                if words[i + 1] == "cp":
                    score, mate = int(words[i + 2]), None
                else:
                    score, mate = None, int(words[i + 2])

    def close(self):
        try:
            self.send("quit")
            self.process.wait(5)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()


def stockfish(path=STOCKFISH, depth=8, hash_mb=16):
    """Debian's Stockfish searching to a fixed depth: the labels, and its moves."""
    return Engine([path], (("Threads", 1), ("Hash", hash_mb), ("UCI_Chess960", "true")),
                  "depth %d" % depth)


def micro960_player(nodes):
    """micro960's UCI engine on the MicroPython unix port, a fixed node count a
    move: its games in the rule sets Stockfish knows. (The unix port runs its
    viper search some fifty times faster than CPython does.)"""
    from host_tools.match import default_engine_command
    root = FIRMWARE.parent
    return Engine(default_engine_command("micropython"), (("UCI_Chess960", "true"),),
                  "nodes %d" % nodes, cwd=str(root))


def stockfish_fen(game):
    """The position as Stockfish should read it, or None when it cannot
    (LRS with a king gone or the side not to move in check)."""
    pos = game.pos
    rules = game.rules.name
    if rules == "lrs":
        if not pos.kings[0] or not pos.kings[1]:
            return None
        if pos.attacked(pos.kings[(pos.side ^ BOTH) >> 4], pos.side):
            return None
    fields = pos.fen(shredder=True).split()
    if rules == "chess480":
        fields[2] = "-"  # Stockfish would castle the Chess960 way
    return " ".join(fields)


def is_quiet_move(pos, text):
    """Neither a capture (en passant included) nor a promotion."""
    if len(text) == 5:
        return False
    fr = TO120["abcdefgh".index(text[0]) + 8 * (int(text[1]) - 1)]
    to = TO120["abcdefgh".index(text[2]) + 8 * (int(text[3]) - 1)]
    target = pos.board[to]
    if target and not target & pos.side:  # the other side's piece (own rook: castling)
        return False
    return not ((pos.board[fr] & 7) == PAWN and text[0] != text[2])  # en passant


def pick_rules(rng, only=None):
    weights = [(name, weight) for name, weight in RULE_WEIGHTS if not only or name in only]
    roll = rng.randrange(sum(weight for _, weight in weights))
    for name, weight in weights:
        if roll < weight:
            return name
        roll -= weight
    raise AssertionError("unreachable")


def new_game(rng, only=None):
    rules = Rules(pick_rules(rng, only))
    number = random_setup(rules, rng)
    black = random_setup(rules, rng) if rules.two_ranks else None
    return Game(rules, number=number, black_number=black)


def result_for_white(text):
    return {"1-0": 1.0, "0-1": 0.0}.get(text, 0.5)


def play_game(stockfish, rng, args, player=None):
    """One game; returns [(fen, score, side is White, rules)], White's result.
    `player`: micro960's UCI engine, for the games it plays where Stockfish could."""
    game = new_game(rng, args.rules)
    rules = game.rules.name
    stockfish.new_game()
    # micro960 plays where Stockfish cannot, and in a share of the other
    # games too: its own games reach the positions its evaluation must judge
    # (an attack on a king its weaker play let in), which Stockfish's games avoid.
    search = None if rules in STOCKFISH_PLAYS else Search(16)
    if player and (search or rng.random() < args.micro960_share):
        search = None  # the unix port's engine plays, in this game's rules
        player.send("setoption name UCI_Variant value " + rules)
        player.new_game()
    else:
        player = None
    random_plies = rng.randint(args.random_plies_min, args.random_plies_max)
    kept = []
    streak = 0  # plies in a row beyond WIN_SCORE for the same side
    last_white_score = 0
    for ply in range(args.max_plies):
        outcome = game.outcome()
        if outcome:
            return kept, result_for_white(outcome[0])
        pos = game.pos
        moves = game.legal_moves()
        if ply < random_plies:
            game.push(rng.choice(moves))
            continue
        white_score = None
        fen = stockfish_fen(game)
        best = None
        if fen:
            score, mate, best = stockfish.search(fen)
            if best == "(none)":  # no chess move (an LRS position): nothing to learn
                fen = None
            elif mate is not None:
                white_score = MATE if (mate > 0) == (pos.side == WHITE) else -MATE
            else:
                white_score = score if pos.side == WHITE else -score
                if not pos.in_check() and is_quiet_move(pos, best) and rng.random() < args.keep:
                    kept.append((pos.fen(), max(-args.clamp, min(args.clamp, score)),
                                 pos.side == WHITE, rules))
        if player is not None:
            score, mate, text = player.search(pos.fen(shredder=True))
            move = parse_uci(pos, text, moves)
            if white_score is None:  # what Stockfish could not label: micro960's score
                if mate is not None:
                    score = MATE if mate > 0 else -MATE
                white_score = score if pos.side == WHITE else -score
        elif search is None:
            move = parse_uci(pos, best, moves)
        else:
            search.tt.clear()
            move, score = search.think(game, Limits(nodes=args.player_nodes))
            if white_score is None:
                white_score = score if pos.side == WHITE else -score
        last_white_score = white_score
        if abs(white_score) >= WIN_SCORE:
            sign = 1 if white_score > 0 else -1
            streak = streak + sign if streak * sign > 0 else sign
        else:
            streak = 0
        if abs(streak) >= WIN_PLIES:
            return kept, 1.0 if streak > 0 else 0.0
        game.push(move)
    if abs(last_white_score) > LAST_SCORE_WIN:
        return kept, 1.0 if last_white_score > 0 else 0.0
    return kept, 0.5


_worker = {}


def _play(job):
    """Game number `index` in a worker: its own rng, the worker's Stockfish."""
    index, args = job
    if "stockfish" not in _worker:
        _worker["stockfish"] = stockfish(args.stockfish, args.depth)
        if args.micro960_share:
            _worker["player"] = micro960_player(args.player_nodes)
    rng = random.Random(args.seed * 1000003 + index)
    kept, white_result = play_game(_worker["stockfish"], rng, args, _worker.get("player"))
    lines = []
    for fen, score, white_to_move, rules in kept:
        result = white_result if white_to_move else 1.0 - white_result
        lines.append("%s\t%d\t%g\t%s\n" % (fen, score, result, rules))
    return lines


def run_games(play, workers, args, out, say=print, every=50):
    """Play games, `play((index, args))` giving each one's lines, in
    args.jobs processes, until args.positions lines are written to `out`;
    return the count. `workers`: the calling module's engines by name, closed
    at the end when the games ran in this process (a pool's die with it)."""
    written = games = 0
    start = time.time()
    jobs = ((i, args) for i in range(10 ** 9))
    pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None
    results = pool.imap(play, jobs) if pool else map(play, jobs)
    try:
        for lines in results:
            games += 1
            for line in lines[:args.positions - written]:
                out.write(line)
                written += 1
            if games % every == 0:
                out.flush()
                say("%d games, %d positions, %.2f s per 1,000" % (
                    games, written, (time.time() - start) * 1000 / max(1, written)))
            if written >= args.positions:
                break
    finally:
        if pool:
            pool.terminate()
        for name in list(workers):
            workers.pop(name).close()
    say("%d positions from %d games in %.0f s (%.2f s per 1,000)" % (
        written, games, time.time() - start, (time.time() - start) * 1000 / max(1, written)))
    return written


def write_games(play, workers, args, every=50):
    """run_games into the file args.out, by way of a .part file: a stopped
    run leaves no half file under the real name."""
    out_path = Path(args.out)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = out_path.with_suffix(out_path.suffix + ".part")
    with open(tmp, "w") as out:
        run_games(play, workers, args, out, lambda line: print(line, file=sys.stderr, flush=True),
                  every)
    tmp.replace(out_path)


def rules_list(text):
    names = text.split(",")
    for name in names:
        if name not in dict(RULE_WEIGHTS):
            raise argparse.ArgumentTypeError("unknown rules %r; choose from %s" % (
                name, ",".join(n for n, _ in RULE_WEIGHTS)))
    return names


def game_options(p, positions, out, depth, max_plies):
    """The options generate.py and selfplay.py share, with their defaults."""
    p.add_argument("--positions", type=int, default=positions, help="how many positions to write")
    p.add_argument("--out", default=out, help="the file to write")
    p.add_argument("--seed", type=int, default=1, help="the seed of every random choice")
    p.add_argument("--depth", type=int, default=depth, help="Stockfish's search depth per position")
    p.add_argument("--max-plies", type=int, default=max_plies,
                   help="a game's length before adjudication")
    p.add_argument("--keep", type=float, default=0.5,
                   help="the chance a quiet position is kept (below 1: fewer, less alike)")
    p.add_argument("--clamp", type=int, default=3000, help="scores are clamped to +-this (cp)")
    p.add_argument("--jobs", type=int, default=1, help="games played at once (one Stockfish each)")
    p.add_argument("--stockfish", default=STOCKFISH, help="the Stockfish program")


def check_game_options(args, program):
    """Exit with a one-line reason when the shared options are out of range."""
    if args.positions < 1 or args.depth < 1 or args.jobs < 1:
        sys.exit("%s: --positions, --depth and --jobs must be at least 1" % program)
    if not 0 < args.keep <= 1:
        sys.exit("%s: --keep must be in (0, 1]" % program)


def build_parser():
    p = argparse.ArgumentParser(prog="python -m host_tools.nnue.generate",
                                description="Labelled training positions from games in every rule set.")
    game_options(p, 100000, "build/nnue/positions.tsv", 8, 200)
    p.add_argument("--player-nodes", type=int, default=100,
                   help="micro960's nodes a move where it plays (chess480, LRS, --micro960-share)")
    p.add_argument("--micro960-share", type=float, default=0.0,
                   help="the share of games micro960 plays where Stockfish could (0-1)")
    p.add_argument("--random-plies-min", type=int, default=2, help="fewest random opening plies")
    p.add_argument("--random-plies-max", type=int, default=12, help="most random opening plies")
    p.add_argument("--rules", type=rules_list, default=None,
                   help="only these rule sets, comma-separated (default: all, weighted)")
    return p


def main(argv=None):
    args = build_parser().parse_args(argv)
    check_game_options(args, "generate")
    if not 0 <= args.micro960_share <= 1:
        sys.exit("generate: --micro960-share must be in [0, 1]")
    write_games(_play, _worker, args)


if __name__ == "__main__":
    main()
