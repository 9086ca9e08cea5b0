"""`micro960 xboard` speaks the XBoard protocol (CECP v2), on both runtimes.

python-chess's XBoardProtocol (chess.engine.popen_xboard) is the GUI side for
games and analysis, an implementation we did not write; the rest is the
protocol's own text on raw pipes: each command the specification lists, and
bad lines, which get `Illegal move` or `Error (...)` and change nothing.
"""
import subprocess
import sys
import time
from pathlib import Path

import chess
import chess.engine
import pytest

from host_tools.match import PatientXBoard
from test_uci import RawEngine
from micro960.engine.levels import HIGHEST, LOWEST, knobs

REPO = Path(__file__).resolve().parent.parent
RUNTIMES = ("cpython", "micropython")
# Chess960: Kb1 castles a-side (Kc1, Rd1) and mates: the only mate.
CASTLING_MATE = "2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1"


def command(runtime):
    return [sys.executable, "-m", "host_tools", "xboard", "--runtime", runtime]


@pytest.fixture(params=RUNTIMES)
def runtime(request):
    return request.param


@pytest.fixture
def engine(runtime):
    # popen_xboard alone gives the engine 2 s to list its features, too
    # little for MicroPython on a loaded machine: the match's patient client.
    xboard = chess.engine.SimpleEngine.popen(PatientXBoard, command(runtime), cwd=REPO,
                                             timeout=60)
    yield xboard
    xboard.quit()


class RawXBoard(RawEngine):
    def __init__(self, runtime):
        RawEngine.__init__(self, runtime, command(runtime), (("xboard", "protover 2"), "feature"))

    def ask(self, line, prefix, timeout=10):
        self.send(line)
        return self.expect(prefix, timeout)[1]


@pytest.fixture
def raw(runtime):
    xboard = RawXBoard(runtime)
    yield xboard
    xboard.close()


def test_features_name_and_variants(engine):
    assert engine.id["name"].startswith("micro960")
    variants = engine.protocol.features["variants"].split(",")
    assert set(variants) == {"normal", "fischerandom", "wildcastle", "nocastle", "chess480",
                             "double960", "lrs"}
    for feature in ("setboard", "usermove", "ping", "analyze", "memory", "draw", "smp"):
        assert engine.protocol.features[feature] == 1, feature
    assert engine.protocol.features["san"] == 0


def test_the_level_option_takes_a_skill_level_or_a_rating(engine):
    """The console's level, as XBoard's option feature carries it: a spin
    from 0 to the highest rating, 20 (full strength) by default."""
    option = engine.options["Level"]
    assert (option.type, option.default, option.min, option.max) == ("spin", 20, 0, HIGHEST)
    board = chess.Board()
    engine.configure({"Level": LOWEST})  # one ply, whatever depth is asked for
    result = engine.play(board, chess.engine.Limit(depth=5), info=chess.engine.INFO_ALL)
    assert result.move in board.legal_moves and result.info["depth"] == knobs(LOWEST)[1] == 1


def thinking_until_the_move(raw):
    """The engine's lines up to its move, and the depths its thinking lines reached."""
    lines = []
    while not lines or not lines[-1].startswith("move "):
        lines.append(raw.lines.get(timeout=60)[1])
    return lines, [int(line.split()[0]) for line in lines if line[:1].isdigit()]


def test_a_level_it_does_not_play_is_an_error_and_changes_nothing(raw):
    for line in ("option Level=%d" % (LOWEST - 1), "option Level=99999", "option Level=x",
                 "option Nope=3"):
        assert raw.ask(line, "Error").startswith("Error ("), line
    for level, deepest in ((LOWEST, knobs(LOWEST)[1]), (99999, knobs(LOWEST)[1]), (20, 4)):
        raw.send("option Level=%d" % level)  # 99999 is refused: still the lowest
        raw.send("new")
        raw.send("sd 4")
        raw.send("post")
        raw.send("go")
        lines, depths = thinking_until_the_move(raw)
        assert depths and max(depths) == deepest, (level, lines)


def test_a_chess960_castling_mate_through_python_chess(engine):
    board = chess.Board(CASTLING_MATE, chess960=True)
    result = engine.play(board, chess.engine.Limit(depth=3))
    assert board.is_castling(result.move) and result.move == chess.Move.from_uci("b1a1")
    board.push(result.move)
    assert board.is_checkmate()


def test_a_chess960_game_with_castling_through_python_chess(engine):
    board = chess.Board.from_chess960_pos(399)  # QRNNKRBB
    for san in ("f3", "Nb6", "Be3", "Ne6", "O-O", "O-O-O"):
        board.push_san(san)
    for _ in range(8):
        result = engine.play(board, chess.engine.Limit(depth=2))
        assert board.is_legal(result.move), result.move
        board.push(result.move)


def test_analysis_through_python_chess(engine):
    board = chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    info = engine.analyse(board, chess.engine.Limit(depth=3))
    assert info["score"].white() == chess.engine.Mate(1)
    assert info["pv"][0] == chess.Move.from_uci("a1a8")


def test_analysis_at_a_level_is_the_whole_engine(raw):
    """A level caps the depth of the moves played, not of an analysis: at
    the lowest level (depth 1) one goes on to depth 5 (before, it fell
    silent after depth 1, and python-chess's analyse(depth=5) never came back)."""
    raw.send("option Level=%d" % LOWEST)
    raw.send("new")
    raw.send("force")
    raw.send("post")
    raw.send("analyze")
    raw.expect("5 ", timeout=30)  # a thinking line of depth 5
    raw.send("exit")
    raw.send("sd 5")
    raw.send("go")
    lines, depths = thinking_until_the_move(raw)
    assert max(depths) == knobs(LOWEST)[1], lines  # play keeps the level's cap


def test_the_protocol_commands(raw):
    assert raw.ask("ping 1", "pong") == "pong 1"
    raw.send("new")
    raw.send("force")
    raw.send("usermove e2e4")
    raw.send("usermove e7e5")
    raw.send("undo")  # e5 back
    raw.send("usermove c7c5")
    raw.send("remove")  # c5 and e4 back
    raw.send("usermove d2d4")
    raw.send("sd 2")
    raw.send("post")
    raw.send("go")  # the engine plays Black now
    move = raw.expect("move ")[1].split()[1]
    board = chess.Board()
    board.push_uci("d2d4")
    assert chess.Move.from_uci(move) in board.legal_moves
    # A thinking line: ply score time nodes pv.
    raw.send("force")
    raw.send("hint")
    assert raw.expect("Hint: ")[1]
    raw.send("setboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    raw.send("playother")  # the engine plays Black; White (the GUI) to move
    raw.send("usermove a1a8")
    assert raw.expect("1-0")[1] == "1-0 {checkmate}"
    raw.send("new")
    raw.send("variant wildcastle")
    raw.send("setboard r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1")
    raw.send("force")
    raw.send("usermove e1g1")  # wildcastle castles as normal chess writes it
    raw.send("sd 2")  # (`new` took the limit away: the default clock's move could take 20 s)
    raw.send("go")
    raw.expect("move ")
    assert raw.ask("ping 2", "pong") == "pong 2"


def test_time_controls_and_move_now(raw):
    raw.send("new")
    raw.send("level 40 5 0")
    raw.send("time 30000")  # 5 minutes, in centiseconds
    raw.send("otim 30000")
    raw.send("usermove e2e4")
    raw.expect("move ", timeout=60)
    raw.send("st 30")  # 30 seconds a move...
    raw.send("usermove d2d4")
    time.sleep(0.5)
    asked = raw.send("?")  # ...but move now
    when, _ = raw.expect("move ", timeout=10)
    assert when - asked < 1.0


def said_until_pong(raw, lines, number):
    """Send the lines and a ping; every line the engine says before its pong."""
    for line in lines:
        raw.send(line)
    raw.send("ping %d" % number)
    said = []
    while not said or said[-1] != "pong %d" % number:
        said.append(raw.expect("", timeout=20)[1])
    return said[:-1]


def test_times_with_a_fraction_are_read(raw):
    """python-chess sends `st 0.5` for Limit(time=0.5): every time XBoard
    gives (st, level's base and increment, time and otim) may have a fraction."""
    assert said_until_pong(raw, ["new", "level 40 0:30 0.5", "level 0 0.5 1.25", "time 1234.5",
                                 "otim 1000.5", "st 0.5", "force", "usermove e2e4"], 1) == []
    sent = raw.send("go")
    when, line = raw.expect("move ", timeout=10)
    assert 0.3 < when - sent < 3 * 0.5 + 1.5, when - sent  # the half second st gives
    for line, error in (("st inf", "Error (inf is not a time of 0 to 11 days): st inf"),
                        ("st nan", "Error (nan is not a time of 0 to 11 days): st nan"),
                        ("st -1", "Error (-1 is not a time of 0 to 11 days): st -1"),
                        ("st x", "Error ('x' is not a number): st x"),
                        ("level 40 5 inf", "Error (inf is not a time of 0 to 11 days)"),
                        ("level 40 5:1e99 0", "Error (1e99 is not a time of 0 to 11 days)"),
                        ("time 12:30", "Error ('12:30' is not a number)")):
        assert said_until_pong(raw, [line], 2)[0].startswith(error), line


def thinking_nodes(said):
    """The node counts of the thinking lines (depth score time nodes pv)."""
    return [int(line.split()[3]) for line in said if line[:1].isdigit()]


def test_nps_makes_a_node_budget_of_the_time(raw):
    """`nps N`: time counted in nodes, N of them a second, with st (python-
    chess's Limit(nodes=...)) and with a clock; `new` ends it, as it ends st."""
    said = said_until_pong(raw, ["new", "post", "nps 1", "st 400", "force", "usermove e2e4",
                                 "go"], 1)
    assert said[-1].startswith("move ") and 0 < max(thinking_nodes(said)) <= 400 + 16, said
    said = said_until_pong(raw, ["new", "post", "nps 10", "level 0 1 0", "time 6000",
                                 "force", "usermove e2e4", "go"], 2)
    # A 60 s clock's share of 30 moves: 2 s, 20 nodes.
    assert said[-1].startswith("move ") and 0 < max(thinking_nodes(said)) <= 20 + 16, said
    said = said_until_pong(raw, ["new", "post", "sd 3", "force", "usermove e2e4", "go"], 3)
    assert said[-1].startswith("move ") and max(thinking_nodes(said)) > 100, said


def test_level_counts_its_moves_from_where_it_came_and_nps_stays(raw):
    """`level 5 0:10 0` after eight plies: five moves to play in 10 s, so 2 s
    for this one (a level's moves count from where it came, as the protocol
    says of a level during a game, and as python-chess's remaining_moves
    means; they were counted from the first move: one to go, all 10 s).
    nps shows the share as nodes, and stays while XBoard sends only time
    and otim, as it does before each move."""
    moves = ["usermove " + move for move in "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 c2c3 g8f6".split()]
    said = said_until_pong(raw, ["new", "post", "force"] + moves + [
        "level 5 0:10 0", "nps 1000", "time 1000", "otim 1000", "go"], 1)
    assert said[-1].startswith("move ") and 0 < max(thinking_nodes(said)) <= 2000 + 16, said
    # Four moves to go in 8 s: 2,000 nodes again.
    said = said_until_pong(raw, ["time 800", "otim 950", "usermove a7a6"], 2)
    assert said[-1].startswith("move ") and 0 < max(thinking_nodes(said)) <= 2000 + 16, said


def test_sd_with_a_clock_keeps_to_the_clock(raw):
    """XBoard's `sd` caps the depth and leaves the clock in charge (the
    protocol's words); sd alone, as python-chess sends Limit(depth=...), is
    a depth to reach: test_client_limits."""
    raw.send("new")
    raw.send("level 0 0:02 0")
    raw.send("sd 40")
    for move in ("e2e4", "d2d4"):
        raw.send("time %d" % (200 if move == "e2e4" else 180))
        raw.send("otim 200")
        sent = raw.send("usermove " + move)
        when, _ = raw.expect("move ", timeout=10)
        assert when - sent < 1.5, (move, when - sent)


def thinking_lines(said):
    """(depth, score, pv) of each thinking line (depth score time nodes pv)."""
    return [(int(line.split()[0]), int(line.split()[1]), line.split()[4:])
            for line in said if line[:1].isdigit()]


def test_pondering_posts_each_line_once_from_the_engines_side(raw):
    """With hard and post the engine thinks on in the opponent's time and
    shows it: scored from its own side, as every thinking line is (they
    were the opponent's), its line starting with the opponent's move it
    expects, and each iteration once: time, otim and ping, as XBoard sends
    them while the opponent thinks, leave it thinking (ping is answered at
    once, as the protocol asks). Each used to stop it and start it afresh,
    and the cut-short first iteration was posted each time (`1 0 0 16 a4`)."""
    fen = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"  # Black has no queen
    said = said_until_pong(raw, ["new", "force", "setboard " + fen, "post", "hard", "st 0.3",
                                 "go"], 1)
    move = [line for line in said if line.startswith("move ")]
    assert len(move) == 1, said
    time.sleep(0.5)
    said += said_until_pong(raw, ["time 1000", "otim 1000"], 2)
    time.sleep(1)
    said += said_until_pong(raw, ["force"], 3)
    searched = thinking_lines(said[:said.index(move[0])])
    pondered = thinking_lines(said[said.index(move[0]):])
    assert searched and all(score > 0 for _, score, _ in searched), said
    depths = [depth for depth, _, _ in pondered]
    assert len(depths) >= 2 and depths == sorted(set(depths)), said
    assert all(score > 0 for _, score, _ in pondered), said  # White, a queen up
    board = chess.Board(fen)
    board.push_uci(move[0].split()[1])
    for _, _, line in pondered:
        board.parse_san(line[0])  # Black's move: raises if it is not one


def test_a_ponder_searched_to_the_end_is_not_started_again(raw):
    """Pondering a mate ends at the deepest depth at once; the lines XBoard
    sends after (time, otim, ping) do not start it again: its thinking
    lines are said once, as analysis's are."""
    said = said_until_pong(raw, ["new", "force", "setboard 7k/8/5K2/8/8/8/8/R7 w - - 0 1",
                                 "post", "hard", "st 0.3", "go"], 1)
    move = [line for line in said if line.startswith("move ")]
    assert len(move) == 1, said
    time.sleep(0.5)
    said += said_until_pong(raw, ["time 1000", "otim 1000"], 2)
    said += said_until_pong(raw, ["force"], 3)
    depths = [depth for depth, _, _ in thinking_lines(said[said.index(move[0]):])]
    assert len(depths) >= 2 and depths == sorted(set(depths)), said


def test_bad_lines_get_the_protocol_errors_and_change_nothing(raw):
    raw.send("new")
    raw.send("force")
    raw.send("usermove e2e4")
    for line, answer in (("usermove e2e5", "Illegal move: e2e5"),
                         ("usermove zz9", "Illegal move: zz9"),
                         ("frobnicate now", "Error (unknown command): frobnicate now"),
                         ("variant atomic", "Error (variant atomic is not played"),
                         ("sd x", "Error ('x' is not a whole number): sd x"),
                         ("setboard 8/8/8 w - - 0 1", "tellusererror Illegal position"),
                         ("remove", "Error (no move to take back): remove")):
        raw.send(line)
        said = raw.expect("")[1]
        assert said.startswith(answer), (line, said)
    raw.send("undo")  # e4 back: the game was as it stood
    raw.send("usermove d2d4")
    raw.send("usermove d7d5")
    raw.send("st 1")  # not the default clock's share, which can pass 10 s on a busy machine
    raw.send("go")
    move = raw.expect("move ")[1].split()[1]
    board = chess.Board()
    board.push_uci("d2d4")
    board.push_uci("d7d5")
    assert chess.Move.from_uci(move) in board.legal_moves


def test_analyze_mode_reports_and_follows_the_moves(raw):
    raw.send("new")
    raw.send("force")
    raw.send("post")
    raw.send("analyze")
    raw.expect("1 ")  # a thinking line for the start position
    raw.send(".")
    assert raw.expect("stat01:")[1].split()[0] == "stat01:"
    raw.send("setboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    line = raw.expect("3 ", timeout=20)[1]
    if not line.endswith("Ra8#"):
        # The start position's depth 3, written before the setboard was read
        # (a busy machine): the next depth 3 is the new position's.
        line = raw.expect("3 ", timeout=20)[1]
    assert line.split()[1] == "100001" and line.endswith("Ra8#"), line
    raw.send("exit")
    assert raw.ask("ping 3", "pong") == "pong 3"


def test_draw_offers_easy_hard_memory_and_result(raw):
    raw.send("new")
    raw.send("hard")
    raw.send("easy")
    raw.send("memory 1")
    raw.send("setboard 7k/8/8/8/8/8/8/QQ4K1 b - - 0 1")  # the engine (Black) is lost
    raw.send("sd 2")
    raw.send("go")
    raw.expect("move ")
    raw.send("draw")
    raw.send("ping 4")
    lines = []
    while not lines or not lines[-1].startswith("pong"):
        lines.append(raw.expect("")[1])
    assert "offer draw" in lines, lines
    raw.send("result 1/2-1/2 {draw agreed}")
    assert raw.ask("ping 5", "pong") == "pong 5"


def test_cores_2_searches_on_two_threads():
    # XBoard sends `cores N` to an engine with feature smp=1: two threads at
    # most (engine/smp.py); both search the engine's next move.
    from micro960.text.xboard import XBoard
    class Silent:  # the input the search polls: nothing more comes
        def poll(self):
            return None

    said = []
    xboard = XBoard(Silent(), out=said.append, hash_kb=4)
    for line in ("new", "cores 4", "sd 3", "usermove e2e4"):
        xboard.handle(line)
    search = xboard.search
    helper = search.helper  # started beside the search, ended with it
    assert helper and search.helping is helper and not helper.running.locked(), said
    assert said[-1].startswith("move "), said
    xboard.handle("cores 1")
    assert search.helper is None
    xboard.handle("cores many")
    assert said[-1] == "Error ('many' is not a whole number): cores many", said[-1]


def test_a_match_against_stockfish_over_xboard(runtime, tmp_path, stockfish_path):
    stockfish = stockfish_path
    result = subprocess.run(
        [sys.executable, "-m", "host_tools", "match", "--engine-protocol", "xboard",
         "--runtime", runtime, "--opponent", stockfish, "--opponent-option",
         "Skill Level=0", "--depth", "2", "--games", "2", "--max-moves", "40", "--seed", "5",
         "--pgn", str(tmp_path / "games.pgn")],
        cwd=REPO, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "forfeit" not in result.stdout and "illegal" not in result.stdout.lower(), \
        result.stdout
    assert (tmp_path / "games.pgn").read_text().count('[Variant "Chess960"]') == 2


def test_each_variant_plays_by_its_rules(raw):
    # Chess480's corner swap (Kb1-a1, Rb1) mates; LRS takes the king;
    # castling e1g1 is legal in wildcastle (shuffle), not in nocastle.
    for number, (variant, fen, line, said) in enumerate((
            ("chess480", "rkr5/p1p5/8/8/8/8/8/RK6 w A - 0 1", "go", ["move O-O-O", "1-0 {"]),
            ("lrs", "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "go", ["move e1e8", "1-0 {"]),
            ("wildcastle", "4k3/8/8/8/8/8/5PPP/4K2R w K - 0 1", "usermove e1g1", []),
            ("nocastle", "4k3/8/8/8/8/8/5PPP/4K2R w K - 0 1", "usermove e1g1",
             ["Illegal move: e1g1"]))):
        for command in ("new", "variant " + variant, "setboard " + fen, "force", "sd 2", line,
                        "ping %d" % number):
            raw.send(command)
        lines = []
        while not lines or lines[-1] != "pong %d" % number:
            lines.append(raw.expect("")[1])
        answers = [text for text in lines if not text.startswith("pong")]
        assert len(answers) == len(said) and all(
            text.startswith(start) for text, start in zip(answers, said)), (variant, lines)


def test_wildcastle_castles_from_the_king_on_d(raw):
    """XBoard's wildcastle lets the king start on d and castle d1f1 (Rh1-e1)
    and d1b1 (Ra1-c1); `usermove d1f1` was once refused, and the rules
    castled Chess960's way (Kg1, Rf1)."""
    fen = "r2k3r/8/8/8/8/8/8/R2K3R w KQkq - 0 1"
    # Kd1-f1 puts the rook on e1; Black castles Kd8-b8, Ra8-c8; then Re1-e8+
    # and Rc8xe8 are legal only with the rooks where these rules put them.
    for command in ("new", "variant wildcastle", "setboard " + fen, "force", "usermove d1f1",
                    "usermove d8b8", "usermove e1e8", "usermove c8e8", "usermove a1a8",
                    "ping 7"):
        raw.send(command)
    lines = []
    while not lines or lines[-1] != "pong 7":
        lines.append(raw.expect("")[1])
    assert lines == ["pong 7"], lines


def test_double960_over_xboard(raw):
    fen = "rbbkqrnn/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w KQkq - 0 1"  # SP 3 / SP 900
    for command in ("new", "variant double960", "setboard " + fen, "sd 2", "usermove e2e4"):
        raw.send(command)
    move = raw.expect("move ")[1].split()[1]
    board = chess.Board(fen, chess960=True)
    board.push_uci("e2e4")
    assert board.parse_xboard(move) in board.legal_moves
