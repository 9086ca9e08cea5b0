"""The text commands, the same on CPython and on MicroPython.

    perft FEN DEPTH [--divide]   count the leaf nodes DEPTH plies deep
    perft --batch                read FEN<TAB>DEPTH lines, print one count each
    startpos N|BACKRANK|random   print `N BACKRANK XFEN` for Chess960 SP N
                                 or back rank BACKRANK (RNBQKBNR)
                                 (double960, transcendental: `startpos W B`)

perft and startpos take `--rules NAME` (rules/variants.py: chess960 by default).
    replay FILE [--pgn]          replay the games of a PGN file
    play [options]               play on the text console
    eboard-sim [options] [FILE]  a sensor board fed events from FILE or stdin

`main(["perft", fen, "3"])` runs one and returns the exit code: 0 for
success, 1 for bad input, 2 for a command line that makes no sense. Bad
input gives one `error: ...` line on stderr, never a traceback; set the
environment variable MICRO960_DEBUG to see the traceback instead. When the
reader of the output goes away (`| head`) a command ends quietly with 141.

Only what MicroPython has is used here: no argparse, no os.path, stdin
read line by line.
"""
import sys

from micro960.rules import movegen
from micro960.rules.position import Position

USAGE = (
    "usage: perft [--rules NAME] FEN DEPTH [--divide] | perft [--rules NAME] --batch"
    " | startpos [--rules NAME] N|BACKRANK|random"
    " | replay FILE [--pgn] | play [options] | uci | xboard | bench [DEPTH]"
    " | eboard-sim [--sp N | --fen FEN] [--rules NAME] [--engine on|off] [--color white|black]"
    " [--level 0-20|RATING] [--depth N] [--think-ms MS] [--empty] [--interactive] [--setup] [FILE]"
)


class UsageError(Exception):
    """The command line itself is wrong (exit code 2)."""


def main(argv):
    """Run one command; return its exit code."""
    if not argv:
        sys.stderr.write(USAGE + "\n")
        return 2
    if argv[0] in ("-h", "--help", "help"):
        print(USAGE)
        return 0
    command = COMMANDS.get(argv[0])
    try:
        if command is None:
            raise UsageError("unknown command %r; %s" % (argv[0], USAGE))
        code = command(argv[1:])
        return 0 if code is None else code
    except UsageError as e:
        return _fail(e, 2)
    except ValueError as e:
        return _fail(e, 1)
    except OSError as e:
        if e.args and e.args[0] == 32:  # EPIPE: the reader is gone (`| head`): end
            return 141  # quietly, as Unix tools do (128 + SIGPIPE)
        return _fail(e, 1)
    except MemoryError:
        return _fail("out of memory (on MicroPython, try a bigger heap)", 1)
    except KeyboardInterrupt:
        return 130


def _fail(reason, code):
    if _debugging() and not isinstance(reason, str):
        raise reason
    sys.stderr.write("error: %s\n" % reason)
    return code


def _debugging():
    try:
        import os
        return bool(os.getenv("MICRO960_DEBUG"))
    except (ImportError, AttributeError):  # a port without an environment
        return False


def _split_flags(args, allowed):
    """Separate --flags from positional arguments; reject unknown flags."""
    flags = []
    words = []
    for arg in args:
        if arg.startswith("--"):
            if arg not in allowed:
                raise UsageError("unknown option " + arg)
            flags.append(arg)
        else:
            words.append(arg)
    return flags, words


# ------------------------------------------------------------------- perft

# Deeper than this would not finish in a lifetime, and each ply takes a
# 512-byte slice of the move buffer and a slot of the position's undo stack.
MAX_PERFT_DEPTH = 16


def parse_depth(text):
    try:
        depth = int(text)
    except ValueError:
        depth = -1
    if not 0 <= depth <= MAX_PERFT_DEPTH:
        raise ValueError("depth must be a whole number from 0 to %d, not %r"
                         % (MAX_PERFT_DEPTH, text))
    return depth


def take_rules(args):
    """(Rules, the other arguments) from a command line that may hold --rules NAME
    (None without it: a Position plays Chess960 and a 64K heap keeps rules/variants.py's room)."""
    if "--rules" not in args:
        return None, args
    from micro960.rules.variants import Rules
    at = args.index("--rules")
    if at + 1 >= len(args):
        raise UsageError("--rules needs a name")
    try:
        return Rules(args[at + 1].lower()), args[:at] + args[at + 2:]
    except ValueError as e:
        raise UsageError(str(e))


def perft_command(args):
    rules, args = take_rules(args)
    flags, words = _split_flags(args, ("--divide", "--batch"))
    pos = Position()
    if rules:
        rules.apply(pos)
    if "--batch" in flags:
        if words or "--divide" in flags:
            raise UsageError("perft --batch takes no other arguments; it reads FEN<TAB>DEPTH lines")
        return perft_batch(sys.stdin, sys.stdout, pos)
    if len(words) < 2:
        raise UsageError("perft needs a FEN and a depth: perft FEN DEPTH [--divide]")
    # The FEN may arrive as one argument or as its six (or four) fields.
    fen = " ".join(words[:-1])
    depth = parse_depth(words[-1])
    pos.set_fen(fen)
    buf = movegen.move_buffer(movegen.MAX_MOVES * (depth + 1))
    if "--divide" in flags:
        print(perft_divide(pos, depth, buf))
    else:
        print(movegen.perft(pos, depth, buf))
    return 0


def perft_divide(pos, depth, buf):
    """Print `move: count` for each legal move, sorted by move; return the total."""
    from micro960.rules.notation import uci_text
    if depth == 0:
        return 1
    end = movegen.legal_moves(pos, buf, 0)
    lines = []
    total = 0
    for i in range(end):
        move = buf[i]
        pos.push(move)
        count = movegen.perft(pos, depth - 1, buf, end)
        pos.pop(move)
        total += count
        lines.append("%s: %d" % (uci_text(pos, move), count))
    lines.sort()
    for line in lines:
        print(line)
    return total


def perft_batch(stdin, stdout, pos=None):
    """One count (or `error <reason>`) per FEN<TAB>DEPTH line; blank lines are skipped."""
    pos = pos or Position()
    buf = None
    flush = getattr(stdout, "flush", None)  # not every port's stdout has one
    while True:
        line = stdin.readline()
        if not line:
            break
        line = line.strip()
        if not line:
            continue
        try:
            fen, depth = _split_batch_line(line)
            if buf is None or len(buf) < movegen.MAX_MOVES * (depth + 1):
                buf = None  # let the old buffer go before the new one is made
                buf = movegen.move_buffer(movegen.MAX_MOVES * (depth + 1))
            pos.set_fen(fen)
            answer = str(movegen.perft(pos, depth, buf))
        except ValueError as e:
            answer = "error %s" % e
        stdout.write(answer + "\n")
        if flush:
            flush()  # a program feeding us lines waits for each answer
    return 0


def _split_batch_line(line):
    """'FEN<TAB>DEPTH' (or FEN, a space, DEPTH) -> (fen, depth)."""
    cut = line.rfind("\t")
    if cut < 0:
        cut = line.rfind(" ")
    if cut < 0:
        raise ValueError("expected FEN<TAB>DEPTH")
    return line[:cut].strip(), parse_depth(line[cut + 1:])


# ---------------------------------------------------------------- startpos

def startpos_command(args):
    """`N BACKRANK XFEN`; under rules that give each side its own set-up,
    `W/B WHITE/BLACK XFEN`."""
    from ..rules import startpos
    rules, args = take_rules(args)
    if rules is None:
        from micro960.rules.variants import Rules
        rules = Rules()
    flags, words = _split_flags(args, ())
    if not 1 <= len(words) <= (2 if rules.two_ranks else 1):
        raise UsageError("startpos needs %s set-up number%s (0-%d) or back rank%s "
                         "(RNBQKBNR), or 'random'" % (
                             "White's and Black's" if rules.two_ranks else "one",
                             "s" if rules.two_ranks else "", rules.setups - 1,
                             "s" if rules.two_ranks else ""))
    if words == ["random"]:
        fen = startpos.setup_fen(rules)
    else:
        numbers = []
        for word in words:  # a number or a back rank, as the console's `new` takes
            numbers.append(_setup_number(rules, word))
        fen = startpos.setup_fen(rules, *numbers)
    numbers = startpos.setup_of(rules, fen)
    ranks = (fen.split()[0][-8:], fen.split("/")[0].upper())
    if numbers[0] == numbers[1]:
        print("%d %s %s" % (numbers[0], ranks[0], fen))
    else:
        print("%d/%d %s/%s %s" % (numbers[0], numbers[1], ranks[0], ranks[1], fen))
    return 0


def _setup_number(rules, word):
    """The set-up number of `word`, a number or a back rank; a back rank the
    rules do not start from is named with the rule it breaks."""
    from ..rules.startpos import setup_numbers
    try:
        return setup_numbers(rules, [word])[0]
    except ValueError as e:
        if len(word) != 8 or word.isdigit():
            raise
        why = str(e)
        if why.endswith(": " + word.upper()):  # the rank is named first already
            why = why[:-len(word) - 2]
        raise ValueError("%s is no start position of %s: %s" % (word, rules.name, why))


# ---------------------------------------------------- replay, play (elsewhere)

def replay_command(args):
    flags, words = _split_flags(args, ("--pgn",))
    if len(words) != 1:
        raise UsageError("replay needs one PGN file: replay FILE [--pgn]")
    from ..rules.replay import replay_command as replay
    return replay(words[0], "--pgn" in flags)


def play_command(args):
    from .play import main as console_main
    return console_main(args)


def bench_command(args):
    """bench [DEPTH]: the search benchmark (see engine/bench.py)."""
    from ..engine.bench import run
    depth = parse_depth(args[0]) if args else 5
    run(depth)


def uci_command(args):
    if args:
        raise UsageError("uci takes no arguments")
    from micro960.text.uci import main as uci_main
    return uci_main()


def xboard_command(args):
    if args:
        raise UsageError("xboard takes no arguments")
    from micro960.text.xboard import main as xboard_main
    return xboard_main()


def eboard_sim_command(args):
    # loaded only when asked for
    from ..eboard.sim import UsageError as SimUsageError, main as eboard_sim_main
    try:
        return eboard_sim_main(args)
    except SimUsageError as e:
        raise UsageError(str(e))


COMMANDS = {
    "eboard-sim": eboard_sim_command,
    "uci": uci_command,
    "xboard": xboard_command,
    "bench": bench_command,
    "perft": perft_command,
    "startpos": startpos_command,
    "replay": replay_command,
    "play": play_command,
}
