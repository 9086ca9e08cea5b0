"""The heap the end of a game takes, measured by the firmware itself.

END_OF_GAME is code for the MicroPython prompt (the emulated Pico's, or the
unix port's): a console with its default table, as main.py starts it, keeps
its games in FOLDER, and plays each ending of ENDINGS to its last line. From
just before that line until the next game has begun, the heap is measured at
every line the console says and every write to the flash (gc.collect(), then
gc.mem_free()): the least free heap seen is the path's low point, and the free
heap before it less that low point is the most the path holds at once (the
result, the archive written line by line, the save cleared, the summary, the
next game). Then games.pgn must have gained the game and game.txt lost it.

    for line in run_code(pico, end_of_game_code("/")): ...
    rows = parse(lines)   # [(ending, way, before, low, archived, said)]
"""

# name: (engine side, FEN, lines before the end, the end). "+MS" moves the
# clocks' time on by MS (the console's clock reads it from Console.now).
ENDINGS = (
    ("checkmate", "both", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", (), ("Rd8#",)),
    ("engine mates", "white", "6k1/5ppp/8/8/8/1r6/r7/7K w - - 0 1", (), ("Kg1",)),
    ("stalemate", "both", "7k/4Q3/6K1/8/8/8/8/8 w - - 0 1", (), ("Qf7",)),
    ("flag", "both", None, ("e4", "e5"), ("clock 0.02", "+2000", "Nf3")),
    ("flag v lone king", "both", "7k/8/8/8/8/8/8/KQ6 w - - 0 1", ("Qa2", "Kg7"),
     ("clock 0.02", "+2000", "Qb2+")),
    ("resignation", "both", None, ("e4",), ("resign",)),
    ("agreed draw", "both", None, ("e4",), ("draw", "e5", "accept")),
    ("threefold claim", "both", None, ("Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"),
     ("Ng8", "draw")),
    ("fivefold", "both", None, ("Nf3", "Nf6", "Ng1", "Ng8") * 3 + ("Nf3", "Nf6", "Ng1"),
     ("Ng8",)),
    ("fifty-move claim", "both", "7k/8/8/8/8/8/R7/K7 w - - 99 60", (), ("Rb2", "draw")),
    ("75-move rule", "both", "7k/8/8/8/8/8/R7/K7 w - - 149 80", (), ("Rb2",)),
    ("dead position", "both", "7k/8/8/8/8/8/3r4/3K4 w - - 0 1", (), ("Kxd2",)),
    ("LRS king capture", "both", "3k4/8/8/8/8/8/8/4RK2 b - - 0 1", ("Ke8",), ("Rxe8",)),
)
# Each way is (on a 5+3 clock, quit and taken up again before the end).
WAYS = {"no clock": (False, False), "resumed on a clock": (True, True)}

END_OF_GAME = """
import gc
from micro960.device import storage
from micro960.text.console import Console
low = [0]
watching = [False]
said = []
def poll():
    gc.collect()
    low[0] = min(low[0], gc.mem_free())
def out(text):
    if watching[0]:
        poll()
        if text.startswith(('Game over', 'warning', 'error')):
            said.append(text)
class Polled:
    def __init__(self, f):
        self.f = f
    def write(self, data):
        if watching[0]:  # (a collection costs the device some 50 ms: only where it counts)
            poll()
        return self.f.write(data)
    def flush(self):
        self.f.flush()
    def close(self):
        self.f.close()
class PolledFiles(storage.Files):
    def open(self, path, mode):
        f = open(path, mode)
        return f if 'r' in mode else Polled(f)
console = Console(out=out)
store = storage.GameStore(%(folder)r, PolledFiles())
console.resume(store)
clock_ms = [0]
console.now = lambda: clock_ms[0]
def games():
    try:
        with open(store.archive_path) as f:
            return sum(1 for line in f if line.startswith('[Event '))
    except OSError:
        return 0
def saved_ended():
    try:
        with open(store.current) as f:
            return any(line.startswith('ended') for line in f)
    except OSError:
        return False
def handle(line):
    if line[0] == '+':
        clock_ms[0] += int(line[1:])
    else:
        console.handle(line)
def end(name, way, side, fen, before, last, on_clock, resumed):
    console.handle('time 0.2')
    console.handle(side)
    console.handle('new fen ' + fen if fen else 'new 518')
    if on_clock:
        console.handle('clock 5+3')
    for line in before:
        handle(line)
    if resumed:
        console.resume(store)
    console.forget()
    had = games()
    del said[:]
    gc.collect()
    start = low[0] = gc.mem_free()
    watching[0] = True
    for line in last:
        handle(line)
    console.handle('new 518')
    watching[0] = False
    archived = games() == had + 1 and not saved_ended() and not console.game.moves
    print('ending|%%s|%%s|%%d|%%d|%%s|%%s' %% (name, way, start, low[0], archived, '; '.join(said)))
for case in %(cases)r:
    end(*case)
"""


def cases(ways=WAYS, names=None):
    """(name, way, engine side, FEN, lines before, last lines, on a clock,
    resumed) of each ending (those `names` only, if given) each way."""
    rules = []
    for name, side, fen, before, last in ENDINGS:
        if names is not None and name not in names:
            continue
        for way, (clock, resumed) in ways.items():
            rules.append((name, way, side, fen, tuple(before), tuple(last), clock, resumed))
    return rules


def end_of_game_code(folder, ways=WAYS, names=None):
    """The code to run at the prompt, its games kept in `folder`."""
    code = END_OF_GAME % {"folder": folder, "cases": cases(ways, names)}
    # LRS: the console's rules are set by its own command, before the FEN.
    return code.replace("console.handle('new fen ' + fen if fen else 'new 518')",
                        "console.handle('rules lrs' if 'LRS' in name else 'rules chess960')\n"
                        "    console.handle('new fen ' + fen if fen else 'new 518')")


def parse(lines):
    """[(ending, way, free before, least free, archived, what was said)] from the output."""
    rows = []
    for line in lines:
        if line.startswith("ending|"):
            name, way, before, low, archived, said = line.split("|", 6)[1:]
            rows.append((name, way, int(before), int(low), archived == "True", said))
    return rows
