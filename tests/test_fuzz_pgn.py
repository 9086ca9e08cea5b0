"""PGN fuzzing: files of random Chess960 games, some mutated (tags, comments,
variations, NAGs, bad moves, wrong results, odd bytes, cut short), replayed by
`micro960 replay` on CPython and on the MicroPython unix port.

Every game gets one line: its result by the rules and final position, or a
clean error. The good games are all replayed, and python-chess agrees with
each game micro960 replays.
"""
import io
import subprocess

import chess
import chess.pgn
from hypothesis import given, strategies as st

from fuzzing import fuzz_settings, micropython_command, random_game, tally
from micro960.rules.replay import replay_command

MUTATIONS = ("comment", "variation", "nag", "badmove", "result", "tag", "odd", "cut")
ODD = "\x00\x01\x7f\xe9\u2658 {}()$;%.*?!0123456789-/OKQRBNabcdefgh"  # no line ends, no [ ]


def pgn_text(seed, plies):
    start, moves = random_game("chess960", seed, plies)
    game = chess.pgn.Game.from_board(_played(start, moves))
    game.headers["Variant"] = "Chess960"
    return str(game)


def _played(start, moves):
    board = start.copy()
    for move in moves:
        board.push(move)
    return board


def mutate(text, kind, draw):
    head, _, moves = text.partition("\n\n")
    tokens = moves.split()
    at = draw(st.integers(0, max(0, len(tokens) - 1)))
    if kind == "comment":
        tokens.insert(at, "{ %s }" % draw(st.text(alphabet="abc xyz 1.e4", max_size=12)))
    elif kind == "variation":  # after a move, as PGN has it (python-chess plays one before)
        after_moves = [i + 1 for i, token in enumerate(tokens[:-1]) if not token.endswith(".")]
        if not after_moves:
            return text
        variation = draw(st.sampled_from(["( 1. e4 e5 )", "( Qxh7+ )", "( ( Nf3 ) )",
                                          "( garbage 2... )"]))
        tokens.insert(draw(st.sampled_from(after_moves)), variation)
    elif kind == "nag":
        tokens.insert(at, draw(st.sampled_from(["$1", "$22", "!?", "?!", "!!"])))
    elif kind == "badmove" and len(tokens) > 1:
        tokens[at] = draw(st.sampled_from(["Qz9", "Kxx1", "Nf6", "e5", "O-O-O-O", "1.", "P@e4"]))
    elif kind == "result":
        tokens[-1] = draw(st.sampled_from(["1-0", "0-1", "1/2-1/2", "*", "2-0"]))
    elif kind == "tag":
        head += "\n" + draw(st.sampled_from(['[Annotator "x"]', '[Foo bar]', '[Empty ""]',
                                             '[Quote "a \\" b"]']))
        if draw(st.booleans()):  # or a tag that matters gone
            head = "\n".join(line for line in head.split("\n")
                             if not line.startswith(draw(st.sampled_from(["[FEN", "[Variant"]))))
    elif kind == "odd":
        where = draw(st.integers(0, len(moves)))
        return head + "\n\n" + moves[:where] + draw(st.text(alphabet=ODD, min_size=1,
                                                            max_size=4)) + moves[where:]
    return head + "\n\n" + " ".join(tokens)


@st.composite
def pgn_files(draw):
    """(file text, [(game text, clean?)])."""
    games = []
    count = draw(st.integers(1, 4))
    for i in range(count):
        text = pgn_text(draw(st.integers(0, 10 ** 9)), draw(st.integers(0, 80)))
        kind = draw(st.sampled_from(MUTATIONS + ("clean", "clean")))
        if kind == "cut" and i == count - 1:
            text = text[:draw(st.integers(0, len(text)))]
        elif kind not in ("clean", "cut"):
            text = mutate(text, kind, draw)
        games.append((text, kind in ("clean", "cut") and text.endswith(("*", "-0", "-1", "1/2"))))
    return "\n\n".join(text for text, _ in games) + "\n", games


def python_chess_line(text):
    """What replay should print for one game, or None if python-chess finds fault."""
    try:
        game = chess.pgn.read_game(io.StringIO(text))
    except Exception:  # python-chess 1.11 raises IndexError on "( ( Nf3 ) )" right after a move
        return None
    if game is None or game.errors:
        return None
    board = game.end().board()
    outcome = board.outcome()
    return "%s %s" % (outcome.result() if outcome else "*", board.fen())


def check(games, output, code):
    lines = output.splitlines()
    assert code in (0, 1), output
    assert not [line for line in lines if "Traceback" in line], output
    assert len(lines) in (len(games), len(games) - 1), (output, games)  # the last may be cut away
    for (text, clean), line in zip(games, lines):
        expected = python_chess_line(text)
        if clean:
            assert line == expected, (text, line, expected)
        elif not line.startswith("error game "):
            assert expected is None or line == expected, (text, line, expected)
        else:
            assert "," in line and len(line) > 14, line  # says which game and what is wrong


@fuzz_settings()
@given(pgn=pgn_files())
def test_pgn_fuzz_on_cpython(pgn, tmp_path_factory):
    text, games = pgn
    with tally("pgn", "cpython"):
        path = tmp_path_factory.mktemp("pgn") / "games.pgn"
        path.write_text(text, encoding="utf-8")
        out = io.StringIO()
        code = replay_command(str(path), out=out)
        check(games, out.getvalue(), code)


def test_pgn_fuzz_on_micropython(tmp_path_factory):
    @fuzz_settings()
    @given(pgn=pgn_files())
    def case(pgn):
        text, games = pgn
        with tally("pgn", "micropython"):
            path = tmp_path_factory.mktemp("pgn") / "games.pgn"
            path.write_text(text, encoding="utf-8")
            result = subprocess.run(micropython_command("replay", str(path), heap="128K"),
                                    capture_output=True, text=True, timeout=120)
            check(games, result.stdout + result.stderr, result.returncode)
    case()
