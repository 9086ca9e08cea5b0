"""The `micro960` command on the PC.

    micro960 play [--runtime cpython|micropython] [--heap 256K] [console options]
    micro960 uci | xboard [--runtime ...] [--heap 224K]
    micro960 perft [--rules NAME] FEN DEPTH [--divide] [--runtime ...] [--heap 64K]
    micro960 perft [--rules NAME] --batch          (FEN<TAB>DEPTH lines on stdin)
    micro960 startpos [--rules NAME] N | BACKRANK | W B | random [--runtime ...]
    micro960 replay FILE.pgn [--pgn] [--runtime ...]
    micro960 eboard-sim [--sp N | --fen FEN] [--rules NAME] [--engine on|off] [...] [FILE]
    micro960 bench [--perft | --pico | --pico-game | --ponder | --perft-suite] [...]
    micro960 match --opponent CMD (--tc BASE+INC | --movetime S | --nodes N | --depth N)
                   [--engine-nodes N | --opponent-movetime S ...] [...]
    micro960 flash [--port P] [--board NAME] [--dry-run DIR]
    micro960 pull [--port P] [--to FILE]
    micro960 bridge [--port P] [--wait SECONDS] [--timeout SECONDS]
    micro960 emulator [--board NAME]

play, perft, startpos and replay are the firmware's own text commands
(firmware/micro960/text/commands.py): this file only picks the runtime and passes
every other argument through, so both runtimes parse and answer alike.
`--runtime cpython` runs them in this process; `--runtime micropython` runs
the same code, compiled to .mpy, on the MicroPython unix port with a heap of
--heap bytes, like a board with that much free RAM.
"""
import argparse
import re
import sys

from . import runtime

# name: (help, default runtime, default heap, what follows)
FIRMWARE_COMMANDS = {
    "play": ("play a game on the text console", "micropython", "256K",
             "[console options]"),
    "uci": ("a UCI engine on stdin/stdout", "cpython", "224K", ""),
    "xboard": ("an XBoard (CECP) engine on stdin/stdout", "cpython", "224K", ""),
    "perft": ("count leaf nodes of the move tree", "cpython", "64K",
              "[--rules NAME] FEN DEPTH [--divide] | [--rules NAME] --batch "
              "(reads FEN<TAB>DEPTH lines)"),
    "startpos": ("print `N BACKRANK XFEN` for start position N or back rank BACKRANK of "
                 "the rules (Chess960 SP 0-959 by default)", "cpython", "64K",
                 "[--rules NAME] N | BACKRANK | W B (double960, transcendental) | random"),
    "replay": ("replay a PGN file: one `RESULT XFEN` line per game", "cpython", "128K",
               "FILE.pgn [--pgn]"),
    "eboard-sim": ("a sensor board fed `lift e1` / `place g1` lines: prints the moves",
                   "cpython", "224K",
                   "[--sp N | --fen FEN] [--rules NAME] [--engine on|off] [--color white|black] "
                   "[--level 0-20|RATING] [--depth N] [--think-ms MS] [--empty] [--interactive] "
                   "[--setup] [FILE]"),
}


def heap_size(text):
    """argparse type for --heap: bytes, or a number with K or M."""
    if not re.fullmatch(r"[0-9]+[kKmM]?", text):
        raise argparse.ArgumentTypeError("heap sizes look like 65536, 64K or 1M, not %r" % text)
    return text


def build_parser():
    parser = argparse.ArgumentParser(
        prog="micro960", description="micro960, a Chess960 engine for microcontrollers",
        allow_abbrev=False)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (summary, default_runtime, default_heap, usage) in FIRMWARE_COMMANDS.items():
        # play's own --help (firmware/micro960/text/play.py) lists its every option.
        sub = commands.add_parser(
            name, help=summary, allow_abbrev=False, add_help=name != "play",
            usage="micro960 %s [--runtime cpython|micropython] [--heap SIZE] %s" % (name, usage),
            description=summary + ". Arguments other than the two below go to the firmware.")
        sub.add_argument("--runtime", choices=("cpython", "micropython"), default=default_runtime,
                         help="where the firmware code runs (default %s)" % default_runtime)
        sub.add_argument("--heap", type=heap_size, default=default_heap,
                         help="MicroPython heap size (default %s)" % default_heap)
    bench = commands.add_parser("bench", help="benchmarks", allow_abbrev=False,
                                description="Benchmarks on CPython and the MicroPython unix port.")
    bench.add_argument("--perft", action="store_true",
                       help="perft speed of micro960 on both runtimes and of python-chess")
    bench.add_argument("--pico", action="store_true",
                       help="the search and perft benchmarks, free heap and go movetime on "
                            "an emulated Pico, timed by its own clock (needs Node.js "
                            "and rp2040js)")
    bench.add_argument("--pico-game", action="store_true",
                       help="a whole console game on an emulated Pico: a seeded random "
                            "game typed as a person types moves, a `hint` every fourth "
                            "ply; the free heap after every move")
    bench.add_argument("--ponder", action="store_true",
                       help="what pondering buys: console games against Stockfish with and "
                            "without it, the person's and the engine's time in a Pico's nodes")
    bench.add_argument("--games", type=int, default=20, help="with --ponder: games each way")
    bench.add_argument("--repeat", type=int, default=3, help="runs per case; the best counts")
    bench.add_argument("--depth", type=int, default=5,
                       help="search depth (default 5); with --perft-suite, the perft depth")
    bench.add_argument("--perft-suite", action="store_true",
                       help="check perft of all 960 start positions (tests/data has them "
                            "to depth 5) and the standard positions (to 5, startpos to 6) against "
                            "tests/data to --depth, with a line of progress at most every 10 s")
    bench.add_argument("--every", type=int, default=1,
                       help="with --perft-suite: only every N-th start position")
    bench.add_argument("--runtime", choices=("cpython", "micropython"), default="cpython",
                       help="with --perft-suite: where it runs")
    bench.add_argument("--heap", type=heap_size, default=None,
                       help="MicroPython heap size (default 64K for perft, 192K for search)")
    # match parses its own arguments (host_tools/match.py), so that python-chess
    # is imported only when a match is played.
    commands.add_parser("match", help="play Chess960 games between two engines", add_help=False)
    # flash parses its own arguments too (host_tools/flash.py).
    commands.add_parser("flash", help="put micro960 on a Raspberry Pi Pico", add_help=False)
    commands.add_parser("pull", help="copy the finished games from a board", add_help=False)
    commands.add_parser("bridge", help="the Pico as a UCI engine for chess GUIs",
                        add_help=False)
    # and emulator (host_tools/emulator_command.py).
    commands.add_parser("emulator", add_help=False,
                        help="play the real firmware on an emulated Pico, no board needed")
    return parser


def main(argv=None):
    parser = build_parser()
    args, rest = parser.parse_known_args(sys.argv[1:] if argv is None else argv)
    try:
        if args.command == "bench":
            if rest:
                parser.error("unrecognized arguments: " + " ".join(rest))
            return bench(args)
        if args.command == "match":
            from . import match
            return match.main(rest)
        if args.command == "flash":
            from . import flash
            return flash.main(rest)
        if args.command == "pull":
            from . import pull
            return pull.main(rest)
        if args.command == "bridge":
            from . import bridge
            return bridge.main(rest)
        if args.command == "emulator":
            from . import emulator_command
            return emulator_command.main(rest)
        if rest and rest[0] == "--":
            rest = rest[1:]
        code = run_firmware_command([args.command] + rest, args.runtime, args.heap)
        if args.command == "play" and ("--help" in rest or "-h" in rest):
            print(pc_options("play"))  # the firmware's help knows none of these
        return code
    except runtime.ToolMissing as e:
        sys.stderr.write("micro960: %s\n" % e)
        return 1
    except KeyboardInterrupt:
        return 130


def pc_options(command):
    """The PC's own options of a firmware command, with their defaults."""
    default_runtime, default_heap = FIRMWARE_COMMANDS[command][1:3]
    return ("On a PC, micro960 %s also takes:\n"
            "  --runtime NAME    micropython or cpython (default %s)\n"
            "  --heap SIZE       MicroPython's heap, like a board with that much free\n"
            "                    RAM (default %s)" % (command, default_runtime, default_heap))


def run_firmware_command(argv, runtime_name, heap):
    """micro960.text.commands.main(argv) on the chosen runtime; its exit code."""
    if runtime_name == "micropython":
        return runtime.run_commands(argv, heap=heap)
    firmware = str(runtime.FIRMWARE)
    if firmware not in sys.path:
        sys.path.insert(0, firmware)
    from micro960.text import commands
    return commands.main(argv)


def bench(args):
    from . import bench as benchmarks
    if args.perft:
        return benchmarks.bench_perft(repeat=max(1, args.repeat), heap=args.heap or "64K")
    if args.pico_game:
        from . import pico_game
        return pico_game.run()
    if args.ponder:
        from . import ponder_bench
        return ponder_bench.run(max(1, args.games))
    if args.pico:
        from . import pico_bench
        return pico_bench.run(args.depth)
    if args.perft_suite:
        return benchmarks.perft_suite(args.depth, args.runtime, args.heap or "64K",
                                      max(1, args.every))
    return benchmarks.bench_search(args.depth, args.heap or "192K", max(1, args.repeat))


if __name__ == "__main__":
    sys.exit(main())
