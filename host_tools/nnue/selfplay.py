"""Many training positions fast: Stockfish plays and labels, python-chess keeps
the game. (generate.py plays every rule set with micro960's own rules and
search; that costs milliseconds a ply in CPython, this a fraction of one.)

    python -m host_tools.nnue.selfplay --positions 1000000 --depth 6 --jobs 2 \
        --out build/nnue/selfplay.tsv

A game starts from a random Chess960 set-up (the classical one among them,
and in --double960 of the games each side's own), plays 2-12 random plies,
then each ply Stockfish searches the position to --depth: that search labels
the position and gives the move played, except that with chance
--random-moves a random legal move is played instead. The random moves make
the positions a weaker player's: a piece left hanging, a king laid open,
material out of balance, where Stockfish's own games stay level and safe.

A position is kept (with chance --keep) when the side to move is not in
check and Stockfish's best move is neither a capture nor a promotion, as in
generate.py; mate scores are not kept. A game ends by the rules, when the
score stays beyond 1000 cp for 6 plies, or at --max-plies. The file is
generate.py's: FEN, score (cp, side to move's view), result (side to move's
view), rules; game i uses random.Random(seed * 1000003 + i) alone.

With --label-depth, a position about to be kept is searched again to that
depth, and that search labels it (and must find a quiet best move too):
the games cost what --depth costs, and only the kept positions, about one
ply in four, pay for the deeper labels.
"""
import argparse
import random
import sys

import chess

from .generate import (LAST_SCORE_WIN, WIN_PLIES, WIN_SCORE, check_game_options, game_options,
                       stockfish, write_games)


def start_board(rng, double960):
    """A random Chess960 set-up (each side its own in double960)."""
    white = chess.Board.from_chess960_pos(rng.randrange(960))
    if rng.random() >= double960:
        return white, "chess960"
    black = chess.Board.from_chess960_pos(rng.randrange(960))
    board = chess.Board(None, chess960=True)
    for square in chess.SQUARES:
        piece = white.piece_at(square) if chess.square_rank(square) < 2 else \
            black.piece_at(square) if chess.square_rank(square) > 5 else None
        if piece:
            board.set_piece_at(square, piece)
    board.castling_rights = white.castling_rights & chess.BB_RANK_1 | \
        black.castling_rights & chess.BB_RANK_8
    return board, "double960"


def play_game(engine, rng, args):
    """One game: [(fen, score, White to move, rules)], White's result."""
    board, rules = start_board(rng, args.double960)
    engine.new_game()
    for _ in range(rng.randint(2, 12)):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    kept = []
    streak = 0
    white_score = 0
    for _ in range(args.max_plies):
        outcome = board.outcome()
        if outcome:
            return kept, {True: 1.0, False: 0.0, None: 0.5}[outcome.winner]
        score, mate, best = engine.search(board.fen())
        move = chess.Move.from_uci(best)
        white = board.turn == chess.WHITE
        if mate is not None:
            white_score = 30000 if (mate > 0) == white else -30000
        else:
            white_score = score if white else -score
            if not board.is_check() and not board.is_capture(move) and not move.promotion and \
                    rng.random() < args.keep:
                label = label_search(engine, board, args.label_depth) if args.label_depth \
                    else score
                if label is not None:
                    kept.append((board.fen(), max(-args.clamp, min(args.clamp, label)), white,
                                 rules))
        if abs(white_score) >= WIN_SCORE:
            sign = 1 if white_score > 0 else -1
            streak = streak + sign if streak * sign > 0 else sign
            if abs(streak) >= WIN_PLIES:
                return kept, 1.0 if streak > 0 else 0.0
        else:
            streak = 0
        if rng.random() < args.random_moves:
            move = rng.choice(list(board.legal_moves))
        board.push(move)
    if abs(white_score) > LAST_SCORE_WIN:
        return kept, 1.0 if white_score > 0 else 0.0
    return kept, 0.5


def label_search(engine, board, depth):
    """The score of a search to `depth`, or None when it finds a mate or a
    capture or promotion to play (then the position is not kept)."""
    score, mate, best = engine.search(board.fen(), "depth %d" % depth)
    move = chess.Move.from_uci(best)
    if mate is not None or board.is_capture(move) or move.promotion:
        return None
    return score


_worker = {}


def _play(job):
    index, args = job
    if "engine" not in _worker:
        _worker["engine"] = stockfish(args.stockfish, args.depth)
    rng = random.Random(args.seed * 1000003 + index)
    kept, white_result = play_game(_worker["engine"], rng, args)
    return ["%s\t%d\t%g\t%s\n" % (fen, score, white_result if white else 1.0 - white_result, rules)
            for fen, score, white, rules in kept]


def build_parser():
    p = argparse.ArgumentParser(prog="python -m host_tools.nnue.selfplay",
                                description="Many labelled positions fast, from Stockfish's games.")
    game_options(p, 1000000, "build/nnue/selfplay.tsv", 6, 300)  # --depth: the label and the move
    p.add_argument("--random-moves", type=float, default=0.1,
                   help="the chance a ply is a random legal move instead")
    p.add_argument("--double960", type=float, default=0.2,
                   help="the share of games with each side's own set-up")
    p.add_argument("--label-depth", type=int, default=0,
                   help="label the kept positions by a search this deep (default: --depth's)")
    return p


def main(argv=None):
    args = build_parser().parse_args(argv)
    check_game_options(args, "selfplay")
    for name in ("random_moves", "double960"):
        if not 0 <= getattr(args, name) <= 1:
            sys.exit("selfplay: --%s must be in [0, 1]" % name.replace("_", "-"))
    if args.label_depth < 0:
        sys.exit("selfplay: --label-depth must be at least 1 (0: --depth labels)")
    write_games(_play, _worker, args, every=200)


if __name__ == "__main__":
    main()
