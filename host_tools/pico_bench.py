"""`micro960 bench --pico`: the benchmarks on the emulated Pico, timed by its own clock.

The firmware runs on stock MicroPython on rp2040js (host_tools/emulator.py),
and every time is `time.ticks_ms()` on the emulated clock, not this
machine's: at 200 MHz, as micro960's main.py sets it (boards/pico/board.py's
CPU_MHZ), with the flash's stalls behind the XIP cache
(host_tools/pico/timing.mjs). It prints:

- the start-up: ms from reset to the console's board and prompt, at the
  board's clock and at stock MicroPython's;
- the search benchmark (micro960/engine/bench.py at --depth): nodes, nodes/s, the
  peak heap and the deepest C stack, with the node signature `bench` gives;
  at stock MicroPython's 125 MHz and at the board's clock, each with the share
  of the flash's reads the cache served;
- perft from the start position to depth 4: leaves/s;
- how long `go movetime N` takes from the go line to `bestmove`;
- the free heap with each mode (and the sensor board's game) loaded on a
  fresh board, with a 16 KB table
  and with the default one sized from the heap (tt.default_kb); the
  console's too with `threads 2`, its helper made;
- the sensor board's scan with the real matrix driver (on emulated GPIO):
  the time to read the 64 squares, to scan and debounce, and the CPU share;
- the depth and nodes/s of the console's engine on two middlegames with
  each of those tables;
- the same middlegames searched by one search and by two at once (UCI
  Threads 2: the second on core 1): depth, nodes/s of both, the helper's C
  stack, and the free heap with the helper made;
- the end of a game on the console (host_tools/game_end.py): for each way a
  game ends, the most of the heap its end holds at once (the free heap
  before it less the least seen on its way, measured by the firmware at
  every line said and every write to the flash), and whether games.pgn got it.

The cache model leaves out a few things a board has (timing.mjs says which),
so a real Pico may be somewhat slower still.
"""
from . import emulator, game_end

# Each mode as main.py starts it, and where its search is; %s is the table's
# size in KB (None: sized from the free heap, tt.default_kb()).
MODES = (("uci", "from micro960.text.uci import Uci\nengine = Uci(None, hash_kb=%s)\nsearch = engine.search"),
         ("console", "from micro960.text.console import Console\nengine = Console(hash_kb=%s)\n"
                     "search = engine.engine"),
         ("xboard", "from micro960.text.xboard import XBoard\nengine = XBoard(None, hash_kb=%s)\n"
                    "search = engine.search"),
         # The sensor board as main.py runs it (matrix sensors, WS2812 LEDs, a
         # saved game), on a 15+10 clock and pondering, without the timer.
         ("sensor board", "import micro960.eboard.sensorboard, micro960.device.sensor_matrix, "
                          "micro960.device.led_ws2812, micro960.device.storage, micro960.eboard.pondering\n"
                          "from micro960.eboard.game import EBoardGame\n"
                          "engine = EBoardGame(number=518, hash_kb=%s, clock='15+10', "
                          "ponder=True, out=lambda text: None)\nsearch = engine.search"))
# The search benchmark at `mhz`, and XIP_CTRL's counters of the flash's reads
# it made: CTR_HIT and CTR_ACC, cleared first.
SEARCH = """
import machine
from micro960.engine import bench
machine.freq(%d * 1000000)
machine.mem32[0x1400000c] = 0
machine.mem32[0x14000010] = 0
bench.run(%d)
print('cache', machine.mem32[0x1400000c], machine.mem32[0x14000010])
"""
# The free heap, printed after a collection: `FREE_HEAP % "more, to print"`.
# MicroPython's collector is conservative: a stale word on the C stack, left by
# what ran before, keeps the block it points to alive, a KB or so that comes and
# goes with any change of code. Deep calls overwrite the stack first, so the
# figure is what the program really holds.
FREE_HEAP = ("import gc; scrub = lambda n: n and scrub(n - 1); scrub(12); gc.collect(); "
             "print('free', gc.mem_free(), %s)")
MOVETIMES = (100, 500, 1000, 2000)
STOCK_MHZ = 125  # stock MicroPython's clock on an RP2040
# What the console's table buys: its engine thinks TABLE_MS on each of these
# middlegames, with a 16 KB table and with the default one (sized from the heap).
TABLE_MS = 10000
TABLE_FENS = ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
              "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10")
# Run at the prompt where the console's free heap was just measured (MODES'
# `search` is its engine).
TABLE_SEARCH = """
from micro960.rules.game import Game
from micro960.engine.search import Limits
for fen in %r:
    search.tt.clear()
    reached = []
    search.on_info = lambda depth, *rest: reached.append(depth)
    search.think(Game('chess960', fen), Limits(movetime=%d))
    print('table', search.tt.kb, 'depth', reached[-1], 'nodes', search.nodes)
"""
# One search and then two (UCI Threads 2: a helper on core 1, engine/smp.py)
# think TWO_CORES_MS on each of TABLE_FENS with a 16 KB table: depth, nodes
# of both, the helper's C stack; then the free heap with the helper made.
TWO_CORES = """
import gc
from micro960.rules.game import Game
from micro960.engine.search import Limits, Search
search = Search(16)
for threads in (1, 2):
    search.set_threads(threads)
    for fen in %r:
        search.tt.clear()
        reached = []
        search.on_info = lambda depth, *rest: reached.append(depth)
        search.think(Game('chess960', fen), Limits(movetime=%d))
        helper = search.helping
        print('cores', threads, reached[-1], search.all_nodes(),
              helper.search.stack_peak if helper else 0)
""" + FREE_HEAP % "0"
TWO_CORES_MS = 5000
# A UCI engine fed lines from the prompt and timed there: the go line is read,
# searched and answered on the device's clock.
TIMED_GO = """
import time
from micro960.text.uci import Uci
class Lines:
    limit = 2000
    def poll(self): return None
    def readline(self): return None
said = []
engine = Uci(Lines(), out=said.append)
engine.handle("position startpos moves e2e4 e7e5")
for ms in %r:
    start = time.ticks_ms()
    engine.handle("go movetime %%d" %% ms)
    print("movetime", ms, time.ticks_diff(time.ticks_ms(), start), said[-1])
"""


# The sensor board's scan with the real matrix driver, on pins pico.mjs
# wires to a board with the 32 pieces of a start position.
SCAN = """
import time
from micro960.device import board
from micro960.eboard.debounce import scans_for
from micro960.eboard.scanner import Scanner
from micro960.device.sensor_matrix import MatrixSensor
config = board.load()
sensor = MatrixSensor(config)
scanner = Scanner(sensor, scans_for(config.DEBOUNCE_MS, config.SCAN_PERIOD_MS))
scanner.prime()
ranks = bytearray(8)
start = time.ticks_us()
for i in range(200):
    sensor.read_into(ranks)
read = time.ticks_diff(time.ticks_us(), start) // 200
start = time.ticks_us()
for i in range(200):
    scanner.scan()
print('scan', read, time.ticks_diff(time.ticks_us(), start) // 200, config.SCAN_PERIOD_MS)
"""


def at_prompt(pico):
    """Stop main.py (Ctrl-C): the MicroPython prompt."""
    pico.read_until("micro960 on ")
    pico.send("\x03", end="")
    pico.read_until('Type "help()" for more information.')


def start_up(pico):
    """On a board just switched on: its clock's ms from reset to the
    console's board and prompt (Enter at the banner), read at MicroPython's
    prompt after a Ctrl-C, where it leaves the board. The clock stands still
    while the board waits for the host (pico.mjs), so the host's pace adds
    nothing; the Ctrl-C and the read add a few ms."""
    pico.read_until("micro960 on ")
    pico.send("")
    pico.read_until(lambda line: line.endswith(" to move"))
    pico.send("\x03", end="")
    pico.read_until('Type "help()" for more information.')
    # The new game the console saved goes, for the measures after it to
    # start as on a board just flashed.
    said = run_code(pico, "import time\nprint('ticks', time.ticks_ms())\n"
                          "import os\nfrom micro960.device.storage import CURRENT\n"
                          "if CURRENT in os.listdir():\n    os.remove(CURRENT)")
    return int([line for line in said if line.startswith("ticks ")][-1].split()[1])


def fresh(pico):
    """From the prompt, a soft reset: main.py started on a cleared heap, as
    on a board just switched on; then its prompt again."""
    pico.soft_reset(at_prompt=True)
    at_prompt(pico)


def run_code(pico, code, timeout=1800):
    """Run `code` (lines) at the prompt in paste mode; the lines it printed."""
    pico.send("\x05", end="")  # paste mode: the lines go in as one block
    for line in code.strip("\n").split("\n"):
        pico.send(line, end="\r")
    pico.send("print('<done>')", end="\r")
    pico.send("\x04", end="")
    said = pico.read_until(lambda line: line.strip() == "<done>", timeout)
    return [line for line in said if not line.startswith("===")]


def end_of_game(pico, ways=game_end.WAYS, names=None):
    """Each ending of game_end.ENDINGS (or those `names`) played on `pico`'s
    console, at its prompt: [(ending, way, free before, least free, archived, said)]."""
    return game_end.parse(run_code(pico, game_end.end_of_game_code("/", ways, names),
                                   timeout=3600))


def end_of_game_lines(rows):
    """A line a row; what the console said is shown where it warned or the
    game was not archived."""
    for name, way, before, low, archived, said in rows:
        warned = "warning" in said or "error" in said
        yield ("end of a game, %s, %s: %d bytes at most (%d free before, %d at least); %s%s"
               % (name, way, before - low, before, low,
                  "archived" if archived else "NOT archived",
                  " (%s)" % said if warned or not archived else ""))


def last_free(said):
    """The words after `free` in the last FREE_HEAP line of `said`."""
    return [line for line in said if line.startswith("free ")][-1].split()[1:]


def two_cores(pico, mhz, ms, out):
    """Print what a second search on core 1 gives: nodes a second and depth
    with one search and with two, the helper's C stack, the heap left."""
    said = run_code(pico, TWO_CORES % (TABLE_FENS, ms))
    rows = [[int(word) for word in line.split()[1:]] for line in said if line.startswith("cores ")]
    free = last_free(said)[0]
    for one, two in zip(rows[:len(rows) // 2], rows[len(rows) // 2:]):
        out("two cores at %d MHz, 16 KB table, %d ms a middlegame: depth %d, %d nodes/s "
            "(one search: depth %d, %d nodes/s; %.2fx); the helper's C stack %d bytes"
            % (mhz, ms, two[1], two[2] * 1000 // ms, one[1], one[2] * 1000 // ms,
               two[2] / max(1, one[2]), two[3]))
    out("free heap with a search and its helper (16 KB table): %s bytes" % free)


def console_threads(pico, code):
    """The console's free heap and default table with `threads 2`: the
    helper's heap comes out of the table (smp.set_threads)."""
    fresh(pico)
    said = run_code(pico, code % None + "\nsearch.set_threads(2)\n" + FREE_HEAP % "search.tt.kb")
    free, kb = last_free(said)
    return "free heap with the console loaded, threads 2 and a default %s KB table: %s bytes" \
        % (kb, free)


def run(depth=5, perft_depth=4, movetimes=MOVETIMES, table_ms=TABLE_MS, out=print,
        end_ways=game_end.WAYS, endings=None, heaps=None, stock_start_up=True,
        two_cores_ms=TWO_CORES_MS):
    """Measure and print (see the module's docstring); 0, or 1 where the
    emulator cannot run. heaps: the (mode, table KB or None for the
    default) whose free heap is measured, all of MODES' both ways if None;
    stock_start_up: the start-up at stock MicroPython's clock too (a board
    of its own)."""
    reason = emulator.missing()
    if reason:
        out("micro960 bench --pico: %s" % reason)
        return 1
    from . import flash
    config = flash.board_config("pico")
    mhz = config.CPU_MHZ or STOCK_MHZ
    out("The emulated Pico (rp2040js, stock MicroPython 1.28) at %d MHz, timed by its own "
        "clock, with the flash's stalls behind the XIP cache (host_tools/pico/timing.mjs; "
        "a real Pico may be somewhat slower still)." % mhz)
    # One board for all: each measure starts on a fresh heap, as on a board
    # just switched on, through a soft reset (a boot costs twice the CPU).
    with emulator.EmulatedPico(matrix=(config.MATRIX_ROW_PINS, config.MATRIX_COL_PINS)) as pico:
        pico.occupy(0xFFFF00000000FFFF)  # the 32 pieces of a start position, for the scan
        out("start-up at %d MHz: the console's board and prompt %d ms after reset"
            % (mhz, start_up(pico)))
        for clock in sorted({STOCK_MHZ, mhz}):  # the board's clock last: it stays
            for line in run_code(pico, SEARCH % (clock, depth)):
                if line.startswith(("position", "total")):
                    out("search at %d MHz %s" % (clock, line))
                elif line.startswith("cache "):
                    hits, reads = map(int, line.split()[1:])
                    out("flash cache at %d MHz: %.2f%% of %d reads hit (each halfword the "
                        "CPU fetches is one)" % (clock, 100 * hits / reads, reads))
        perft = ("from micro960.rules import movegen, position; from micro960 import compat\n"
                 "pos = position.Position()\nbuf = movegen.move_buffer(256 * 5)\n"
                 "start = compat.ticks_ms()\nn = movegen.perft(pos, %d, buf)\n"
                 "ms = compat.ticks_diff(compat.ticks_ms(), start)\n"
                 "print('perft startpos depth %d: %%d leaves in %%d ms, %%d leaves/s' %% "
                 "(n, ms, n * 1000 // max(1, ms)))" % (perft_depth, perft_depth))
        for line in run_code(pico, perft):
            if line.startswith("perft"):
                out(line)
        for line in run_code(pico, TIMED_GO % (tuple(movetimes),)):
            if line.startswith("movetime"):
                words = line.split()
                out("go movetime %s: bestmove after %s ms (%s)" % (words[1], words[2],
                                                                   " ".join(words[3:5])))
        tables = []
        for mode, code in MODES:
            for table in (16, None):
                if heaps is not None and (mode, table) not in heaps:
                    continue
                fresh(pico)
                said = run_code(pico, code % table + "\n" + FREE_HEAP % "search.tt.kb")
                free, kb = last_free(said)
                out("free heap with the %s loaded and a%s %s KB table: %s bytes"
                    % (mode, "" if table else " default", kb, free))
                if mode == "console" and table is None:
                    out(console_threads(pico, code))
                if mode == "console":  # pasted apart: its code is not in the heap measured
                    tables += [line.split() for line in
                               run_code(pico, TABLE_SEARCH % (TABLE_FENS, table_ms))
                               if line.startswith("table")]
        fresh(pico)
        for line in run_code(pico, SCAN):
            if line.startswith("scan"):
                read, whole, period = map(int, line.split()[1:])
                out("sensor matrix: read in %d us, scanned and debounced in %d us, "
                    "%.1f%% of the CPU at one scan every %d ms"
                    % (read, whole, whole / (10 * period), period))
        for words in tables:
            out("console, %s KB table, %d ms a middlegame: depth %s, %d nodes/s"
                % (words[1], table_ms, words[3], int(words[5]) * 1000 // table_ms))
        fresh(pico)
        two_cores(pico, mhz, two_cores_ms, out)
        fresh(pico)
        rows = end_of_game(pico, end_ways, endings)
    if stock_start_up and mhz != STOCK_MHZ:
        board = flash.BOARDS / "pico" / "board.py"
        with emulator.EmulatedPico(extra={"board.py": board.read_text() + "\nCPU_MHZ = None\n"}) as pico:
            out("start-up at %d MHz (CPU_MHZ None): the console's board and prompt %d ms after "
                "reset" % (STOCK_MHZ, start_up(pico)))
    for line in end_of_game_lines(rows):
        out(line)
    return 0
