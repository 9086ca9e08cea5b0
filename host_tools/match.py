"""`micro960 match`: play Chess960 games between two engines and rate the result.

    micro960 match --opponent stockfish --opponent-option "Skill Level=0" --nodes 8000
    micro960 match --engine "stockfish" --opponent "polyglot -noini -ec stockfish" \\
        --opponent-protocol xboard --tc 2+0.1 --games 20 --pgn games.pgn --seed 7
    micro960 match --ponder --runtime micropython --opponent stockfish \\
        --opponent-option UCI_LimitStrength=true --opponent-option UCI_Elo=1900 \\
        --tc 5+0.05 --games 40 --seed 23 --concurrency 1   # then again without --ponder
    micro960 match --engine-nodes 16000 --opponent stockfish --opponent-movetime 1 \\
        --opponent-option UCI_LimitStrength=true --opponent-option UCI_Elo=1800 --games 40

Each side plays by its own limit (--engine-tc/-movetime/-nodes/-depth,
--opponent-...) if it has one, else by the shared one (--tc, --movetime,
--nodes, --depth): a clock, a fixed time a move or a node budget, with a
depth or not, or a depth alone.

Every start position (SP 0-959, drawn at random; --seed repeats a draw) is
played twice, the engine under test taking White in one game and Black in the
other, so neither side profits from a lucky position. Games run --concurrency
at a time (default 2), each slot with its own pair of engine processes, through
python-chess's asynchronous `chess.engine` API; python-chess sets UCI_Chess960
(or the XBoard variant fischerandom) itself for Chess960 boards.

With --ponder the engine under test thinks on its opponent's time (UCI
`go ponder` on the reply it expects, `ponderhit` when it comes, as GUIs do;
its clock runs only from then). It then needs a core of its own while the
opponent thinks: give --concurrency 1 on a two-core machine. The summary
says how often its expected reply came (its ponder hits).

A game ends only by the rules (`board.outcome(claim_draw=True)`), by
--max-moves (scored as a draw and marked "adjudication" in the PGN), or by a
forfeit: the side whose engine crashes, stalls, sends an illegal move or
oversteps its clock or its time a move loses (a flag fall against a lone king
is a draw, as in the FIDE rules). A crashed engine is restarted and the match
goes on.

Output: one line per finished game, then the score from the engine's point of
view and the Elo difference with its 95% error bar (host_tools/elo.py). All
games go to --pgn in game order, each with Variant, SetUp, FEN, TimeControl
and Termination tags (when the sides' limits differ, Event names each side's,
WhiteLimit and BlackLimit give them by colour, and TimeControl is "?" unless
both are without clock); the last move's comment says why the game ended.
"""
import argparse
import asyncio
import collections
import datetime
import logging
import math
import random
import shlex
import shutil
import sys
import time
from pathlib import Path

import chess
import chess.engine
import chess.pgn

from . import elo

REPO = Path(__file__).resolve().parent.parent
# Seconds an engine may take to start and answer the handshake (--start-timeout):
# the firmware may compile first, MicroPython under load starts slowly, and a
# Pico behind the bridge may first have to be found and reset.
START_TIMEOUT = 60.0
QUIT_TIMEOUT = 5.0
CLOCK_MARGIN = 0.05  # seconds a move may overstep its clock (--time-margin)
MOVETIME_MARGIN = 1.0  # ... or its fixed time a move
GAME_DIRS = ("/usr/games", "/usr/local/games")  # where Debian installs chess engines
INFO = chess.engine.INFO_BASIC | chess.engine.INFO_SCORE


class MatchError(Exception):
    """An engine cannot be started or set up; the message says which and why."""


class PatientXBoard(chess.engine.XBoardProtocol):
    """python-chess's XBoard side with the start-up wait of the match.

    python-chess gives an XBoard engine 2 s from `protover 2` to the end of
    its feature list, a timer its initialize() sets with self.loop.call_later:
    too little for a MicroPython start on a loaded machine ("Timeout during
    initialization") or a Pico behind the bridge. While it initialises, its
    loop's call_later waits `start_timeout` at least."""

    start_timeout = START_TIMEOUT

    async def initialize(self):
        loop = self.loop
        self.loop = patient = _PatientLoop(loop, self.start_timeout)
        try:
            await super().initialize()
        finally:
            self.loop = loop
            for timer in patient.timers:  # not to fire after a wait given up
                timer.cancel()


class _PatientLoop:
    """An event loop whose call_later waits at least `seconds`."""

    def __init__(self, loop, seconds):
        self._loop = loop
        self._seconds = seconds
        self.timers = []

    def call_later(self, delay, callback, *args, **kwargs):
        timer = self._loop.call_later(max(delay, self._seconds), callback, *args, **kwargs)
        self.timers.append(timer)
        return timer

    def __getattr__(self, name):
        return getattr(self._loop, name)


# ---------------------------------------------------------------- arguments


def time_control(text):
    """argparse type for --tc: 'BASE+INC' in seconds, e.g. '2+0.1', or 'BASE'.

    >>> time_control("2+0.1")
    (2.0, 0.1)
    """
    base, _, increment = text.partition("+")
    try:
        base, increment = float(base), float(increment or 0)
    except ValueError:
        base = increment = -1.0
    if not (base > 0 and increment >= 0 and math.isfinite(base + increment)):
        raise argparse.ArgumentTypeError(
            "a time control is BASE+INC in seconds, e.g. 2+0.1 or 60, not %r" % text)
    return base, increment


def engine_option(text):
    """argparse type for --engine-option/--opponent-option: 'NAME=VALUE'.

    true/false are passed in lower case: python-chess reads any check value
    other than "false" as true.

    >>> engine_option("Skill Level=5")
    ('Skill Level', '5')
    """
    name, equals, value = text.partition("=")
    if not equals or not name.strip():
        raise argparse.ArgumentTypeError("options look like NAME=VALUE, not %r" % text)
    value = value.strip()
    if value.lower() in ("true", "false"):
        value = value.lower()
    return name.strip(), value


def positive_seconds(text):
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError("expected a number of seconds above 0, not %r" % text)
    return value


def positive_int(text):
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError("expected a whole number of at least 1, not %r" % text)
    return value


def build_parser():
    parser = argparse.ArgumentParser(
        prog="micro960 match", allow_abbrev=False,
        description="Play Chess960 games between the engine under test and an opponent, "
                    "each start position twice with colours swapped; print the score and "
                    "the Elo difference.")
    parser.add_argument("--engine", metavar="CMD",
                        help="engine under test, a command line "
                             "(default: this repo's engine, `micro960 uci`)")
    parser.add_argument("--engine-protocol", choices=("uci", "xboard"), default="uci")
    parser.add_argument("--engine-option", metavar="NAME=VALUE", type=engine_option,
                        action="append", default=[], help="engine option (repeatable)")
    parser.add_argument("--engine-name", help="name in the PGN (default: what the engine says)")
    parser.add_argument("--ponder", action="store_true",
                        help="the engine under test thinks on its opponent's time (UCI only)")
    parser.add_argument("--runtime", choices=("cpython", "micropython"),
                        help="runtime of the default engine (passed to `micro960 uci`)")
    parser.add_argument("--heap", help="MicroPython heap of the default engine")
    parser.add_argument("--opponent", metavar="CMD", required=True,
                        help="opponent engine, a command line, e.g. stockfish")
    parser.add_argument("--opponent-protocol", choices=("uci", "xboard"), default="uci")
    parser.add_argument("--opponent-option", metavar="NAME=VALUE", type=engine_option,
                        action="append", default=[],
                        help='opponent option (repeatable), e.g. "Skill Level=5"')
    parser.add_argument("--opponent-name", help="name in the PGN (default: what the engine says)")
    parser.add_argument("--games", type=positive_int, default=10,
                        help="number of games; each start position is played twice (default 10)")
    limits = parser.add_argument_group(
        "limits", "Each side plays by its own limit (--engine-*, --opponent-*) if it has one, "
        "else by the shared one (--tc, --movetime, --nodes, --depth); every side needs one. "
        "A limit is a clock, a time a move or a node budget, with a depth or not, or a depth "
        "alone.")
    limits.add_argument("--tc", type=time_control, metavar="BASE+INC",
                        help="time control in seconds per side, e.g. 2+0.1")
    limits.add_argument("--movetime", type=positive_seconds, metavar="SECONDS",
                        help="a fixed time a move, e.g. 1")
    limits.add_argument("--nodes", type=positive_int, help="node budget per move")
    limits.add_argument("--depth", type=positive_int, help="depth limit per move")
    for role in ("engine", "opponent"):
        limits.add_argument("--%s-tc" % role, type=time_control, metavar="BASE+INC",
                            help="the %s's own time control" % role)
        limits.add_argument("--%s-movetime" % role, type=positive_seconds, metavar="SECONDS",
                            help="the %s's own time a move" % role)
        limits.add_argument("--%s-nodes" % role, type=positive_int, metavar="N",
                            help="the %s's own node budget per move" % role)
        limits.add_argument("--%s-depth" % role, type=positive_int, metavar="N",
                            help="the %s's own depth limit per move" % role)
    parser.add_argument("--time-margin", type=float, metavar="SECONDS",
                        help="a move may overstep its clock by this much (default %g), or its "
                             "time a move (default %g)" % (CLOCK_MARGIN, MOVETIME_MARGIN))
    parser.add_argument("--move-timeout", type=float, default=60.0, metavar="SECONDS",
                        help="for a side with neither clock nor time a move, a move taking "
                             "longer loses the game (default 60)")
    parser.add_argument("--start-timeout", type=positive_seconds, default=START_TIMEOUT,
                        metavar="SECONDS",
                        help="how long an engine may take to start and answer the UCI or "
                             "XBoard handshake, apart from any move's time (default %g: "
                             "MicroPython under load, or a Pico behind the bridge, can be "
                             "slow)" % START_TIMEOUT)
    parser.add_argument("--max-moves", type=positive_int, metavar="N",
                        help="score the game a draw after N moves by each side")
    parser.add_argument("--concurrency", type=positive_int, default=2,
                        help="games played at the same time (default 2)")
    parser.add_argument("--seed", type=int, help="seed for the start positions (default: random)")
    parser.add_argument("--pgn", metavar="FILE", help="write the games to this PGN file")
    parser.add_argument("--debug", action="store_true",
                        help="log every line sent to and read from the engines")
    return parser


# ------------------------------------------------------------------ engines


class EngineSpec:
    """How to start one side: command line, protocol, options, display name."""

    def __init__(self, command, protocol="uci", options=(), name=None, cwd=None, role="engine",
                 ponder=False, start_timeout=START_TIMEOUT):
        self.command = list(command)
        self.start_timeout = start_timeout
        self.ponder = ponder  # think on the opponent's time
        self.protocol = protocol
        self.options = dict(options)
        self.name = name
        self.cwd = cwd
        self.role = role  # "engine" or "opponent", for messages

    def __repr__(self):
        return "%s %r" % (self.role, shlex.join(self.command))


def default_engine_command(runtime=None, heap=None, protocol="uci"):
    """`micro960 uci` (or `xboard`) as run from this checkout, with
    --runtime/--heap if given."""
    command = [sys.executable, "-m", "host_tools", protocol]
    if runtime:
        command += ["--runtime", runtime]
    if heap:
        command += ["--heap", heap]
    return command


def resolve_command(command_line):
    """Split a command line; find a bare program name in /usr/games if not on PATH."""
    command = shlex.split(command_line)
    if command and "/" not in command[0] and not shutil.which(command[0]):
        for directory in GAME_DIRS:
            candidate = shutil.which(command[0], path=directory)
            if candidate:
                command[0] = candidate
                break
    return command


def supports_chess960(engine):
    """Whether a started engine can play Chess960, and if not, why not."""
    if isinstance(engine, chess.engine.UciProtocol):
        if "UCI_Chess960" in engine.options:
            return True, ""
        return False, "it has no UCI_Chess960 option"
    variants = str(engine.features.get("variants", "")).split(",")
    if "fischerandom" in variants:
        return True, ""
    return False, "its XBoard variants are %s, without fischerandom" % ",".join(variants)


class Player:
    """One running engine process; each game slot has two."""

    def __init__(self, spec):
        self.spec = spec
        self.transport = None
        self.engine = None
        self.broken = False  # crashed, stalled or confused: restart before the next game

    @property
    def name(self):
        if self.spec.name:
            return self.spec.name
        if self.engine is not None and self.engine.id.get("name"):
            return self.engine.id["name"]
        return Path(self.spec.command[0]).name

    async def start(self):
        """Start, initialise and configure the engine, or raise MatchError."""
        spec = self.spec
        protocol = chess.engine.UciProtocol if spec.protocol == "uci" else PatientXBoard
        if not spec.command:
            raise MatchError("the %s command line is empty" % spec.role)
        try:
            # A process group of its own: Ctrl-C stops the match, which then
            # quits the engines cleanly.
            self.transport, self.engine = await protocol.popen(
                spec.command, setpgrp=True, cwd=spec.cwd)
        except FileNotFoundError:
            raise MatchError("cannot start %r: command not found" % spec) from None
        except OSError as e:
            raise MatchError("cannot start %r: %s" % (spec, e.strerror or e)) from None
        if isinstance(self.engine, PatientXBoard):
            # python-chess's own XBoard wait a little longer than ours, so
            # that ours ends it with the message below.
            self.engine.start_timeout = spec.start_timeout + 5
        try:
            await asyncio.wait_for(self.engine.initialize(), spec.start_timeout)
            ok, why = supports_chess960(self.engine)
            if not ok:
                raise MatchError("%r (%s) cannot play Chess960: %s" % (spec, self.name, why))
            await self.engine.configure(spec.options)
        except asyncio.TimeoutError:
            self.kill()  # it did not answer: it is not asked to quit either
            raise MatchError("cannot start %r: no answer to the %s handshake in %g s "
                             "(--start-timeout)" % (spec, spec.protocol, spec.start_timeout)
                             ) from None
        except chess.engine.EngineError as e:
            await self.quit()
            raise MatchError("cannot start %r: %s" % (spec, e)) from None
        except MatchError:
            await self.quit()
            raise
        self.broken = False

    async def restart(self):
        await self.quit()
        await self.start()

    async def quit(self):
        if self.engine is None:
            return
        try:
            await asyncio.wait_for(self.engine.quit(), QUIT_TIMEOUT)
        except (asyncio.TimeoutError, chess.engine.EngineError):
            pass
        self.kill()

    def kill(self):
        """End the process if it is still running."""
        self.transport.close()
        self.engine = self.transport = None


# -------------------------------------------------------------------- games


class SideLimit:
    """How one side is limited each move: a clock (tc, BASE+INC seconds), a
    fixed time a move (movetime, seconds) or a node budget, and a depth with
    any of them or alone. One of the three at most: XBoard engines cannot
    combine a node budget with time, and a clock and a move time contradict."""

    KINDS = ("tc", "movetime", "nodes", "depth")

    def __init__(self, tc=None, movetime=None, nodes=None, depth=None):
        self.tc = tc
        self.movetime = movetime
        self.nodes = nodes
        self.depth = depth

    @classmethod
    def from_args(cls, args, prefix=""):
        """The limit in --tc/--movetime/--nodes/--depth (prefix ""), or in
        --engine-tc... (prefix "engine_"); None when none of them is given."""
        values = {kind: getattr(args, prefix + kind) for kind in cls.KINDS}
        if all(value is None for value in values.values()):
            return None
        given = [kind for kind in ("tc", "movetime", "nodes") if values[kind] is not None]
        if len(given) > 1:
            flags = ["--%s%s" % (prefix.replace("_", "-"), kind) for kind in given]
            raise MatchError("%s cannot go together: a side plays by a clock, a time a move "
                             "or a node budget (XBoard engines cannot mix nodes with time), "
                             "with a depth or not" % " and ".join(flags))
        return cls(**values)

    def for_move(self, clocks, increments, clock_id):
        """The python-chess Limit of one move (UCI `go ...`, XBoard `st`,
        `level` ...); `clocks` and `increments` by colour, None for a side
        without a clock."""
        if self.tc is None:
            return chess.engine.Limit(time=self.movetime, nodes=self.nodes, depth=self.depth)
        return chess.engine.Limit(
            white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
            white_inc=increments[chess.WHITE], black_inc=increments[chess.BLACK],
            depth=self.depth, clock_id=clock_id)

    def describe(self):
        """'2+0.1', '1 s a move', '8000 nodes', '2+0.1, depth 5' ..."""
        parts = []
        if self.tc is not None:
            parts.append(self.time_control_tag())
        if self.movetime is not None:
            parts.append("%s s a move" % plain_number(self.movetime))
        if self.nodes is not None:
            parts.append("%d nodes" % self.nodes)
        if self.depth is not None:
            parts.append("depth %d" % self.depth)
        return ", ".join(parts)

    def time_control_tag(self):
        """PGN TimeControl: 'BASE+INC' in seconds, '-' (none) for node and
        depth limits, None for a time a move, which PGN has no form for."""
        if self.tc is not None:
            return "%s+%s" % (plain_number(self.tc[0]), plain_number(self.tc[1]))
        return None if self.movetime is not None else "-"

    def __eq__(self, other):
        return isinstance(other, SideLimit) and self.describe() == other.describe()


class Settings:
    """What every game shares: each side's limit, the caps, and the PGN tags
    that describe them."""

    def __init__(self, engine_limit, opponent_limit=None, max_moves=None,
                 time_margin=None, move_timeout=60.0):
        opponent_limit = engine_limit if opponent_limit is None else opponent_limit
        self.limits = {"engine": engine_limit, "opponent": opponent_limit}
        self.max_moves = max_moves
        # How far a move may overstep: its clock (whose reserve absorbs the
        # host's delays), or its time a move, which has no reserve: the time
        # measured here includes python-chess's round trips (a game's first
        # move also ucinewgame/isready) and a loaded machine's delays, over
        # 0.5 s at times on two busy cores; that forfeit is for an engine ignoring
        # its limit.
        self.time_margin = CLOCK_MARGIN if time_margin is None else time_margin
        self.movetime_margin = MOVETIME_MARGIN if time_margin is None else time_margin
        self.move_timeout = move_timeout

    @classmethod
    def from_args(cls, args):
        """Each side's limit: its own (--engine-*, --opponent-*) if it has
        one, else the shared one (--tc, --movetime, --nodes, --depth)."""
        shared = SideLimit.from_args(args)
        engine = SideLimit.from_args(args, "engine_")
        opponent = SideLimit.from_args(args, "opponent_")
        if engine is not None and opponent is not None and shared is not None:
            raise MatchError("%s applies to neither side: both have their own limits "
                             "(--engine-... and --opponent-...)" % shared_flags(args))
        if shared is None and engine is None and opponent is None:
            raise MatchError("give a limit: --tc BASE+INC, --movetime S, --nodes N or --depth N "
                             "for both sides, or each side its own (--engine-nodes N, "
                             "--opponent-movetime S ...)")
        for role, own in (("engine", engine), ("opponent", opponent)):
            if own is None and shared is None:
                raise MatchError(
                    "the %s has no limit: give it --%s-tc, --%s-movetime, --%s-nodes or "
                    "--%s-depth, or both sides --tc, --movetime, --nodes or --depth"
                    % ((role,) * 5))
        return cls(engine or shared, opponent or shared, args.max_moves,
                   args.time_margin, args.move_timeout)

    @property
    def shared(self):
        """Whether both sides play by the same limit."""
        return self.limits["engine"] == self.limits["opponent"]

    def limit_of(self, player):
        return self.limits[player.spec.role]

    def describe(self, engine_name=None, opponent_name=None):
        """The shared limit ('2+0.1', '8000 nodes'), or each side's: '16000
        nodes vs 1 s a move', with the names if given: 'A (16000 nodes) vs
        B (1 s a move)'."""
        engine, opponent = self.limits["engine"].describe(), self.limits["opponent"].describe()
        if self.shared:
            return engine
        if engine_name is None:
            return "%s vs %s" % (engine, opponent)
        return "%s (%s) vs %s (%s)" % (engine_name, engine, opponent_name, opponent)

    def time_control_tag(self):
        """PGN TimeControl: the sides' common one, else '?' (it differs, or
        is a time a move)."""
        tags = set(limit.time_control_tag() for limit in self.limits.values())
        return tags.pop() if len(tags) == 1 and None not in tags else "?"


def shared_flags(args):
    return " and ".join("--" + kind for kind in SideLimit.KINDS if getattr(args, kind) is not None)


def plain_number(x):
    """2.0 -> '2', 0.1 -> '0.1'."""
    return ("%.3f" % x).rstrip("0").rstrip(".")


class Game:
    """One scheduled game and, once played, its outcome."""

    def __init__(self, number, sp, engine_white):
        self.number = number
        self.sp = sp
        self.engine_white = engine_white
        self.result = None  # "1-0", "0-1", "1/2-1/2"
        self.termination = None  # PGN Termination: normal, time forfeit, ...
        self.reason = None  # words: "White mates", "Black loses on time" ...
        self.pgn = None  # chess.pgn.Game
        self.ponder_hits = self.ponder_tries = 0  # the opponent played the expected reply

    def engine_points(self):
        """1, 0.5 or 0 for the engine under test."""
        if self.result == "1/2-1/2":
            return 0.5
        return 1.0 if (self.result == "1-0") == self.engine_white else 0.0


def schedule(games, seed):
    """The games in order: SPs drawn without repeats (while there are SPs left),
    each played twice, the engine White first, then Black.

    >>> [(g.number, g.sp, g.engine_white) for g in schedule(4, 1)]
    [(1, 137, True), (2, 137, False), (3, 582, True), (4, 582, False)]
    """
    rng = random.Random(seed)
    pairs = (games + 1) // 2
    sps = []
    while len(sps) < pairs:
        sps += rng.sample(range(960), min(960, pairs - len(sps)))
    order = []
    for sp in sps:
        for engine_white in (True, False):
            if len(order) < games:
                order.append(Game(len(order) + 1, sp, engine_white))
    return order


RULE_REASONS = {
    chess.Termination.STALEMATE: "stalemate",
    chess.Termination.INSUFFICIENT_MATERIAL: "insufficient material",
    chess.Termination.SEVENTYFIVE_MOVES: "75-move rule",
    chess.Termination.FIVEFOLD_REPETITION: "fivefold repetition",
    chess.Termination.FIFTY_MOVES: "50-move rule",
    chess.Termination.THREEFOLD_REPETITION: "threefold repetition",
}


def colour_name(colour):
    return "White" if colour == chess.WHITE else "Black"


def result_by_rules(board, max_moves):
    """(result, termination, reason) when the game is over, else None."""
    outcome = board.outcome(claim_draw=True)
    if outcome is not None:
        if outcome.termination == chess.Termination.CHECKMATE:
            reason = "%s mates" % colour_name(outcome.winner)
        else:
            reason = RULE_REASONS.get(outcome.termination, outcome.termination.name.lower())
        return outcome.result(), "normal", reason
    if max_moves and len(board.move_stack) >= 2 * max_moves:
        return "1/2-1/2", "adjudication", "draw after %d moves (--max-moves)" % max_moves
    return None


def forfeit(board, side, termination, reason):
    """(result, termination, reason): `side` loses, except that running out of
    time against a side that cannot possibly mate is a draw."""
    if termination == "time forfeit" and board.has_insufficient_material(not side):
        return "1/2-1/2", termination, reason + "; %s cannot mate" % colour_name(not side)
    return ("0-1" if side == chess.WHITE else "1-0"), termination, reason


def move_comment(played, seconds):
    """'+0.35/12 0.104s' (score from the mover's side, depth, time used)."""
    words = []
    score = played.info.get("score")
    if score is not None:
        relative = score.relative
        if relative.is_mate():
            text = "%sM%d" % ("+" if relative.mate() > 0 else "-", abs(relative.mate()))
        else:
            text = "%+.2f" % (relative.score() / 100.0)
        if played.info.get("depth"):
            text += "/%d" % played.info["depth"]
        words.append(text)
    words.append("%.3fs" % seconds)
    return " ".join(words)


def exit_status(player):
    """'exit code 3', 'killed by signal 9' or 'exited' for a dead engine."""
    code = player.transport.get_returncode() if player.transport else None
    if code is None:
        return "exited"
    if code < 0:
        return "killed by signal %d" % -code
    return "exit code %d" % code


async def play_move(player, board, limit, game_number, timeout):
    """The engine's PlayResult, or (termination, reason) when it forfeits the game."""
    side = colour_name(board.turn)
    try:
        played = await asyncio.wait_for(
            player.engine.play(board, limit, game=game_number, info=INFO,
                               ponder=player.spec.ponder), timeout)
    except asyncio.TimeoutError:
        player.broken = True
        return "time forfeit", "%s loses on time (no move in %.2f s)" % (side, timeout)
    except chess.engine.EngineTerminatedError:
        player.broken = True
        return "abandoned", "%s's engine crashed (%s)" % (side, exit_status(player))
    except chess.engine.EngineError as e:
        player.broken = True  # protocol state unknown: start afresh
        if isinstance(e.__context__, ValueError):  # python-chess could not parse or play it
            return "rules infraction", "%s sent an illegal move (%s)" % (side, e)
        return "rules infraction", "%s's engine failed (%s)" % (side, e)
    if played.resigned:
        return "normal", "%s resigns" % side
    if played.move is None or not board.is_legal(played.move):
        player.broken = True
        return "rules infraction", "%s sent no legal move (%s)" % (side, played.move)
    return played


async def play_game(game, white, black, settings):
    """Play `game` between two started Players; fills in game.result and game.pgn."""
    board = chess.Board.from_chess960_pos(game.sp)
    pgn = chess.pgn.Game()
    # Not pgn.setup(board): it leaves out SetUp and FEN for SP 518.
    pgn.headers["Variant"] = "Chess960"
    pgn.headers["SetUp"] = "1"
    pgn.headers["FEN"] = board.fen()
    node = pgn
    expected = None  # the reply a pondering engine expects, until it is to move again
    players = {chess.WHITE: white, chess.BLACK: black}
    limits = {colour: settings.limit_of(player) for colour, player in players.items()}
    # Each side with a clock of its own (--tc, or its own --engine-tc ...);
    # None for a side limited by move time, nodes or depth.
    clocks = {colour: limit.tc[0] if limit.tc else None for colour, limit in limits.items()}
    increments = {colour: limit.tc[1] if limit.tc else None for colour, limit in limits.items()}
    while True:
        ending = result_by_rules(board, settings.max_moves)
        if ending:
            break
        side = board.turn
        player, limit = players[side], limits[side]
        if limit.tc is not None:
            timeout = max(0.0, clocks[side]) + settings.time_margin
        elif limit.movetime is not None:
            timeout = limit.movetime + settings.movetime_margin
        else:
            timeout = settings.move_timeout
        if player.spec.ponder and expected is not None:  # it pondered on `expected`
            game.ponder_tries += 1
            game.ponder_hits += board.peek() == expected
            expected = None
        started = time.monotonic()
        played = await play_move(player, board, limit.for_move(clocks, increments, game.number),
                                 game.number, timeout)
        seconds = time.monotonic() - started
        if isinstance(played, tuple):
            ending = forfeit(board, side, *played)
            break
        if limit.tc is not None:
            clocks[side] -= seconds
            if clocks[side] < -settings.time_margin:
                ending = forfeit(board, side, "time forfeit",
                                 "%s loses on time" % colour_name(side))
                break
            clocks[side] += increments[side]
        node = node.add_variation(played.move, comment=move_comment(played, seconds))
        if player.spec.ponder:
            expected = played.ponder
        board.push(played.move)
    game.result, game.termination, game.reason = ending
    pgn.headers["Result"] = game.result
    pgn.headers["Termination"] = game.termination
    if node is pgn:
        pgn.comment = game.reason
    else:
        node.comment = (node.comment + ", " if node.comment else "") + game.reason
    game.pgn = pgn
    return game


# -------------------------------------------------------------------- match


class Match:
    """A match in progress: the schedule, the slots' engines, the score, the output."""

    def __init__(self, engine_spec, opponent_spec, settings, games, concurrency=2,
                 seed=None, pgn_path=None, out=None):
        self.engine_spec = engine_spec
        self.opponent_spec = opponent_spec
        self.settings = settings
        self.seed = random.randrange(1 << 32) if seed is None else seed
        self.games = schedule(games, self.seed)
        self.concurrency = max(1, min(concurrency, len(self.games)))
        self.pgn_path = pgn_path
        self.out = out or sys.stdout
        self.finished = []  # in the order they finished
        self.engine_name = self.opponent_name = None
        self.error = None  # a MatchError that stopped the match early
        self._unwritten = {}  # number -> finished game not yet in the PGN file
        self._next_to_write = 1

    def say(self, line):
        self.out.write(line + "\n")
        self.out.flush()

    async def run(self):
        slots = [(Player(self.engine_spec), Player(self.opponent_spec))
                 for _ in range(self.concurrency)]
        try:
            results = await asyncio.gather(
                *(player.start() for slot in slots for player in slot), return_exceptions=True)
            for result in results:
                if isinstance(result, BaseException):
                    raise result
            self.name_players(*slots[0])
            if self.pgn_path:
                Path(self.pgn_path).write_text("")
            self.say("%s vs %s: %d games, %s, seed %d, %d at a time" % (
                self.engine_name, self.opponent_name, len(self.games),
                self.settings.describe(), self.seed, self.concurrency))
            queue = collections.deque(self.games)
            await asyncio.gather(*(self.play_slot(slot, queue) for slot in slots))
        finally:
            await asyncio.gather(*(player.quit() for slot in slots for player in slot),
                                 return_exceptions=True)

    def name_players(self, engine, opponent):
        self.engine_name, self.opponent_name = engine.name, opponent.name
        if self.engine_name == self.opponent_name:
            self.engine_name += " (engine)"
            self.opponent_name += " (opponent)"

    async def play_slot(self, slot, queue):
        engine, opponent = slot
        while queue and self.error is None:
            game = queue.popleft()
            white, black = (engine, opponent) if game.engine_white else (opponent, engine)
            await play_game(game, white, black, self.settings)
            self.finish(game)
            for player in slot:
                if player.broken and queue:
                    try:
                        await player.restart()
                    except MatchError as e:
                        self.error = self.error or e
                        return

    def finish(self, game):
        names = (self.engine_name, self.opponent_name)
        white, black = names if game.engine_white else names[::-1]
        game.pgn.headers["Event"] = "micro960 match, %s" % self.settings.describe(*names)
        game.pgn.headers["Site"] = "?"
        game.pgn.headers["Date"] = datetime.date.today().strftime("%Y.%m.%d")
        game.pgn.headers["Round"] = str(game.number)
        game.pgn.headers["White"] = white
        game.pgn.headers["Black"] = black
        game.pgn.headers["TimeControl"] = self.settings.time_control_tag()
        if not self.settings.shared:  # each side's own limit, by colour
            engine, opponent = (self.settings.limits[role].describe()
                                for role in ("engine", "opponent"))
            game.pgn.headers["WhiteLimit"], game.pgn.headers["BlackLimit"] = (
                (engine, opponent) if game.engine_white else (opponent, engine))
        self.finished.append(game)
        wins, draws, losses = self.score()
        self.say("game %d/%d  SP %d  %s - %s  %s  %s  score +%d =%d -%d (%s/%d)" % (
            game.number, len(self.games), game.sp, white, black, game.result, game.reason,
            wins, draws, losses, plain_number(wins + 0.5 * draws), len(self.finished)))
        self.write_pgn(game)

    def write_pgn(self, game):
        """Append games to the PGN file in game order, as soon as their turn comes."""
        if not self.pgn_path:
            return
        self._unwritten[game.number] = game
        with open(self.pgn_path, "a") as pgn_file:
            while self._next_to_write in self._unwritten:
                ready = self._unwritten.pop(self._next_to_write)
                pgn_file.write(str(ready.pgn) + "\n\n")
                self._next_to_write += 1

    def flush_pgn(self):
        """After an early stop: write the finished games still waiting for a gap to fill."""
        if self.pgn_path and self._unwritten:
            with open(self.pgn_path, "a") as pgn_file:
                for number in sorted(self._unwritten):
                    pgn_file.write(str(self._unwritten.pop(number).pgn) + "\n\n")

    def score(self):
        """(wins, draws, losses) of the engine under test so far."""
        points = [game.engine_points() for game in self.finished]
        return points.count(1.0), points.count(0.5), points.count(0.0)

    def summary(self):
        wins, draws, losses = self.score()
        played = wins + draws + losses
        percent = 100.0 * (wins + 0.5 * draws) / played if played else 0.0
        lines = [
            "Score of %s vs %s: %s, %s, %s; %s/%d (%.1f%%)" % (
                self.engine_name, self.opponent_name, plural(wins, "win"),
                plural(draws, "draw"), plural(losses, "loss"),
                plain_number(wins + 0.5 * draws), played, percent),
            "Elo difference (95%% confidence): %s" % elo.format_elo(wins, draws, losses),
        ]
        if self.engine_spec.ponder:
            hits = sum(game.ponder_hits for game in self.finished)
            tries = sum(game.ponder_tries for game in self.finished)
            lines.insert(0, "Ponder hits of %s: %d of %d replies (%.0f%%)" % (
                self.engine_name, hits, tries, 100.0 * hits / tries if tries else 0.0))
        return lines


def plural(count, word):
    return "%d %s" % (count, word if count == 1 else word + ("es" if word.endswith("s") else "s"))


def build_match(args, out=None):
    """A Match from parsed `micro960 match` arguments."""
    if args.engine:
        if args.runtime or args.heap:
            raise MatchError("--runtime and --heap apply only to the default engine, not --engine")
        engine_command, engine_cwd = resolve_command(args.engine), None
    else:
        engine_command = default_engine_command(args.runtime, args.heap, args.engine_protocol)
        engine_cwd = str(REPO)
    if args.ponder and args.engine_protocol != "uci":
        raise MatchError("--ponder needs a UCI engine (--engine-protocol uci)")
    engine = EngineSpec(engine_command, args.engine_protocol, args.engine_option,
                        args.engine_name, engine_cwd, role="engine", ponder=args.ponder,
                        start_timeout=args.start_timeout)
    opponent = EngineSpec(resolve_command(args.opponent), args.opponent_protocol,
                          args.opponent_option, args.opponent_name, role="opponent",
                          start_timeout=args.start_timeout)
    settings = Settings.from_args(args)
    return Match(engine, opponent, settings, args.games, args.concurrency, args.seed,
                 args.pgn, out)


def main(argv):
    """Run `micro960 match ARGS...`; the exit code."""
    args = build_parser().parse_args(argv)
    logging.basicConfig(format="%(name)s: %(message)s",
                        level=logging.DEBUG if args.debug else logging.ERROR)
    try:
        match = build_match(args)
    except MatchError as e:
        sys.stderr.write("micro960 match: %s\n" % e)
        return 2
    code = 0
    try:
        asyncio.run(match.run())
    except MatchError as e:
        sys.stderr.write("micro960 match: %s\n" % e)
        return 1
    except KeyboardInterrupt:
        sys.stderr.write("micro960 match: interrupted\n")
        code = 130
    match.flush_pgn()
    if match.error is not None:
        sys.stderr.write("micro960 match: stopped early: %s\n" % match.error)
        code = 1
    if match.engine_name is not None:
        for line in match.summary():
            match.say(line)
    if args.pgn:
        match.say("games written to %s" % args.pgn)
    return code
