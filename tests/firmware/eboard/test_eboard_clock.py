"""The sensor board's game on a clock (EBoardGame clock=, EBOARD_CLOCK): the
engine's clock stops as it lights its move and the person's as the board
shows theirs, increments, the engine's time from its clock, takebacks, and
flag fall by the rules. On both runtimes.

Time is a fake the tests move on; only the engine's searches run on the
real clock.
"""
import gc

from micro960.eboard.moves import gesture, parse_square64
from micro960.eboard.game import EBoardGame

from support import Time

WHITE, BLACK = 8, 16


def play(g, text):
    """'e2e4' made on the board: lift, then place."""
    g.lift(parse_square64(text[:2]))
    g.place(parse_square64(text[2:]))


def carry_out(g):
    """The engine's lit move, made on the board by the person."""
    for square, placed in gesture(g.game.pos, g.expected):
        if placed:
            g.place(square)
        else:
            g.lift(square)


def last_clock(lines):
    said = [line for line in lines if line.startswith("clock")]
    return said[-1] if said else None


def on_clock(control, **kwargs):
    gc.collect()  # the last test's game and engine are gone: room for these
    lines = []
    time = Time()
    kwargs.setdefault("engine", True)
    g = EBoardGame(number=518, hash_kb=4, out=lines.append, settle_ms=None, clock=control,
                   now=time, **kwargs)
    return g, lines, time


def test_both_clocks_run_in_turn_with_increments():
    g, lines, time = on_clock("5+3", depth=1)
    clock = g.game.clock
    assert clock.running == WHITE and clock.remaining(BLACK) == 300000
    time.wait(20)
    play(g, "e2e4")  # the person's move: 20 s, plus 3
    assert last_clock(lines) == "clock White 4:43, Black 5:00", lines
    assert clock.running == BLACK
    assert g.think()
    # (the engine's search ran on the real clock; its fake one did not move)
    assert clock.running == WHITE and last_clock(lines) == "clock White 4:43, Black 5:03"
    time.wait(7)  # the person carries out the engine's move: their own time
    said = len(lines)
    carry_out(g)
    assert clock.running == WHITE and clock.remaining(WHITE) == 276000
    assert last_clock(lines[said:]) is None  # said as the engine lit it
    assert clock.marks == [283000, 303000]


def test_the_engine_thinks_on_its_clock():
    g, lines, time = on_clock("40/90+30")
    play(g, "e2e4")
    limits = g.limits()
    assert (limits.wtime, limits.btime, limits.winc, limits.movestogo) == (
        5430000, 5400000, 30000, 40)
    assert limits.movetime == 0
    del g, limits
    gc.collect()
    untimed = EBoardGame(number=518, engine=True, hash_kb=4, out=lambda text: None,
                         think_ms=700)
    assert untimed.game.clock is None and untimed.limits().movetime == 700


def test_a_takeback_gives_the_time_back_and_runs_the_movers_clock():
    g, lines, time = on_clock("5", engine=False)
    clock = g.game.clock
    time.wait(10)
    play(g, "e2e4")
    time.wait(4)
    play(g, "e4e2")  # taken back on the board
    assert lines[-1] == "takeback e4"
    assert clock.running == WHITE and clock.remaining(WHITE) == 300000 and clock.marks == []


def test_flag_fall_loses_and_against_a_bare_king_draws():
    g, lines, time = on_clock("1")
    time.wait(61)
    assert g.think() == 0
    assert lines[-1] == "result 0-1 White lost on time"
    assert g.game.clock.running == 0 and g.think() == 0
    del g
    g, lines, time = on_clock("1", fen="8/8/8/4k3/8/8/8/KQ6 w - - 0 1")
    time.wait(61)
    g.think()
    assert lines[-1].startswith("result 1/2-1/2"), lines


def test_the_engine_flags_too():
    """The engine's clock runs out before it has moved: it loses."""
    g, lines, time = on_clock("1", engine="white", depth=1)
    time.wait(61)
    assert g.think() == 0 and lines[-1] == "result 0-1 White lost on time"


def test_without_a_clock_nothing_is_said_of_one():
    lines = []
    g = EBoardGame(number=518, engine=True, depth=1, hash_kb=4, out=lines.append,
                   settle_ms=None)
    play(g, "e2e4")
    g.think()
    assert g.game.clock is None and not [line for line in lines if line.startswith("clock")]


def test_a_power_cut_takes_the_game_up_with_its_clock_and_the_end_is_archived():
    from micro960.eboard.moves import occupancy
    from micro960.device.storage import GameStore
    from power_cut import remove_folder, scratch_folder
    folder = scratch_folder("eboard-resume")
    try:
        g, lines, time = on_clock("5+3", engine=False)
        assert not g.resume(GameStore(folder), None)  # nothing saved yet
        time.wait(10)
        play(g, "f2f3")
        time.wait(5)
        play(g, "e7e5")
        shown = occupancy(g.game.pos)
        del g
        gc.collect()
        # The power comes back: a new game from the board's settings, taken up
        # from the save; one piece was knocked off f3 meanwhile.
        again, said, later = on_clock("5+3", engine=False)
        f3 = parse_square64("f3")
        assert again.resume(GameStore(folder), shown & ~(1 << f3))
        assert said[-2:] == ["resume 2", "leds setup f3"], said
        clock = again.game.clock
        assert clock.marks == [293000, 298000] and clock.running == WHITE
        again.place(f3)  # put back: the game goes on
        assert again.leds == ("off", 0)
        later.wait(1)
        play(again, "g2g4")
        play(again, "d8h4")
        assert "result 0-1 checkmate" in said, said
        archive = open(folder + "/games.pgn").read()
        assert '[TimeControl "300+3"]' in archive and "1. f3 {[%clk 0:04:53]}" in archive, \
            archive
        assert not GameStore(folder).load()  # finished: nothing left to take up
    finally:
        remove_folder(folder)
