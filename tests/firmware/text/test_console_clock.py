"""Chess clocks (clock.py) and the console on a clock: time controls as players
write them, increments and periods, the engine's time from its clock, flag
fall by the rules, undo, and the clocks saved and resumed with the game.

Time is a fake the tests move on (Console.now): only the engine's one short
think runs on the real clock.
"""
import gc

from micro960.compat import ticks_ms
from micro960.rules.clock import Clock, clock_text, load_clock, parse_control
from micro960.device.storage import load_game
from micro960.device.storage import GameStore
from game_text import save_text
from power_cut import remove_folder, scratch_folder
from support import Time, raises
from test_console import console

WHITE, BLACK = 8, 16


def on_clock(control, *args, **kwargs):
    """A two-player console at SP 518 on a clock, with its fake time."""
    c, said = console("chess960", 518, *args, **kwargs)
    time = c.now = Time()
    c.handle("clock " + control)
    return c, said, time


def test_time_controls_as_players_write_them():
    assert parse_control("15+10") == (0, 900000, 10000)
    assert parse_control("5") == (0, 300000, 0)
    assert parse_control("40/90+30") == (40, 5400000, 30000)
    assert parse_control("0.5+1") == (0, 30000, 1000)
    for bad in ("", "abc", "15+x", "0", "-5", "40/0", "601+0", "5+601", "300/5", "1/2/3"):
        assert raises(ValueError, parse_control, bad), bad
    assert [clock_text(ms) for ms in (3725000, 900000, 59000, 9500, 0, -300)] == [
        "1:02:05", "15:00", "0:59", "9.5", "0:00", "0:00"]


def test_setting_a_clock_shows_the_time_set_then_starts_it():
    # A clock that ticks a millisecond at each reading: the line said when
    # the clock is set reads 5:00 for both (it said 4:59 for White when a
    # millisecond passed between starting the clock and saying it).
    c, said = console("chess960", 518)
    ticking = Time()

    def now():
        ticking.ms += 1
        return ticking.ms

    c.now = now
    c.handle("clock 5")
    assert said[-1] == "Clock 5: White 5:00, Black 5:00.", said
    assert c.game.clock.running == WHITE  # and White's time runs from now on
    ticking.wait(2)
    c.handle("clock")
    assert said[-1] == "Clock 5: White 4:57, Black 5:00.", said


def test_increments_and_a_new_period_after_its_last_move():
    time = Time()
    clock = Clock("2/1+5", now=time)  # 1 minute for every 2 moves, 5 s a move
    for seconds, side in ((10, WHITE), (20, BLACK), (10, WHITE), (1, BLACK), (3, WHITE)):
        clock.start(side)
        time.wait(seconds)
        assert clock.remaining(side) == clock.left[side >> 4] - seconds * 1000
        clock.punch(side)
    # White: 60 - 10 + 5 - 10 + 5 + 60 (its second move ends the period) - 3 + 5.
    assert clock.left == [112000, 109000] and clock.marks == [55000, 45000, 110000, 109000,
                                                              112000]
    from micro960.engine.search import Limits
    limits = clock.limits(BLACK, Limits(movetime=5000))
    assert (limits.wtime, limits.btime, limits.winc, limits.binc, limits.movestogo,
            limits.movetime) == (112000, 109000, 5000, 5000, 2, 0)
    assert clock.limits(WHITE, limits).movestogo == 1  # its fourth move ends the next period
    clock.undo(3)
    assert clock.left == [110000, 45000] and clock.marks == [55000, 45000, 110000]
    clock.undo(0)
    assert clock.left == [60000, 60000] and clock.marks == []
    assert Clock("40/90+30").time_control_tag() == "40/5400+30"
    assert Clock("15+10").time_control_tag() == "900+10"
    assert Clock("5").time_control_tag() == "300"


def test_the_console_shows_counts_and_saves_both_clocks():
    c, said, time = on_clock("5+3")
    assert said[-1] == "Clock 5+3: White 5:00, Black 5:00."
    time.wait(12)
    c.handle("e4")
    assert said[-1] == "Clock 5+3: White 4:51, Black 5:00."
    time.wait(30)
    c.handle("e5")
    assert said[-1] == "Clock 5+3: White 4:51, Black 4:33."
    time.wait(2)
    c.handle("clock")
    assert said[-1] == "Clock 5+3: White 4:49, Black 4:33."
    game = load_game(save_text(c.game))  # what a power cut leaves
    assert game.clock.left == [289000, 273000] and game.clock.marks == [291000, 273000]
    assert not game.clock.running  # no time passes while the board is off
    c.handle("undo")
    assert said[-1] == "Clock 5+3: White 4:51, Black 5:00."
    c.handle("time 2")
    assert c.game.clock is None
    c.handle("clock")
    assert said[-1] == "No clock: the engine thinks 2 seconds a move."


def test_the_engine_takes_its_time_from_its_clock():
    c, said, time = on_clock("40/90+30")
    c.handle("e4")
    limits = c._limits()
    assert (limits.wtime, limits.btime, limits.winc, limits.binc, limits.movestogo) == (
        5430000, 5400000, 30000, 30000, 40)
    assert limits.movetime == 0
    c.now = ticks_ms  # real time: 6 s each, and the engine (Black) thinks a 30th of its own
    c.handle("clock 0.1")
    c.handle("go")
    assert len(c.game.moves) == 2 and 5000 < c.game.clock.marks[-1] < 6000
    assert any(line.endswith("(clock 6.0)") or line.endswith("(clock 5.9)")
               for line in said), said[-6:]


def test_a_flag_falls_and_the_late_move_is_not_played():
    c, said, time = on_clock("1")
    c.handle("e4")
    time.wait(61)
    c.handle("e5")
    assert c.game.result() == "1-0" and c.game.reason() == "Black lost on time"
    assert "Game over: 1-0 (Black lost on time)" in said
    assert len(c.game.moves) == 1 and not said[-1].startswith("error")
    c.handle("new")  # the next game is on the same clock, full time
    assert said[-1] == "Clock 1: White 1:00, Black 1:00."


def test_a_flag_against_a_side_that_cannot_mate_is_a_draw():
    c, said, time = on_clock("1")
    c.handle("new fen 4k3/p7/8/8/8/8/8/4K3 b - - 0 1")  # Black's flag; White has a bare king
    time.wait(60)
    c.handle("board")
    assert c.game.result() == "1/2-1/2"
    assert c.game.reason() == "Black's time ran out, but White cannot mate"
    c.handle("new fen 4k3/p7/8/8/8/8/8/4K1N1 b - - 0 1")  # a knight, and a pawn to block with
    time.wait(60)
    c.handle("Kd7")
    assert (c.game.result(), c.game.reason()) == ("1-0", "Black lost on time")


def test_a_game_on_a_clock_resumes_after_a_power_cut():
    folder = scratch_folder("clock")
    try:
        c, said, time = on_clock("3+2")
        c.resume(GameStore(folder))
        time.wait(10)
        c.handle("Nf3")
        time.wait(20)
        c.handle("d5")
        time.wait(5)  # White thinks; then the power goes
        c = None  # (a small heap holds one console at a time)
        gc.collect()
        again, said = console()
        again.now = Time()
        assert again.resume(GameStore(folder))
        clock = again.game.clock
        assert clock.control == "3+2" and clock.marks == [172000, 162000]
        assert clock.running == WHITE  # White's clock runs again, from where it stopped
        assert 167000 <= clock.remaining(WHITE) <= 172000
        again.handle("pgn")
        assert '[TimeControl "180+2"]' in said[-1]
        assert "1. Nf3 {[%clk 0:02:52]} 1... d5 {[%clk 0:02:42]} *" in said[-1]
    finally:
        remove_folder(folder)


def test_a_damaged_clock_line_is_refused():
    for text in ("3+2", "3+2 9 0 1000 1000", "x 8 0 1 1", "3+2 8 0 a 1"):
        assert raises(ValueError, load_clock, text), text

