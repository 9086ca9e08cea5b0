"""The UCI protocol, for chess GUIs, on stdin/stdout (and the device's serial port).

`stop`, `isready` and `quit` are answered while the engine searches: the
search polls the input every 16 nodes (search.CHECK_MASK) without blocking.
"""
from array import array

from micro960.compat import VERSION
from micro960.rules.history import RESERVED_PLIES, History
from micro960.rules.movegen import legal_moves, pseudo_moves
from micro960.rules.position import CLASSICAL_FEN, WHITE
from micro960.rules.variants import NAMES, Rules
from micro960.engine.search import MATE, MATE_BOUND, Limits, Search
from micro960.lines import LIMIT, clip, raw_end, text, write_line
from micro960.rules.ucimove import parse_uci, uci_text

try:  # two searches at once (engine/smp.py) where a second thread can run
    import _thread  # noqa: F401
    THREADS = 2
except ImportError:
    THREADS = 1

OPTIONS = (
    "option name Hash type spin default 0 min 0 max 1024",
    "option name UCI_Chess960 type check default false",
    # The rule set: "chess" follows UCI_Chess960 (classical or chess960).
    "option name UCI_Variant type combo default chess var chess var chess960 var classical"
    " var double960 var shuffle var chess480 var transcendental var lrs",
    "option name Skill Level type spin default 20 min 0 max 20",
    "option name UCI_LimitStrength type check default false",
    # The ratings engine/levels.py plays (its LOWEST and HIGHEST), measured.
    "option name UCI_Elo type spin default 1900 min 1100 max 1900",
    "option name Move Overhead type spin default 30 min 0 max 5000",
    "option name Threads type spin default 1 min 1 max %d" % THREADS,
    # The GUI decides when to ponder (go ponder, ponderhit): the option only says we can.
    "option name Ponder type check default false",
)

# Bytes of input line buffer to start with (see main): a `position fen ...
# moves ...` line for as many plies as the game keeps room for, five bytes a move.
LONG_LINE = 128 + 5 * RESERVED_PLIES

# Lines kept while searching, for after the search: a GUI sends a few at
# most; a flood (a paste, line noise) must not fill the heap mid-search.
MAX_PENDING = 8

GO_NUMBERS = ("depth", "nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo",
              "mate")
GO_CLOCKS = ("wtime", "btime", "winc", "binc")  # may be 0; the others must be 1 or more
# Times: whole milliseconds by the protocol, but a fraction from a client is read too.
GO_TIMES = GO_CLOCKS + ("movetime",)
GO_WORDS = GO_NUMBERS + ("infinite", "ponder", "searchmoves")
NOT_PONDERING = "info string ponderhit: this search is not pondering; ignored"


class Uci:
    def __init__(self, reader, out=None, hash_kb=None):
        self.reader = reader
        self.out = out or write_line
        self.game = History("classical", CLASSICAL_FEN)  # all UCI needs of a game
        # After the game: a table sized by the free heap (hash_kb None,
        # tt.default_kb()) leaves the game's buffers their room.
        self.search = Search(hash_kb)
        self.search.poll = self._poll
        self.search.on_info = self._info
        self.chess960 = False
        self.variant = None  # a rules/variants.py name from UCI_Variant; None follows UCI_Chess960
        self.skill = 20
        self.limit_strength = False
        self.elo = 1900
        self.setup = None  # the last position command's rules and FEN
        self.moves_key = 0  # and a key of its moves (see cmd_position)
        self.pending = []  # lines that arrived during a search, handled after it
        self.running = True
        self.searching = False
        self.refused = False  # the last position command was refused

    # ---------------------------------------------------------------- input

    def loop(self):
        while self.running:
            line = self.pending.pop(0) if self.pending else self.reader.readline()
            if line is None:
                break
            self.handle(line)

    def handle(self, line):
        # A line cut short must not pass for a shorter one: a `position`
        # line cut after a whole move would set up an earlier position.
        raw = not isinstance(line, str)  # a long line, handed over in the line buffer
        length = raw_end(line) if raw else len(line)
        limit = self.reader.limit if self.reader else LIMIT
        if length > limit:
            head = (text(line[:64]) if raw else line[:64]).split()
            if head and head[0] == "position":
                # Not read whole, so no position: a cut line could read as an
                # earlier one of the game, and the old position may not be
                # the GUI's, so `go` must not answer a move of it.
                self.refused = True
                self.out("info string position: line too long (more than %d characters); "
                         "refused: no position until the next good one" % limit)
            else:
                self.out("info string line too long (more than %d characters): ignored" % limit)
            return
        if raw:
            start, end = _word(line, 0, length)
            if end - start == 8 and line.startswith(b"position", start):
                self._position(line, end)
                return
            line = text(line)
        if "\t" in line:
            line = line.replace("\t", " ")
        start = 0
        while start < len(line) and line[start] == " ":
            start += 1
        end = line.find(" ", start)
        end = len(line) if end < 0 else end
        if start == end:
            return
        command = line[start:end]
        handler = COMMANDS.get(command)
        if handler is None:
            self.out("info string unknown command: %s" % clip(line))
        elif command == "position":
            self._position(line.encode(), end)
        else:
            try:
                handler(self, line[end:].split())
            except ValueError as e:
                self.out("info string %s: %s" % (command, e))

    def _position(self, line, at):
        # A long game's line is read where it lies, as bytes: split() would
        # make a string of every move, a burden on a small heap.
        try:
            self.cmd_position(line, at)
            self.refused = False
        except ValueError as e:
            # Until a good position comes, `go` has none to search: a move of
            # the old one could be illegal in the position the GUI meant.
            self.refused = True
            self.out("info string position: %s" % e)

    def _poll(self):
        """Called by the search: True to stop it."""
        line = self.reader.poll()
        if line is None:
            return False
        line = text(line)  # a string of its own, to queue: the raw buffer is reused
        command = line.strip()
        if command == "isready":
            self.out("readyok")
        elif command == "stop":
            return True
        elif command == "quit":
            self.running = False
            return True
        elif command == "ponderhit":
            if self.search.limits.ponder:
                self.search.ponderhit()
            else:
                self.out(NOT_PONDERING)
        elif not command:
            pass
        else:
            self._queue(line)
        return False

    def _queue(self, line):
        """Queue a line that came during a search for after it, if there is room."""
        if len(self.pending) < MAX_PENDING:
            self.pending.append(line)
        else:
            self.out("info string searching, and %d lines wait already: %s ignored"
                     % (MAX_PENDING, clip(line)))

    # ------------------------------------------------------------- commands

    def cmd_uci(self, args):
        self.out("id name micro960 %s" % VERSION)
        self.out("id author the micro960 developers")
        for option in OPTIONS:
            self.out(option)
            if option.startswith("option name Hash "):
                # The table as it is: by default sized from the free heap, and
                # a GUI that sends every default back then changes nothing.
                self.out("option name HashKB type spin default %d min 1 max 1048576"
                         % self.search.tt.kb)
        self.out("uciok")

    def cmd_isready(self, args):
        self.out("readyok")

    def cmd_setoption(self, args):
        if not args or args[0] != "name":
            raise ValueError("expected: setoption name NAME [value VALUE]")
        if "value" in args:
            cut = args.index("value")
            name, value = " ".join(args[1:cut]), " ".join(args[cut + 1:])
        else:
            name, value = " ".join(args[1:]), ""
        key = name.lower()
        if key == "hash":
            if _number(value, 0, 1024):
                self._resize(_number(value, 0, 1024) * 1024)
        elif key == "hashkb":
            self._resize(_number(value, 1, 1048576))
        elif key == "uci_chess960":
            self.chess960 = _flag(value)
        elif key == "uci_variant":
            name = value.lower()
            if name != "chess" and name not in NAMES:
                raise ValueError("unknown variant %r; choose one of chess, %s"
                                 % (value, ", ".join(NAMES)))
            self.variant = None if name == "chess" else name
        elif key == "skill level":
            self.skill = _number(value, 0, 20)
        elif key == "uci_limitstrength":
            self.limit_strength = _flag(value)
        elif key == "uci_elo":
            self.elo = _number(value, 1100, 1900)
        elif key == "move overhead":
            self.search.move_overhead = _number(value, 0, 5000)
        elif key == "threads":
            self.search.set_threads(_number(value, 1, THREADS))
        elif key == "ponder":
            _flag(value)
        else:
            raise ValueError("no option named %r" % name)

    def _resize(self, kb):
        try:
            self.search.tt.resize(kb)
        except MemoryError:
            self.search.tt.resize()
            self.out("info string not enough memory for %d KB of hash; using %d KB"
                     % (kb, self.search.tt.kb))

    def cmd_ucinewgame(self, args):
        self.search.tt.clear()
        self._fresh_game("classical", CLASSICAL_FEN)  # the same object: no new buffers
        self.setup = None  # the next position is set up from scratch
        self.refused = False

    def cmd_position(self, line, at=0):
        """`position startpos|fen FEN [moves ...]`: the words of `line` (bytes,
        to a "\n" if there is one) from index `at` on."""
        n = raw_end(line)
        first, after = _word(line, at, n)
        cut = _find_word(line, b"moves", after, n)  # where the moves begin, or n
        more = _word(line, after, n)[0] < cut
        if after - first == 8 and line.startswith(b"startpos", first) and not more:
            fen = CLASSICAL_FEN
        elif after - first == 3 and line.startswith(b"fen", first) and more:
            fen = _words_text(line, after, cut)
        elif first == n or first == cut:
            raise ValueError("expected: position startpos|fen FEN [moves ...]")
        else:
            raise ValueError("expected startpos or fen FEN, got %r" % _words_text(line, first, cut))
        rules = self.variant or ("chess960" if self.chess960 else "classical")
        setup = (rules, fen)
        game = self.game
        played = len(game.moves)
        # A GUI sends the whole game with every move. When it is the game we
        # have, a move or two on, only those are played: no replay, and no
        # new game object to cut up a small heap.
        moves_at = min(cut + 5, n)
        count, key, known, known_at = _moves_key(line, moves_at, n, played)
        same = setup == self.setup and count >= played and known == self.moves_key
        # What to go back to if a move is bad: the moves so far are kept in
        # place when the game goes on, else copied (the game's array is reused).
        kept = None
        if not same:
            try:
                kept = (game.rules.name, game.start_fen, array("H", game.moves))
            except MemoryError:  # a long game in a small heap: see below
                kept = ()
        try:
            number = played  # moves of the line already played
            if not same:
                number = 0
                game = self._fresh_game(rules, fen)
                known_at = moves_at
            start, end = _word(line, known_at, n)
            while start < n:
                number += 1
                try:
                    move = str(memoryview(line)[start:end], "ascii")
                    # The legal moves in the game's own buffer, not a new list.
                    legal = memoryview(game.buf)[:legal_moves(game.pos, game.buf, 0)]
                    game.push(parse_uci(game.pos, move, legal))
                except ValueError as e:
                    raise ValueError("move %d (%s): %s" % (number, move, e))
                except MemoryError:  # a long game in a small heap: refused like a bad move
                    raise ValueError("move %d: no memory left for a game this long" % number)
                start, end = _word(line, end, n)
        except ValueError as e:
            if kept is None:
                game.truncate(played)
            elif not number:
                pass  # the set-up was refused, and _fresh_game changed nothing
            elif kept:
                game = self._fresh_game(kept[0], kept[1])
                for move in kept[2]:
                    game.push(move)
            else:
                # No room was left to copy the old game: the new one stands
                # up to the bad move, and the GUI is told so.
                self.setup = None
                raise ValueError("%s; with no memory left to keep the previous game, the "
                                 "position is this line's before move %d" % (e, number))
            raise ValueError("%s; refused: no position until the next good one" % e)
        self.setup = setup
        self.moves_key = key

    def _fresh_game(self, rules, fen):
        """self.game, the same object, set up anew from `fen` under `rules`."""
        game = self.game
        old = game.rules
        if old.name != rules:
            game.rules = Rules(rules)
            game.rules.apply(game.pos)
        try:
            game.new(fen)  # raises ValueError before it changes anything
        except ValueError:
            game.rules = old
            old.apply(game.pos)
            raise
        return game

    def cmd_go(self, args):
        if self.refused:
            self.out("info string go: no position to search (the last position command was "
                     "refused)")
            self.out("bestmove 0000")
            return
        limits = self._limits(args)
        self.search.level = self.elo if self.limit_strength else self.skill
        self.searching = True
        try:
            move, score = self.search.think(self.game, limits)
        finally:
            self.searching = False
        listed = getattr(limits.generate, "listed", None)
        if listed and move not in list(listed):
            move = listed[0]  # stopped before a move was searched: one of the list
        if (limits.infinite or limits.ponder) and self.running and not self.search.stopped:
            self._wait_for_stop(limits)
        self.out("bestmove " + self._bestmove_text(move))

    def _bestmove_text(self, move):
        """The move, and the reply the search expects (`ponder`) if it has one."""
        if not move:
            return "0000"
        pos = self.game.pos
        text = uci_text(pos, move, self.chess960)
        line = self.search.pv(move, 2)
        if len(line) == 2:
            pos.push(move)
            text += " ponder " + uci_text(pos, line[1], self.chess960)
            pos.pop(move)
        return text

    def _limits(self, args):
        """The Limits of a go line. A number that cannot be meant (a depth of
        -5, a clock below zero) is said in an info string and read as the GUI
        most likely meant it; every go but infinite and ponder gets a finite
        budget."""
        limits = Limits()
        i = 0
        while i < len(args):
            word = args[i]
            if word in GO_NUMBERS and i + 1 < len(args):
                try:
                    value = _number(args[i + 1], -10 ** 9, 10 ** 9, word in GO_TIMES)
                    if value < 0 and word in ("wtime", "btime"):
                        value = 0  # past the flag: move at once
                        self.out("info string go %s %s: read as 0" % (word, args[i + 1]))
                    elif value < (0 if word in GO_CLOCKS else 1):
                        raise ValueError("%d is too small" % value)
                    setattr(limits, word, value)
                except ValueError as e:  # still search: a GUI waits for bestmove
                    self.out("info string go %s: %s; ignored" % (word, e))
                i += 2
            elif word in ("infinite", "ponder"):
                setattr(limits, word, True)
                i += 1
            elif word == "searchmoves":
                i = self._searchmoves(args, i + 1, limits)
            else:
                self.out("info string go: ignored %r" % word)
                i += 1
        own = limits.wtime if self.game.pos.side == WHITE else limits.btime
        if not (limits.infinite or limits.depth or limits.nodes or limits.movetime
                or limits.mate or own >= 0):
            limits.movetime = 1000
            self.out("info string go: no limit for the side to move; searching for one second")
        return limits

    def _searchmoves(self, args, i, limits):
        """The moves of `go searchmoves` from args[i] to the next go word, the
        only ones the root may play; a move that is not legal is named and
        left out, and with none left every move is searched. The index after."""
        game = self.game
        legal = memoryview(game.buf)[:legal_moves(game.pos, game.buf, 0)]
        listed = array("H")
        while i < len(args) and args[i] not in GO_WORDS:
            try:
                listed.append(parse_uci(game.pos, args[i], legal))  # twice does no harm
            except ValueError as e:
                self.out("info string go searchmoves %s: %s; left out" % (clip(args[i]), e))
            i += 1
        if listed:
            limits.generate = RootMoves(listed)
        else:
            self.out("info string go searchmoves: no legal move listed; searching all")
        return i

    def _wait_for_stop(self, limits):
        """`go infinite` must not answer before `stop`, even after a mate is
        found; `go ponder` not before `stop` or `ponderhit`."""
        while self.running:
            line = self.reader.readline()
            command = text(line).strip() if line is not None else "quit"
            if command in ("stop", "quit") or command == "ponderhit" and limits.ponder:
                self.running = command != "quit"
                return
            if command == "isready":
                self.out("readyok")
            elif command == "ponderhit":
                self.out(NOT_PONDERING)
            else:
                self._queue(text(line))

    def cmd_stop(self, args):
        self.out("info string stop: no search is running")

    def cmd_ponderhit(self, args):
        self.out("info string ponderhit: no search is running")

    def cmd_quit(self, args):
        self.running = False

    def cmd_debug(self, args):
        pass

    # --------------------------------------------------------------- output

    def _info(self, depth, seldepth, score, nodes, ms, pv):
        if abs(score) > MATE_BOUND:
            plies = MATE - abs(score)
            value = "mate %d" % ((plies + 1) // 2 if score > 0 else -((plies + 1) // 2))
        else:
            value = "cp %d" % score
        line = "info depth %d seldepth %d score %s nodes %d nps %d time %d hashfull %d pv" % (
            depth, max(depth, seldepth), value, nodes, nodes * 1000 // max(ms, 1), ms,
            self.search.tt.hashfull())
        pos = self.game.pos
        for move in pv:
            line += " " + uci_text(pos, move, self.chess960)
            pos.push(move)
        for move in reversed(pv):
            pos.pop(move)
        self.out(line)


COMMANDS = {
    "uci": Uci.cmd_uci, "isready": Uci.cmd_isready, "setoption": Uci.cmd_setoption,
    "ucinewgame": Uci.cmd_ucinewgame, "position": Uci.cmd_position, "go": Uci.cmd_go,
    "stop": Uci.cmd_stop, "ponderhit": Uci.cmd_ponderhit, "quit": Uci.cmd_quit,
    "debug": Uci.cmd_debug,
}


class RootMoves:
    """go searchmoves: the tree's move generator (Limits.generate) with the
    root's moves cut to those listed, an array("H") of legal moves."""

    def __init__(self, listed):
        self.listed = listed

    def __call__(self, pos, moves, start):
        end = pseudo_moves(pos, moves, start)
        if start:  # below the root: every move
            return end
        kept = 0
        listed = self.listed
        for i in range(end):
            move = moves[i]
            for j in range(len(listed)):
                if listed[j] == move:
                    moves[kept] = move
                    kept += 1
                    break
        return kept


def _number(text, low, high, fraction=False):
    """`text` as a whole number from low to high; with `fraction`, a number
    such as 1500.5 too, rounded."""
    try:
        value = round(float(text)) if fraction else int(text)
    except (ValueError, OverflowError):  # round() of NaN, of infinity
        raise ValueError("%r is not a %snumber" % (text, "" if fraction else "whole "))
    if not low <= value <= high:
        raise ValueError("%s is outside %d..%d" % (text, low, high))
    return value


def _flag(text):
    if text.lower() not in ("true", "false"):
        raise ValueError("expected true or false, got %r" % text)
    return text.lower() == "true"


def main(argv=None):
    """`micro960 uci`: a UCI engine on stdin/stdout."""
    from micro960.lines import StdinLines
    # The line buffer at the size of a long game's `position` line, made now
    # in one piece rather than doubled in a full heap later.
    engine = Uci(StdinLines(size=LONG_LINE, raw=True))
    engine.loop()
    return 0


def _word(line, i, n):
    """(start, end) of the first space-separated word of the bytes line[:n]
    at or after index i; (n, n) when there is none."""
    while i < n and line[i] == 32:
        i += 1
    end = line.find(b" ", i, n)
    return i, n if end < 0 else end


def _words_text(line, start, end):
    """The words of the bytes line[start:end] as a string, one space apart."""
    start = _word(line, start, end)[0]
    while end > start and line[end - 1] == 32:
        end -= 1
    words = str(memoryview(line)[start:end], "ascii")
    return " ".join(words.split()) if "  " in words else words


def _find_word(line, word, i, n):
    """The index of the first whole `word` in the bytes line[:n] at or after i, else n."""
    start, end = _word(line, i, n)
    while start < end:
        if end - start == len(word) and line.startswith(word, start):
            return start
        start, end = _word(line, end, n)
    return n


def _moves_key(line, i, n, prefix):
    """(number of words, key of them all, key of the first `prefix`, index
    where they end) for the words of the bytes line[i:n]: 24-bit keys of
    their text, to see that a GUI's list of moves begins with the moves of
    our game without keeping the text. (24 bits keep every step a small int
    on a 32-bit board.)"""
    count = 0
    key = 0
    known = 0 if prefix == 0 else -1
    known_at = i
    in_word = False
    for at in range(i, n):
        code = line[at]
        if code != 32:
            key = (key * 31 + code) & 0xFFFFFF
            in_word = True
        elif in_word:
            key = (key * 31 + 32) & 0xFFFFFF
            in_word = False
            count += 1
            if count == prefix:
                known = key
                known_at = at
    if in_word:
        key = (key * 31 + 32) & 0xFFFFFF
        count += 1
        if count == prefix:
            known = key
            known_at = n
    return count, key, known, known_at
