"""The console's input: what is typed is what is played, and settings show alone.

Runs on CPython and, through tests/mprun.py, on the MicroPython unix port.
"""
from console_driver import make_console, state
from micro960.engine.search import Limits
from micro960.engine.levels import HIGHEST, LOWEST, rating


def console(*args):
    """A two-player console from SP 518 and what it says."""
    said = []
    return make_console(said), said


def test_a_chess_symbol_is_refused_not_dropped():
    """The knight of "\u2658f3" (as the unicode board draws it) once vanished,
    leaving the pawn move f3."""
    c, said = console("chess960", 518)
    before = state(c)
    for line in ("\u2658f3", "\x1af3", "N\xe9f3"):  # as typed, and as lines.py marks it
        del said[:]
        c.handle(line)
        assert said == ["error: only plain letters, digits and signs are read (Nf3, not a "
                        "chess symbol)"], said
        assert state(c) == before


def test_time_and_level_show_their_value_alone_and_time_takes_fractions():
    c, said = console()
    c.handle("time 0.5")
    assert said[-1] == "The engine thinks 0.5 seconds a move." and c.limits.movetime == 500
    c.handle("time")
    assert said[-1] == "The engine thinks 0.5 seconds a move."
    for bad in ("time 0", "time -3", "time 0.01", "time 4000", "time soon"):
        c.handle(bad)
        assert said[-1].startswith("error: ") and c.limits.movetime == 500, bad
    c.handle("level 7")
    c.handle("level")
    assert said[-1] == "Level 7: plays at about %d Elo." % rating(7)
    c.handle("level 1500")
    assert said[-1] == "Level 1500: plays at about 1500 Elo." and c.engine.level == 1500
    for bad in ("level 99999", "level 21", "level %d" % (LOWEST - 1), "level -1", "level 1500x"):
        c.handle(bad)
        assert said[-1].startswith("error: ") and c.engine.level == 1500, (bad, said[-1])
    c.handle("level 99999")
    assert said[-1] == "error: levels are 0-20 (20 = full strength) or a rating %d-%d" \
        % (LOWEST, HIGHEST)
    c.handle("level 20")
    assert said[-1] == "Level 20: full strength."
    c.handle("threads")
    assert said[-1] == "The engine searches on one thread."
    for bad in ("threads 3", "threads 0", "threads two", "threads 2 2"):
        c.handle(bad)
        assert said[-1] == "error: threads takes 1 or 2, not %r" % bad[8:], said[-1]
        assert c.engine.helper is None
    c.handle("help")  # says the ratings there are
    assert "(%d-%d, as Stockfish's" % (LOWEST, HIGHEST) in "\n".join(said), said[-40:]


class Keys:
    """Typed input as the search polls it: nothing for `wait` polls, then Enter."""

    def __init__(self, wait):
        self.wait = wait

    def poll(self):
        self.wait -= 1
        return "" if self.wait < 0 else None


def test_analyze_deepens_until_enter_and_leaves_the_game_as_it_was():
    c, said = console()
    c.handle("e4")
    before = state(c)
    c.input = Keys(60)  # some 1,000 nodes (the search polls every 16)
    c.handle("analyze")
    depths = [line for line in said if line.startswith("  depth ")]
    assert said[-len(depths) - 2] == "Analysing; press Enter to stop."
    assert len(depths) >= 3 and said[-1].startswith("Best: "), said[-4:]
    assert state(c) == before and c.input.wait < 0
    c.handle("resign")
    c.handle("analyse")
    assert said[-1].startswith("error: the game is over")


def test_an_endless_or_huge_time_is_refused_in_one_line():
    """`clock inf` once ended the program with an OverflowError."""
    c, said = console()
    c.handle("e4")
    before = state(c)
    for line in ("clock inf", "clock 5+inf", "clock 1e308", "clock inf/5", "clock nan",
                 "clock -5", "clock 5+nan", "time inf", "time 1e308", "time nan", "time -inf"):
        del said[:]
        c.handle(line)
        assert len(said) == 1 and said[0].startswith("error: "), (line, said)
        assert state(c) == before and c.game.clock is None and c.limits.nodes == 200, line


def test_time_tells_of_the_clock_and_says_when_it_replaces_it():
    c, said = console()
    from support import Time
    c.now = Time()  # time stands still: the clocks read 5:00
    c.handle("clock 5+3")
    c.handle("time")
    assert said[-1] == ("Clock 5+3: White 5:00, Black 5:00. The engine budgets its clock; "
                        "time N takes the game off it."), said[-1]
    assert c.game.clock
    c.handle("time 1")
    assert said[-1] == "The engine thinks 1 second a move (instead of the clock 5+3)."
    assert c.game.clock is None and c.limits.movetime == 1000
    c.handle("time")
    assert said[-1] == "The engine thinks 1 second a move."
    c.handle("clock")
    assert said[-1] == "No clock: the engine thinks 1 second a move."


class Typing:
    """Lines typed while the engine thinks, as the search polls them."""

    def __init__(self, *lines):
        self.lines = list(lines)

    def poll(self):
        return self.lines.pop(0) if self.lines else None


def test_what_is_not_ascii_typed_while_the_engine_thinks_is_quoted_as_echoed():
    """It was quoted as control codes ('\\x1af3'), one for each UTF-8 byte
    on MicroPython."""
    from console_driver import person_typing
    editor = person_typing()
    typed = None
    for byte in "\u2658f3 \xe9\r".encode():  # a serial port's bytes, as MicroPython reads them
        typed = editor.feed(chr(byte)) or typed
    assert typed == "\x1af3 \x1a"  # one mark a character
    c, said = console()
    c.engine_side = 16  # the engine plays Black, and thinks after e4
    c.input = Typing(typed, "")
    c.handle("e4")
    assert "error: '?f3 ?' was typed while the engine thought; type it again now" in said
    assert len(c.game.moves) == 2


class CtrlC:
    """Ctrl-C while the engine thinks: KeyboardInterrupt, as the signal
    raises it in the search, at its `at`-th poll."""

    def __init__(self, at):
        self.at = at

    def poll(self):
        self.at -= 1
        if self.at == 0:
            raise KeyboardInterrupt
        return None


def test_ctrl_c_stops_hint_and_analyze_not_the_program():
    c, said = console()
    c.handle("e4")
    before = state(c)
    for command, answer in (("hint", "Hint: "), ("analyze", "Best: ")):
        c.input = CtrlC(40)
        c.limits = Limits(nodes=10 ** 7)
        del said[:]
        try:
            c.handle(command)
        except KeyboardInterrupt:
            raise AssertionError("Ctrl-C during %s ended the program" % command)
        assert said[-1].startswith(answer) and said[-1].endswith(" (stopped by Ctrl-C)"), said
        assert state(c) == before  # the moves it was trying are taken back
    c.input = None
    c.handle("d5")
    assert len(c.game.moves) == 2


def test_a_mate_found_early_is_not_repeated_at_every_depth():
    """A mate in 1 once printed the same line at each of 28 depths."""
    c, said = console()
    for line in ("f3", "e5", "g4"):
        c.handle(line)
    c.limits = Limits(movetime=300)
    c.handle("go")
    depths = [line for line in said if line.startswith("  depth ")]
    assert "micro960 plays 2...Qh4#" in said
    assert any(line.endswith("  mate in 1") or "mate in 1 " in line for line in depths)
    assert len(depths) <= 3, depths  # a line for each change of score or best line


def test_a_line_typed_while_the_engine_thinks_is_refused_once_it_is_done():
    """It was refused at once, saying "type it again now" while the engine
    still thought, where typing it again was refused again (issue 40)."""
    c, said = console()
    c.input = Typing("e5", None, None, "")  # e5 at once, then Enter: move now
    c.handle("go")
    played = [i for i, text in enumerate(said) if text.startswith("micro960 plays 1. ")]
    refused = said.index("error: 'e5' was typed while the engine thought; type it again now")
    assert played and played[0] < refused, said  # after the engine's move
    assert said[refused - 1] == "Black to move", said[refused - 2:]  # and its board
    assert len(c.game.moves) == 1  # the engine's move only
    c.input = None
    c.engine_side = None  # (`go` made it White's player)
    c.handle("e5")  # typed again, now: played
    assert len(c.game.moves) == 2
    c.input = Typing("Nf3")
    del said[:]
    c.handle("hint")
    assert said[-2].startswith("Hint: ") and said[-1] == \
        "error: 'Nf3' was typed while the engine thought; type it again now", said


def test_the_last_thinking_line_begins_with_the_move_played():
    """Enter in the midst of a depth: a move that beat the last line's there
    is played. Its line was not shown (issue 40: `g6 c3 c5 f3` shown, c6
    played); now a last line begins with it, the score unknown."""
    cut_short = 0
    for wait in (250, 270):  # some 4,000 and 4,300 nodes after 1. e4 e5: depth 7 cut short
        c, said = console()
        c.handle("e4")
        c.handle("e5")
        c.limits = Limits(nodes=10 ** 7)  # till Enter
        c.input = Keys(wait)
        c.handle("go")
        lines = [text for text in said if text.startswith("  depth ")]
        move = [text for text in said if text.startswith("micro960 plays 2. ")][0].split()[-1]
        assert lines[-1].split("  ")[-1].split()[0] == move, (wait, lines, move)
        cut_short += lines[-1].split()[2] == "unfinished"
    assert cut_short, said  # (the case is there to see)


class Picks:
    """A random source for the engine's weaker choices: all the noise to the
    second root move, none to the others (engine/levels.py)."""

    def __init__(self):
        self.calls = 0

    def getrandbits(self, bits):
        self.calls += 1
        return 255 if self.calls == 2 else 0

    def reset(self):
        self.calls = 0


def test_at_a_lower_level_the_last_thinking_line_is_the_weaker_move_played():
    c, said = console()
    c.engine.level = 5
    c.engine.rng = picks = Picks()
    c.limits = Limits(nodes=3000)
    weaker = 0
    for _ in range(4):
        picks.reset()
        del said[:]
        c.handle("go")
        lines = [text for text in said if text.startswith("  depth ")]
        move = [text for text in said if text.startswith("micro960 plays ")][0]
        move = move.split(".")[-1].strip()
        assert lines[-1].split("  ")[-1].split()[0] == move, (lines, move)
        weaker += lines[-1].split()[2] == "level"
    assert weaker, said  # (the case is there to see)
