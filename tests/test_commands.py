"""The `micro960` text commands, run as a user would, on both runtimes.

Each case runs `python3 -m host_tools ...` in a subprocess, once with
--runtime cpython and once with --runtime micropython (the firmware compiled
to .mpy on the MicroPython unix port, 64K heap).
"""
import subprocess
import sys
from pathlib import Path

import chess
import pytest

from host_tools.bench import chess_perft
from micro960.text import commands

REPO = Path(__file__).resolve().parent.parent
RUNTIMES = ("cpython", "micropython")

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POSITION4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
# Chess960 castling: the king standing still (g1h1), the king's square
# attacked only once the rook has left it (no c-side castle), rooks inside.
CASTLING_960 = (
    "2r3kr/8/8/8/8/8/8/2R3KR w HChc - 0 1",
    "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
    "1r3kr1/8/8/8/8/8/8/2R2K1R w HCgb - 0 1",
)


def micro960(args, runtime="cpython", input=None):
    command = [sys.executable, "-m", "host_tools"] + list(args) + ["--runtime", runtime]
    return subprocess.run(
        command, cwd=REPO, input=input, capture_output=True, text=True, timeout=300,
        stdin=subprocess.DEVNULL if input is None else None)


def last_line(result):
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout.strip().split("\n")[-1]


def read_table(path):
    lines = Path(path).read_text().splitlines()
    columns = lines[0].split("\t")
    return [dict(zip(columns, line.split("\t"))) for line in lines[1:] if line]


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_perft_prints_the_node_count_last(runtime):
    assert last_line(micro960(["perft", START, "3"], runtime)) == "8902"
    # The FEN may also come as separate words.
    assert last_line(micro960(["perft"] + KIWIPETE.split() + ["2"], runtime)) == "2039"
    assert last_line(micro960(["perft", START, "0"], runtime)) == "1"


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_perft_refuses_depths_its_buffers_do_not_hold(runtime):
    """perft FEN 40 died with an IndexError traceback."""
    said = "depth must be a whole number from 0 to 16, not '40'"
    for args in (["perft", START, "40"], ["perft", START, "17", "--divide"]):
        result = micro960(args, runtime)
        assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
        assert result.stderr.strip() == "error: " + said.replace("'40'", repr(args[2])), \
            result.stderr
    batch = micro960(["perft", "--batch"], runtime, input="%s\t40\n%s\t1\n" % (START, START))
    assert batch.stdout.split("\n")[:2] == ["error " + said, "20"], batch.stdout


@pytest.mark.parametrize("runtime", RUNTIMES)
@pytest.mark.parametrize("fen", (KIWIPETE, POSITION4) + CASTLING_960)
def test_perft_divide_agrees_with_python_chess(runtime, fen):
    result = micro960(["perft", fen, "2", "--divide"], runtime)
    lines = result.stdout.strip().split("\n")
    ours = dict(line.split(": ") for line in lines[:-1])
    board = chess.Board(fen, chess960=True)
    theirs = {}
    for move in board.legal_moves:
        board.push(move)
        theirs[board.peek().uci()] = str(board.legal_moves.count())
        board.pop()
    # python-chess writes Chess960 castling as king takes rook, as we do.
    assert ours == theirs
    assert lines[:-1] == sorted(lines[:-1])
    assert int(lines[-1]) == sum(int(n) for n in theirs.values())


def test_divide_writes_castling_as_king_takes_rook_and_promotions_with_a_letter():
    moves = micro960(["perft", KIWIPETE, "1", "--divide"]).stdout
    assert "e1h1: 1" in moves and "e1a1: 1" in moves
    promotions = micro960(["perft", "7k/P7/8/8/8/8/8/K7 w - - 0 1", "1", "--divide"]).stdout
    assert [line for line in promotions.split("\n") if line.startswith("a7a8")] == [
        "a7a8b: 1", "a7a8n: 1", "a7a8q: 1", "a7a8r: 1"]


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_perft_batch_answers_each_line(runtime):
    lines = [
        START + "\t3",
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\t2",
        "",  # blank lines are skipped
        "not a fen\t2",
        START + "\tdeep",
        START,
        KIWIPETE + " 1",  # a space instead of the tab works too
        START + "\t-1",
    ]
    result = micro960(["perft", "--batch"], runtime, input="\n".join(lines) + "\n")
    assert result.returncode == 0, result.stdout + result.stderr
    answers = result.stdout.split("\n")
    assert answers[-1] == ""
    answers = answers[:-1]
    assert answers[:2] == ["8902", "400"]
    assert [answer.split(" ")[0] for answer in answers[2:]] == [
        "error", "error", "error", "48", "error"]
    assert "FEN" in answers[2] and "depth" in answers[3] and "depth" in answers[6]


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_startpos_matches_the_table(runtime, data_dir):
    table = {row["sp"]: row for row in read_table(data_dir / "sp960.tsv")}
    for number in ("0", "518", "959", "1", "777"):
        row = table[number]
        line = last_line(micro960(["startpos", number], runtime))
        assert line == "%s %s %s" % (number, row["backrank"], row["xfen"])


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_startpos_takes_a_back_rank_as_the_console_does(runtime, data_dir):
    """`startpos RNBQKBNR` was refused ("set-up numbers are whole numbers"):
    a back rank gives the same `N BACKRANK XFEN` line as its number, in any
    case; one that is no start position of the rules is named, with the rule
    it breaks."""
    table = {row["backrank"]: row for row in read_table(data_dir / "sp960.tsv")}
    for rank in ("RNBQKBNR", "BBQNNRKR", "rkrnnqbb"):
        row = table[rank.upper()]
        line = last_line(micro960(["startpos", rank], runtime))
        assert line == "%s %s %s" % (row["sp"], row["backrank"], row["xfen"])
    assert last_line(micro960(["startpos", "--rules", "double960", "RNBQKBNR", "0"], runtime)) \
        == "518/0 RNBQKBNR/BBQNNRKR bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert last_line(micro960(["startpos", "--rules", "shuffle", "RNBQKBNR"], runtime)) \
        == "8 RNBQKBNR rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    for args, error in (
            (["KRNBBQNR"], "KRNBBQNR is no start position of chess960: the king must stand "
                           "between the rooks"),
            (["RBNQKBNR"], "RBNQKBNR is no start position of chess960: bishops must stand on "
                           "opposite colours"),
            (["RNBQKBNQ"], "RNBQKBNQ is no start position of chess960: a back rank has R, N, B, "
                           "Q, K, B, N, R in some order"),
            (["--rules", "classical", "RKRNNQBB"], "RKRNNQBB is no start position of "
                                                   "classical: classical chess has only RNBQKBNR"),
            (["RNBQKBN"], "a set-up is a number or a back rank like RNBQKBNR, not 'RNBQKBN'")):
        bad = micro960(["startpos"] + args, runtime)
        assert (bad.returncode, bad.stdout, bad.stderr) == (1, "", "error: %s\n" % error)


def test_startpos_random_is_a_real_start_position(data_dir):
    table = {row["sp"]: row for row in read_table(data_dir / "sp960.tsv")}
    number, backrank, fen = last_line(micro960(["startpos", "random"])).split(" ", 2)
    assert table[number]["backrank"] == backrank and table[number]["xfen"] == fen


BAD_INPUT = [
    ["perft", "not a fen", "2"],
    ["perft", START.replace("KQkq", "KQkqX"), "2"],
    ["perft", START, "x"],
    ["perft", START, "-1"],
    ["perft", START],
    ["perft"],
    ["perft", START, "2", "--frobnicate"],
    ["perft", "--batch", "extra"],
    ["startpos", "960"],
    ["startpos", "-1"],
    ["startpos", "abc"],
    ["startpos"],
    ["replay"],
]


@pytest.mark.parametrize("runtime", RUNTIMES)
@pytest.mark.parametrize("args", BAD_INPUT, ids=lambda args: " ".join(args)[:40])
def test_bad_input_gives_one_error_line_and_no_traceback(runtime, args):
    result = micro960(args, runtime)
    assert result.returncode != 0
    assert "Traceback" not in result.stdout + result.stderr
    assert result.stdout == ""
    error = result.stderr.strip().split("\n")
    assert len(error) == 1 and error[0].startswith("error: "), result.stderr


def test_too_small_a_heap_is_reported_not_a_traceback():
    result = micro960(["startpos", "518", "--heap", "16K"], "micropython")
    assert result.returncode == 1
    assert "Traceback" not in result.stdout + result.stderr
    assert "--heap" in result.stderr


def test_host_command_line_errors():
    unknown = micro960(["frobnicate"])
    assert unknown.returncode == 2 and "Traceback" not in unknown.stderr
    assert micro960(["perft", START, "1", "--heap", "lots"]).returncode == 2
    assert micro960(["--help"]).returncode == 0  # --runtime after it is never read


def test_search_bench_gives_the_same_signature_on_both_runtimes():
    result = subprocess.run([sys.executable, "-m", "host_tools", "bench", "--depth", "3",
                             "--repeat", "2"],
                            cwd=REPO, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "to depth 3, best of 2 runs" in result.stdout
    assert "total nodes (signature): " in result.stdout and "disagree" not in result.stdout
    assert "MicroPython peak heap in use: " in result.stdout


def test_perft_suite_bench_checks_the_reference_counts():
    result = subprocess.run([sys.executable, "-m", "host_tools", "bench", "--perft-suite",
                             "--depth", "2", "--every", "40"],
                            cwd=REPO, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert ", 0 wrong" in result.stdout


def test_perft_suite_says_what_it_skips_and_how_far_it_is():
    """--depth 6 skipped the 960 start positions silently (their counts stop
    at depth 5) and then printed nothing for hours; now one line says what
    is skipped, and a line after each position (at most one every
    `interval` seconds) gives the positions done, nodes, wrong counts and
    the time so far."""
    import io
    from host_tools.bench import perft_suite, perft_suite_cases
    out = io.StringIO()
    deep = perft_suite_cases(6, 1, out)
    assert out.getvalue() == ("skipped: the 960 start positions (tests/data/perft960.tsv counts "
                              "depths 1-5, not 6); the standard positions run\n")
    assert deep and not [name for name, _, _, _ in deep if name.startswith("SP ")]
    assert ("startpos", START, 6, 119060324) in deep
    out = io.StringIO()
    assert len([case for case in perft_suite_cases(5, 1, out) if case[0].startswith("SP ")]) \
        == 960 and out.getvalue() == ""
    out = io.StringIO()
    cases = perft_suite_cases(2, 40, io.StringIO())
    assert perft_suite(2, every=40, interval=0, out=out) == 0
    lines = out.getvalue().splitlines()
    assert len(lines) == len(cases) == 24 + 14
    assert lines[0].startswith("1/38 positions (SP 0 depth 2), 400 nodes, 0 wrong, ")
    assert lines[-2].startswith("37/38 positions (position6 depth 1), ")
    assert all(line.endswith(" s so far") for line in lines[:-1])
    assert lines[-1].startswith("perft suite on cpython: 38 positions, 16,357 nodes in ")


def test_commands_in_process(capsys):
    assert commands.main(["startpos", "518"]) == 0
    assert capsys.readouterr().out == "518 RNBQKBNR %s\n" % START
    assert commands.main([]) == 2
    assert commands.main(["frobnicate"]) == 2
    assert commands.main(["help"]) == 0
    assert "usage" in capsys.readouterr().out


def test_python_chess_perft_used_by_the_bench():
    assert chess_perft(chess.Board(), 0) == 1
    assert chess_perft(chess.Board(), 2) == 400
    assert chess_perft(chess.Board(KIWIPETE), 2) == 2039


REPLAY_PGN = """[Event "mate"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1

[Event "broken"]
[Variant "Chess960"]
[SetUp "1"]
[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"]

1. g3 {a comment} g6 (1... Nf6) 2. Kxh1 *

[Event "unfinished"]

1. e4 $1 e5 *
"""


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_replay_prints_result_and_position_and_reports_bad_moves(runtime, tmp_path):
    path = tmp_path / "games.pgn"
    path.write_text(REPLAY_PGN)
    result = micro960(["replay", str(path)], runtime)
    assert result.returncode == 1  # one game had an illegal move
    assert result.stdout.split("\n")[:3] == [
        "0-1 rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
        "error game 2, move 2. Kxh1: illegal move: Kxh1",
        "* rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
    ]


def test_replay_pgn_writes_the_games_back_in_our_san(tmp_path):
    path = tmp_path / "games.pgn"
    path.write_text(REPLAY_PGN)
    result = micro960(["replay", str(path), "--pgn"])
    assert "error game 2" in result.stderr
    assert "1. f3 e5 2. g4 Qh4# 0-1" in result.stdout
    assert '[Variant "Chess960"]' in result.stdout and "1. g3 g6 *" in result.stdout
    assert "1. e4 e5 *" in result.stdout


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_a_reader_that_stops_early_ends_the_command_quietly(runtime, tmp_path):
    """`replay --pgn ... | head` once printed `error: [Errno 32] Broken pipe`:
    a command whose reader has gone ends quietly, as Unix tools do (the
    status of one killed by SIGPIPE, 141)."""
    path = tmp_path / "many.pgn"
    path.write_text('[Event "g"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n' * 400)
    batch = "".join("8/8/8/8/8/8/8/K6k w - - 0 1\t1\n" for _ in range(3000))
    for args, text in ((["replay", str(path), "--pgn"], None), (["perft", "--batch"], batch)):
        command = [sys.executable, "-m", "host_tools"] + args + ["--runtime", runtime]
        process = subprocess.Popen(command, cwd=REPO, text=True, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, stdin=subprocess.PIPE)
        if text:  # perft answers each line as it comes: feed them from here
            import threading
            feeder = threading.Thread(target=_feed, args=(process.stdin, text))
            feeder.start()
        else:
            process.stdin.close()
        assert process.stdout.readline()  # head -1
        process.stdout.close()
        assert process.wait(timeout=120) == 141, args
        assert process.stderr.read() == "", args
        if text:
            feeder.join()


def _feed(stdin, text):
    try:
        stdin.write(text)
        stdin.close()
    except BrokenPipeError:  # the command ended first: what the test wants
        pass


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_startpos_and_perft_take_every_rule_set(runtime):
    """startpos --rules in each rule set's own numbering; perft --rules counts
    by its rules: Chess480's castlings and LRS's missing ones, by hand."""
    for args, expected in (
            (["--rules", "shuffle", "8"], "8 RNBQKBNR rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/"
                                         "RNBQKBNR w KQkq - 0 1"),
            (["--rules", "double960", "0", "959"], "0/959 BBQNNRKR/RKRNNQBB rkrnnqbb/pppppppp/"
                                                   "8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"),
            (["--rules", "transcendental", "0"], "0 BBKNNQRR bbknnqrr/pppppppp/8/8/8/8/"
                                                 "PPPPPPPP/BBKNNQRR w - - 0 1"),
            (["--rules", "lrs", "4398"], "4398 RNBQKBNR rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/"
                                         "RNBQKBNR w - - 0 1"),
            (["--rules", "chess480", "959"], "959 RKRNNQBB rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/"
                                             "RKRNNQBB w KQkq - 0 1"),
            (["--rules", "classical", "518"], "518 RNBQKBNR rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/"
                                              "RNBQKBNR w KQkq - 0 1")):
        assert last_line(micro960(["startpos"] + args, runtime)) == expected, args
    bad = micro960(["startpos", "--rules", "shuffle", "549"], runtime)
    assert bad.returncode == 1 and "shuffle set-ups run from 0 to 17" in bad.stderr
    # King b1 and rooks a1, h1: 4 king steps, 19 rook moves and two castlings
    # (the swap with a1, and Kd1 Rc1), which are the king's only ways to a1 and d1.
    corner = "4k3/8/8/8/8/8/8/RK5R w KQ - 0 1"
    assert last_line(micro960(["perft", "--rules", "chess480", corner, "1"], runtime)) == "25"
    assert last_line(micro960(["perft", "--rules", "chess960", corner, "1"], runtime)) == "25"
    divide = micro960(["perft", "--rules", "chess480", corner, "1", "--divide"], runtime).stdout
    assert "b1a1: 1" in divide and "b1h1: 1" in divide
    # Black: 5 king steps, 10 + 9 rook moves, d3: 25 in LRS; Chess960 adds
    # the two castlings and dxe3 en passant.
    fen = "r3k2r/8/8/8/3pP3/8/8/R3K2R b KQkq e3 0 1"
    assert last_line(micro960(["perft", "--rules", "lrs", fen, "1"], runtime)) == "25"
    assert last_line(micro960(["perft", fen, "1"], runtime)) == "28"
