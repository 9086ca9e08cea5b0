"""`micro960 play` on a PC: the console game started from the command line.

A board starts the console from main.py and never loads this file.
"""
from micro960.text.console import BLACK, WHITE, Console
from micro960.text.console_commands import cmd_level, cmd_time, setup_text
from micro960.text.console_resume import resume, say_settings
from micro960.lines import StdinLines
from micro960.rules.game import UNDECIDED
from micro960.rules.variants import Rules
from micro960.rules.startpos import setup_numbers
from micro960.device.storage import GameStore, default_folder

USAGE = """usage: micro960 play [options]
  --rules NAME      chess960 (default), classical, double960, shuffle,
                    chess480, transcendental or lrs
  --sp N            the set-up: a number or a back rank; "3 900" gives White
                    and Black their own (double960, transcendental)
  --fen FEN         start from a position (X-FEN or Shredder-FEN)
  --color SIDE      white (default), black, or both (two people, no engine)
  --level N         engine strength: 0-20 (20, the default, is full
                    strength) or a rating (1500); type help in the game
  --time SECONDS    the engine's time a move (default 5)
  --unicode         draw the pieces as chess symbols
  --ansi            paint the board in ANSI colours
  --help            this text
A game left unfinished is taken up again at the next start, with --color,
--level, --time (unless it is on a clock), --unicode and --ansi applied to
it; --rules, --sp and --fen start a new game only when none was saved (or
type new, rules). Type help in the game for its commands."""
# How to start a game with an option a resumed game could not take.
NEW_GAME = {"--rules": "rules %s", "--sp": "new %s", "--fen": "new fen %s"}


def main(argv=None):
    """`micro960 play [options]`: see USAGE."""
    argv = list(argv or [])
    options = {"--rules": "chess960", "--sp": None, "--fen": None, "--color": "white",
               "--level": "20", "--time": "5"}
    flags = {"--unicode": False, "--ansi": False}
    given = []  # the options with a value that were typed
    while argv:
        name = argv.pop(0)
        if name in ("--help", "-h"):
            print(USAGE)
            return 0
        if name in flags:
            flags[name] = True
        elif name in options and argv:
            options[name] = argv.pop(0)
            given.append(name)
        else:
            print("error: %s %s" % ("unknown option" if name not in options else
                                    "needs a value after", name))
            print(USAGE)
            return 2
    sides = {"white": BLACK, "black": WHITE, "both": None}
    try:
        if options["--color"] not in sides:
            raise ValueError("--color is white, black or both")
        rules = Rules(options["--rules"].lower())
        numbers = setup_numbers(rules, options["--sp"].split()) if options["--sp"] else ()
        console = Console(rules, *numbers, fen=options["--fen"], unicode=flags["--unicode"],
                          engine_side=sides[options["--color"]], color=flags["--ansi"])
        cmd_time(console, [options["--time"]], quiet=True)
        cmd_level(console, [options["--level"]], quiet=True)
    except ValueError as e:
        print("error: %s" % e)
        return 2
    print("micro960 - Chess960 for small machines. Type help for commands.")
    if resume(console, GameStore(default_folder()), quiet=True):
        _apply(console, options, flags, given, sides)
    else:
        console.out("%s game. %s" % (console.game.rules.name, setup_text(console.game)))
    say_settings(console)
    # The PC's terminal echoes and edits the line itself; the editor still
    # swallows arrow keys and ends lines at CR, LF or CR LF.
    lines = console.input = StdinLines()
    lines.interactive(False)
    console.show_board()
    console.reply()
    try:
        while console.running:
            line = console.next_line()  # the engine ponders meanwhile
            if line is None:
                break
            console.handle(line)
    except KeyboardInterrupt:  # Ctrl-C at the prompt ends the program, not the game
        say_kept(console)
    return 0


def say_kept(console):
    """Where the game is kept, as the program ends on a Ctrl-C: saved after
    every move, an unfinished game is taken up again at the next start."""
    store = console.store
    console.out("")  # (after the ^C the terminal echoed)
    if console.setup or console.game.result() == UNDECIDED:
        if console.keep():  # saved already: this only makes sure
            console.out("%s holds the game as it was last saved." % store.current)
        else:
            console.out("Game saved in %s; micro960 play takes it up again next time."
                        % store.current)
    else:
        console.out("The game is over and kept in %s." % store.archive_path)


def _apply(console, options, flags, given, sides):
    """The options typed, on a resumed game: those that fit it are applied;
    of the others it says so, and how to start a game with them."""
    game = console.game
    for name in given:
        value = options[name]
        if name == "--color":
            console.engine_side = sides[value]
        elif name == "--level":
            cmd_level(console, [value], quiet=True)
        elif name == "--time" and not game.clock:
            cmd_time(console, [value], quiet=True)
        elif name == "--time":
            console.out("--time %s not applied: the saved game is on the clock %s; type "
                        "time %s to take it off the clock." % (value, game.clock.control, value))
        elif name != "--rules" or value.lower() != game.rules.name:
            console.out("%s %s not applied: a saved %s game was resumed; type %s to start one."
                        % (name, value, game.rules.name, NEW_GAME[name] % value))
    console.unicode = console.unicode or flags["--unicode"]  # (the saved look is kept
    console.color = console.color or flags["--ansi"]  # where they are not given)
