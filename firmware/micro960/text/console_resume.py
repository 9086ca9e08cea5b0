"""Taking up a saved game (or set-up phase) at the start: the console's
side, level, time and look as they were, and what the start-up says. Loaded
only then, and released after (Console.forget), so the commands' module
stays small while a game is played.
"""
from micro960.text.console_commands import cmd_level, cmd_threads, cmd_time, say_sides, \
    seconds_text, setup_text


def resume(console, store, quiet=False):
    """Keep games in `store`; take up a saved unfinished game (or set-up
    phase). True if one was. `quiet`: the side and level are not said yet
    (text/play.py says them once its options are applied)."""
    console.store = store
    saved = store.unfinished()
    if saved is None:
        if store.problem:
            console.out("warning: " + store.problem)
        return False
    console.game = saved
    placed = _take_settings(console, saved.settings)
    if saved.clock:
        saved.clock.now = console.now
    if placed is not None:
        from .console_setup import SetUpPhase
        SetUpPhase(console, saved.rules, placed)
        console.out("Resuming your set-up phase (%s, %d placed); type new for a new game."
                    % (saved.rules.name, len(placed)))
    else:
        console.start_clock()
        console.out("Resuming your saved game (%s); type new for a new game."
                    % moves_played(console))
        console.out("%s game. %s" % (saved.rules.name, setup_text(saved)))
    if not quiet:
        say_settings(console)
    return True


def moves_played(console):
    """`12 moves played`, counted as a chess player counts them (not plies)."""
    last = console.last_move_text()  # 12. Nf3 or 12...Nf6
    if not last:
        return "no move played yet"
    count = int(last.split(".")[0]) - int(console.game.start_fen.split()[5]) + 1
    return "%d move%s played" % (count, "" if count == 1 else "s")


def say_settings(console):
    """Who plays what, the level (and threads) and the engine's time."""
    say_sides(console)
    clock = console.game.clock
    console.out("Level %d%s; %s." % (console.engine.level,
                                     ", two threads" if console.engine.helper else "",
                                     "clock " + clock.control if clock else
                                     "the engine thinks %s a move"
                                     % seconds_text(console.limits.movetime)))


def _take_settings(console, text):
    """Side, level, time, pondering, threads and the board's look as a
    saved game had them (see Console.keep); the set-up phase's placements,
    or None."""
    words = text.split()
    placed = None
    try:
        for name, value in zip(words[::2], words[1::2]):
            if name == "engine":
                console.engine_side = console.ENGINE_SIDES.index(value) * 8 or None
            elif name == "level":
                from micro960.engine.levels import nearest
                cmd_level(console, [str(nearest(int(value)))], quiet=True)
            elif name == "time":
                cmd_time(console, [str(int(value) / 1000)], quiet=True)
            elif name == "ponder":
                console.pondering = value == "on"
            elif name == "threads":
                try:
                    cmd_threads(console, [value], quiet=True)
                except ValueError as e:  # no heap for a second search now: not damage
                    console.out("warning: %s; the engine searches on one thread" % e)
            elif name == "look":  # see Console.keep
                look = int(value)
                console.unicode, console.color, console.flipped = \
                    bool(look & 1), bool(look & 2), bool(look & 4)
            elif name == "setup":
                placed = value[1:]
    except ValueError:
        console.out("warning: the saved settings are damaged; some are the defaults")
    return placed
