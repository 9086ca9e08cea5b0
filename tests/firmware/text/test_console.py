"""The console game: commands work, and every bad line is refused with a reason."""
import sys

from micro960.compat import IS_MICROPYTHON
from micro960.text.console import Console
from micro960.engine.search import Limits

try:
    from unittest import SkipTest
except ImportError:  # MicroPython: mprun skips on any exception of this name
    class SkipTest(Exception):
        pass


def console(*args, **kwargs):
    """A two-player console (the engine only moves when asked) and what it says."""
    said = []
    kwargs.setdefault("engine_side", None)
    kwargs.setdefault("hash_kb", 4)
    c = Console(*args, out=said.append, **kwargs)
    c.limits = Limits(nodes=300)  # keep engine moves quick and repeatable
    return c, said


def state(c):
    return c.game.pos.fen(), list(c.game.moves), c.game.result()


def test_bad_lines_get_one_line_and_change_nothing():
    c, said = console("chess960", 518)
    c.handle("e4")
    before = state(c)
    for line in ("Ke3", "e5e4", "Nd2", "xyzzy", "new 960", "new fen 8/8/8 w - - 0 1",
                 "new dice 1 2", "rules atomic", "accept", "undo now please" * 30,
                 "e4\x1b[A", "\x00", "Rd1", "new RNBQKBNX", "fen\x7f"):
        del said[:]
        c.handle(line)
        assert len(said) == 1 and said[0].startswith("error: "), (line, said)
        assert state(c) == before, line


def test_a_short_game_with_castling_by_king_onto_rook_and_undo():
    c, said = console("chess960", 518)
    for line in ("e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "e1h1"):
        c.handle(line)
    assert "4. O-O" in said
    c.handle("undo")
    c.handle("e1g1")  # the king's destination: here it can only mean castling
    c.handle("fen")
    assert said[-1] == "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4"


def test_moves_takebacks_and_the_move_list_leave_the_fen_code_unloaded():
    """On a board the FEN code (fen.py) takes heap only while a game is set
    up or its FEN is asked for: moves, takebacks and replays set the start
    position up from the game's snapshot of it."""
    if not IS_MICROPYTHON:
        raise SkipTest("CPython keeps the modules it loads (compat.release)")
    c, said = console("chess960", 518)
    c.forget = lambda: None  # nothing released after each line: nothing may load it
    for line in ("e4", "e5", "undo", "undo", "d4", "go", "moves"):
        c.handle(line)
        assert "micro960.rules.fen" not in sys.modules, line
    c.handle("fen")
    assert "micro960.rules.fen" in sys.modules


def test_results_are_announced_with_their_reason():
    c, said = console("chess960", 518)
    for line in ("f3", "e5", "g4", "Qh4#"):
        c.handle(line)
    assert "Game over: 0-1 (checkmate)" in said
    c.handle("a3")
    assert said[-1].startswith("error: the game is over")
    c.handle("new 0")
    assert c.game.result() == "*" and c.game.pos.fen().startswith("bbqnnrkr/")
    c.handle("resign")
    assert "Game over: 0-1 (White resigns)" in said


def test_nobody_is_to_move_once_the_game_is_over():
    """"White to move" was said after a mate and after LRS's king capture,
    right before "Game over" (issue 40)."""
    for rules, lines in (("chess960", ("new 518", "f3", "e5", "g4", "Qh4#")),
                         ("lrs", ("new fen 3k4/8/8/8/8/8/8/4RK2 b - - 0 1", "Ke8", "Rxe8"))):
        c, said = console(rules)
        for line in lines:
            c.handle(line)
        end = said.index([text for text in said if text.startswith("Game over: ")][0])
        assert said[end - 1].startswith("Last move: "), said[end - 3:end + 1]
        del said[:]
        c.handle("board")
        assert said[-1].startswith("Last move: "), said[-3:]
        assert not [text for text in said if text.endswith(" to move")], said


def test_set_ups_and_views():
    c, said = console()
    c.handle("new dice 1 1 1 1 1")
    assert c.game.pos.fen().startswith("bbqnnrkr/")  # SP 0
    c.handle("new RKRNNQBB")
    assert c.game.pos.fen().startswith("rkrnnqbb/")
    c.handle("new classical")
    c.handle("flip")
    assert said[-2].startswith("    h g f")
    c.handle("unicode")
    assert "\u2654" in "".join(said[-12:])
    c.handle("rules lrs")
    assert c.game.rules.name == "lrs"
    c.handle("new classical")
    c.handle("moves")
    assert said[-1].split()[0] == "Na3"
    c.handle("help")
    assert "resign" in said[-1]
    c.handle("pgn")
    assert '[Variant "LRS"]' in said[-1]


def test_playing_the_engine():
    c, said = console("chess960", 518, engine_side=8 * 2)  # the engine plays Black
    c.handle("e4")
    assert any(line.startswith("micro960 plays 1...") for line in said)
    assert any(line.startswith("  depth 1 ") for line in said)
    assert len(c.game.moves) == 2
    c.handle("undo")  # takes back the engine's reply and your move
    assert len(c.game.moves) == 0
    c.handle("hint")
    assert said[-1].startswith("Hint: ")
    c.handle("level 3")
    c.handle("black")  # the engine takes White and moves at once
    assert len(c.game.moves) == 1
    c.handle("level 21")
    assert said[-1].startswith("error: ")
    c.handle("both")
    c.handle("go")  # the engine plays the side to move now
    assert len(c.game.moves) == 2


def test_the_engine_moves_whatever_line_left_its_side_to_move():
    """It once waited after new, rules, new fen and undo left its side to
    move, and took the next move typed as its own (issue 40)."""
    white, black = 8, 16
    for engine, line in ((white, "new 518"), (white, "rules lrs"), (white, "undo"),
                         (white, "new fen 4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"),
                         (black, "new fen 4k3/8/8/8/8/8/8/R3K3 b Q - 0 1")):
        c, said = console("chess960", 518, engine_side=engine)
        c.reply()  # White's first move, if the engine plays White
        c.handle(line)
        assert len(c.game.moves) == 1 and c.game.pos.side != engine, (line, said[-4:])
        assert said[-1] == ("White" if engine == black else "Black") + " to move", said[-4:]


def board_of(said):
    """The lines of the last board shown: its top edge (in ASCII) or top rank
    down to `... to move`."""
    end = max(i for i, line in enumerate(said) if line.endswith(" to move"))
    ranks = [i for i in range(end) if said[i][:1] in "12345678" and said[i][1:2] == " "]
    start = ranks[-8]
    assert ranks[-8:] == list(range(start, start + 8))
    if said[start - 1].startswith("  +"):
        start -= 1
    return said[start:end + 1]


def test_the_last_move_is_shown_with_the_board():
    c, said = console("chess960", 518)
    c.handle("board")
    assert not any(line.startswith("Last move") for line in board_of(said))
    c.handle("e4")
    assert board_of(said)[-2:] == ["Last move: 1. e4", "Black to move"]
    c.handle("e5")
    assert board_of(said)[-2] == "Last move: 1...e5"
    c.handle("undo")  # worked out again from the game
    assert board_of(said)[-2] == "Last move: 1. e4"
    c.handle("Nc6")
    c.handle("new 518")
    assert board_of(said)[-1] == "White to move"
    assert not any(line.startswith("Last move") for line in board_of(said))


def test_colour_paints_squares_and_the_last_move():
    from micro960.text.console import (BLACK_PIECE, DARK_SQUARE, LAST_MOVE_SQUARE, LIGHT_SQUARE,
                                  RESET, WHITE_PIECE)
    c, said = console("chess960", 518)
    c.handle("e4")
    c.handle("color")
    board = board_of(said)
    assert len(board) == 11 and board[-3].split() == list("abcdefgh")
    rank4 = board[4]
    assert rank4.startswith("4 " + LIGHT_SQUARE + "   " + DARK_SQUARE) and rank4.endswith(RESET)
    # e2 and e4, the last move's squares, are highlighted; the e4 pawn is white.
    assert LAST_MOVE_SQUARE + WHITE_PIECE + " P " in rank4
    assert rank4.count(LAST_MOVE_SQUARE) == 1 and board[6].count(LAST_MOVE_SQUARE) == 1
    assert board[0].startswith("8 " + LIGHT_SQUARE + BLACK_PIECE + " r ")
    c.handle("unicode")
    assert WHITE_PIECE + " \u2659 " in board_of(said)[4]
    c.handle("colour off")
    assert "\x1b" not in "".join(board_of(said))
    for bad in ("color purple", "colour on off"):
        del said[:]
        c.handle(bad)
        assert len(said) == 1 and said[0].startswith("error: ") and not c.color


def test_castling_highlights_the_kings_squares():
    from micro960.text.console import last_squares
    c, said = console("chess960", 518)
    for line in ("e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O"):
        c.handle(line)
    assert last_squares(c.game) == (4, 6)  # e1 and g1, not the rook's h1
    c, said = console()  # the king on g1 castles a-side with the b1 rook: to c1
    c.handle("new fen 1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w KQkq - 0 1")
    c.handle("O-O-O")
    assert said[-1] == "Black to move" and "1. O-O-O" in said
    assert last_squares(c.game) == (6, 2)


def test_the_game_ends_with_a_summary_and_its_pgn():
    c, said = console("chess960", 518)
    for line in ("f3", "e5", "g4", "Qh4#"):
        c.handle(line)
    end = said.index("Game over: 0-1 (checkmate)")
    summary = "\n".join(said[end:])
    assert '[Result "0-1"]' in summary and '[Variant "Chess960"]' in summary
    assert "1. f3 e5 2. g4 Qh4# 0-1" in summary
    assert said[-1] == "Type new for another game."
    c.handle("new 518")
    c.handle("resign")
    assert said[-1] == "Type new for another game."
    assert "Game over: 0-1 (White resigns)" in said and "0-1" in said[-3]


def test_the_thinking_line_has_depth_score_nodes_time_and_line():
    c, said = console("chess960", 518)
    c.handle("go")
    thinking = [text.split() for text in said if text.startswith("  depth ")]
    assert [words[1] for words in thinking][:2] == ["1", "2"]
    for words in thinking:
        assert words[0] == "depth" and words[2][0] in "+-" and words[4] == "nodes"
        assert words[6] == "s" and "." in words[5] and len(words) > 7
    played = [text for text in said if text.startswith("micro960 plays 1. ")]
    assert played == ["micro960 plays 1. " + thinking[-1][7]]  # the best line's first move


def help_examples():
    from micro960.text.console_help import HELP
    examples = []
    for line in HELP.split("\n"):
        if line.startswith("  ") and line[2] != " ":
            examples.append(line[2:].split("  ")[0].strip())
    return examples


def test_help_gives_an_example_of_every_command_and_each_example_works():
    from micro960.text.console import COMMANDS
    examples = help_examples()
    named = set(example.split()[0] for example in examples)
    assert named == set(COMMANDS) - {"exit"}, named ^ set(COMMANDS)
    # Each example works on a fresh two-player game, but for the two that need
    # a game behind them.
    for example in examples:
        # White's and Black's set-up need rules that give each side its own.
        c, said = console("double960" if example == "new 3 900" else "chess960", 518)
        c.handle(example)
        errors = [line for line in said if line.startswith("error:")]
        if example in ("undo", "accept"):
            assert len(errors) == 1, example
        else:
            assert not errors and said or example == "quit", (example, said)



def test_a_game_the_archive_cannot_take_waits_in_game_txt_and_is_archived_later():
    """games.pgn will not grow (a full flash): the ended game stays in
    game.txt, the next game is not saved over it, and the archive takes it
    as soon as it can. The game is never lost, and play goes on."""
    from micro960.device.storage import GameStore
    from power_cut import FullArchive, remove_folder, scratch_folder

    def saved():
        with open(folder + "/game.txt") as f:
            return f.read()

    folder = scratch_folder("archive")
    try:
        files = FullArchive()
        c, said = console("chess960", 518)
        c.resume(GameStore(folder, files))
        for line in ("f3", "e5", "g4", "Qh4#"):
            c.handle(line)
        warnings = [text for text in said if text.startswith("warning")]
        assert warnings == ["warning: could not archive the game: no space left; %s/game.txt "
                            "keeps it until games.pgn takes it" % folder], said
        ended = "moves f2f3 e7e5 g2g4 d8h4\n"  # (the mate is in the moves: it needs no "ended")
        assert ended in saved() and any(t.startswith("Game over") for t in said)
        for line in ("new 518", "e4"):
            c.handle(line)
        assert ended in saved()  # not saved over
        assert len(c.game.moves) == 1  # play goes on
        files.full = False
        c.handle("e5")
        with open(folder + "/games.pgn") as f:
            archive = f.read()
        assert archive.count("[Event ") == 1 and "2. g4 Qh4# 0-1" in archive, archive
        assert "\nmoves e2e4 e7e5\n" in saved(), saved()
    finally:
        remove_folder(folder)


def test_a_game_that_ended_before_a_restart_waits_while_the_archive_is_full():
    """At the start, a saved game that had ended is archived; when games.pgn
    still cannot take it, the first save of the new game once overwrote it."""
    from micro960.device.storage import GameStore
    from power_cut import FullArchive, remove_folder, scratch_folder
    folder = scratch_folder("restart")
    try:
        files = FullArchive()
        c, said = console("chess960", 518)
        c.resume(GameStore(folder, files))
        for line in ("f3", "e5", "g4", "Qh4#"):
            c.handle(line)
        c = None
        again, said = console("chess960", 518)  # the program starts again
        assert not again.resume(GameStore(folder, files)), said
        again.handle("e4")
        with open(folder + "/game.txt") as f:
            assert "moves f2f3 e7e5 g2g4 d8h4\n" in f.read()  # not saved over
        files.full = False
        again.handle("e5")
        with open(folder + "/games.pgn") as f:
            assert "2. g4 Qh4# 0-1" in f.read()
        with open(folder + "/game.txt") as f:
            assert "\nmoves e2e4 e7e5\n" in f.read()
    finally:
        remove_folder(folder)


def test_the_same_short_game_twice_is_two_games_in_the_archive():
    """The archive once took the second for the first written again after a
    power cut, and left it out."""
    from micro960.device.storage import GameStore
    from power_cut import remove_folder, scratch_folder
    folder = scratch_folder("twice")
    try:
        c, said = console("chess960", 518)
        c.resume(GameStore(folder))
        for line in ("e4", "resign", "new 518", "e4", "resign"):
            c.handle(line)
        with open(folder + "/games.pgn") as f:
            assert f.read().count("1. e4 1-0") == 2
    finally:
        remove_folder(folder)
