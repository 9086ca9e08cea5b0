"""The console's input: what is typed is what is played, and settings show alone.

Runs on CPython and, through tests/mprun.py, on the MicroPython unix port.
"""
from console_driver import make_console, state


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
    assert said[-1] == "Level 7."


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
