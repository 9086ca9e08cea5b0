"""The XBoard protocol (CECP version 2), for XBoard, WinBoard and other GUIs
that speak it, on stdin/stdout (and the device's serial port).

XBoard's variants map onto our rule sets: normal (classical), fischerandom
(chess960), wildcastle (shuffle: rooks in the corners, king on e or d), nocastle
(transcendental's rules: shuffled ranks, no castling); and by our own names,
chess480, double960 and lrs, which XBoard does not know. A position always
comes with setboard; an illegal move or command gets `Illegal move` or
`Error (...)` and changes nothing.

While the engine thinks it reads its input: `?` makes it move now; a command
that changes the game (new, force, undo, setboard, result ...) stops the
search without a move and is then carried out; ping and the rest wait for
the move. With `hard` the engine thinks on in the opponent's time (its
table keeps what it finds) until the opponent's move arrives; that
search, and analysis, go on through the commands that change neither
(ping is answered at once, as the protocol asks), so each of their
thinking lines is said once.

Time controls: XBoard keeps level, st, sd and nps until `new` and sends
them together whenever it changes one; python-chess sends only what each
of its Limits asks for (Limit(nodes=N) is `nps 1` and `st N`, a depth `sd
D`) and never takes one back. So the first of level, st, sd and nps after
the engine's move starts the limits afresh, and `sd` with no level or
`time` since the engine's last move is a depth to reach whatever the time.
"""

from micro960.compat import VERSION
from micro960.rules.game import UNDECIDED, Game
from micro960.lines import clip, write_line
from micro960.rules.notation import san_line
from micro960.rules.position import BLACK, CLASSICAL_FEN, WHITE
from micro960.rules.variants import Rules
from micro960.engine.search import MATE, MATE_BOUND, Limits, Search
from micro960.rules.ucimove import is_castle, move_to, uci_text

# XBoard's names first; then ours for the rule sets XBoard has no name for
# (other CECP GUIs may offer them; XBoard passes over names it does not know).
VARIANTS = {"normal": "classical", "fischerandom": "chess960", "wildcastle": "shuffle",
            "nocastle": "transcendental", "chess480": "chess480", "double960": "double960",
            "lrs": "lrs"}
FEATURES = ("feature ping=1 setboard=1 usermove=1 san=0 sigint=0 sigterm=0 time=1 draw=1 "
            "nps=1 analyze=1 playother=1 colors=0 memory=1 smp=1 reuse=1 myname=\"micro960 %s\" "
            "variants=\"normal,fischerandom,wildcastle,nocastle,chess480,double960,lrs\" "
            # The console's level: 0-20 (20 = full strength) or a rating of engine/levels.py.
            "option=\"Level -spin 20 0 1900\" done=1"
            % VERSION)
# What stops the engine's search without its move being played, to be carried out after.
STOPS = ("new", "force", "result", "undo", "remove", "setboard", "variant", "white", "black",
         "playother", "analyze", "edit", "quit")
# What pondering and analysis carry out at once, thinking on: it changes
# neither the game nor their search (the time control is for the engine's move).
SEARCH_ON = ("ping", "post", "nopost", "time", "otim", "level", "st", "sd", "nps", "hard",
             "draw", "?", ".")


class XBoard:
    def __init__(self, reader, out=None, hash_kb=None):
        self.reader = reader
        self.out = out or write_line
        self.search = Search(hash_kb)
        self.search.poll = self._poll
        self.search.on_info = self._info
        self.game = Game("classical", CLASSICAL_FEN)
        self.engine_side = BLACK  # the side the engine plays; None in force mode
        self.post = False
        self.ponder = False
        self.analyzing = False
        self.running = True
        self.pending = []  # lines that came during a search
        self.thinking = None  # "move", "ponder" or "analyze" while searching
        self.aborted = False  # a search stopped by a command: its move is not played
        self.moves_per_session = 0  # level: 0 for all the moves
        self.base_ms = 5 * 60000
        self.increment_ms = 0
        self.level_ply = 0  # the game's ply when level came: its moves count from there
        self.move_ms = 0  # st
        self.depth = 0  # sd
        self.nps = 0  # nps: time counted in nodes, this many a second (0: the clock's time)
        self.clock_ms = -1  # time: the engine's clock, as XBoard last said (-1: level's base)
        self.clock_told = False  # a level or time came since the engine's last move
        self.limits_used = False  # the engine moved since the last level, st, sd or nps
        self.score = None  # the engine's last score, for its side
        self.last_info = (0, 0, 0)  # depth, nodes, ms of the search running
        self.searched_out = None  # (key, plies) of the position analysed or pondered to the end

    # ---------------------------------------------------------------- input

    def loop(self):
        while self.running:
            line = self.pending.pop(0) if self.pending else self.reader.readline()
            if line is None:
                break
            self.handle(line)
            if self.running and not self.pending:
                self._think_on()

    def handle(self, line):
        words = line.split()
        if not words:
            return
        command = words[0]
        handler = COMMANDS.get(command)
        try:
            if handler:
                handler(self, words[1:])
            elif command in IGNORED:
                pass
            elif self._looks_like_move(command):
                self.user_move(command)  # protocol version 1 sends moves bare
            else:
                self.out("Error (unknown command): %s" % clip(line))
        except ValueError as e:
            self.out("Error (%s): %s" % (e, clip(line)))

    def _looks_like_move(self, word):
        """e2e4, Nf3, exd5, O-O: a move a version 1 GUI sends without usermove."""
        if word.startswith("O-O") or word.startswith("0-0"):
            return True
        return 2 <= len(word) <= 7 and word[0] in "abcdefghNBRQK" and \
            any(c in "12345678" for c in word)

    def _poll(self):
        """Called by the search: True to stop it."""
        line = self.reader.poll()
        if line is None:
            return False
        words = line.split()
        command = words[0] if words else ""
        if not command:
            return False
        if self.thinking == "move":
            if command == "?":
                return True
            self.pending.append(line)
            if command in STOPS:
                self.aborted = True
                return True
            return False
        if self.thinking != "hint" and not self.pending and (
                command in SEARCH_ON or command == "easy" and self.analyzing):
            self.handle(line)  # pondering and analysis think on
            return False
        self.pending.append(line)
        return True  # the rest after the search, in their order

    # ------------------------------------------------------------- commands

    def cmd_protover(self, args):
        self.out(FEATURES)

    def cmd_new(self, args):
        self._set_game(Rules("classical"), CLASSICAL_FEN)
        self.engine_side = BLACK
        self.move_ms = self.depth = self.nps = 0
        self.clock_ms = -1
        self.clock_told = self.limits_used = False
        self.score = None
        self.search.tt.clear()

    def cmd_variant(self, args):
        if not args or args[0] not in VARIANTS:
            raise ValueError("variant %s is not played; we play %s" % (
                args[0] if args else "", ", ".join(VARIANTS)))
        from micro960.rules.startpos import setup_fen
        rules = Rules(VARIANTS[args[0]])
        self._set_game(rules, setup_fen(rules))  # setboard follows with XBoard's own

    def cmd_setboard(self, args):
        try:
            self._set_game(self.game.rules, " ".join(args))
        except ValueError as e:
            self.out("tellusererror Illegal position: %s" % e)

    def _set_game(self, rules, fen):
        """A new game; the same object where the rules stay (a small heap is
        not cut up by a game a command). ValueError before anything changes."""
        if rules.name == self.game.rules.name:
            self.game.new(fen)
        else:
            self.game = Game(rules, fen)
        self.level_ply = 0

    def cmd_force(self, args):
        self.engine_side = None

    def cmd_go(self, args):
        self.engine_side = self.game.pos.side
        self.reply()

    def cmd_playother(self, args):
        self.engine_side = self.game.pos.side ^ (WHITE | BLACK)

    def cmd_white(self, args):  # protocol version 1: White to move, the engine Black
        self._to_move(WHITE)
        self.engine_side = BLACK

    def cmd_black(self, args):
        self._to_move(BLACK)
        self.engine_side = WHITE

    def _to_move(self, side):
        if self.game.pos.side != side:
            fields = self.game.pos.fen().split()
            fields[1] = "w" if side == WHITE else "b"
            fields[3] = "-"
            self._set_game(self.game.rules, " ".join(fields))

    def cmd_level(self, args):
        if len(args) != 3:
            raise ValueError("level needs moves, base and increment")
        minutes, _, seconds = args[1].partition(":")
        base = _ms(minutes, 60000) + (_ms(seconds, 1000) if seconds else 0)
        increment = _ms(args[2], 1000)
        moves = _number(args[0])  # all read before any is set
        self._new_limits()
        self.moves_per_session, self.base_ms, self.increment_ms = moves, base, increment
        # A level during a game gives the moves still to play and the time
        # left (the protocol's words): its moves count from here, and its
        # base is the engine's clock until `time` says otherwise.
        self.level_ply = len(self.game.moves)
        self.clock_ms = -1
        self.clock_told = True
        self.move_ms = 0

    def cmd_st(self, args):
        ms = _ms(args[0] if args else "", 1000)
        self._new_limits()
        self.move_ms = ms

    def cmd_nps(self, args):
        nps = _number(args[0] if args else "")
        self._new_limits()
        self.nps = nps

    def cmd_sd(self, args):
        depth = _number(args[0] if args else "")
        self._new_limits()
        self.depth = depth

    def _new_limits(self):
        """The first level, st, sd or nps after the engine's move ends the
        st, sd and nps before it: python-chess sends `nps 1` for one node
        limit and `sd` for one depth, XBoard all of them again together."""
        if self.limits_used:
            self.limits_used = False
            self.move_ms = self.depth = self.nps = 0

    def cmd_time(self, args):
        self.clock_ms = _ms(args[0] if args else "", 10)  # centiseconds
        self.clock_told = True

    def cmd_otim(self, args):
        _ms(args[0] if args else "", 10)

    def cmd_usermove(self, args):
        if len(args) != 1:
            raise ValueError("usermove needs one move")
        self.user_move(args[0])

    def user_move(self, text):
        game = self.game
        if game.result() != UNDECIDED:
            self.out("Illegal move (the game is over): %s" % text)
            return
        try:
            game.play(text.replace("0", "O") if text.startswith("0-0") else text)
        except ValueError:
            self.out("Illegal move: %s" % text)
            return
        if self._game_over():
            return
        self.reply()

    def cmd_question(self, args):
        pass  # `?` while not thinking: nothing to hurry

    def cmd_undo(self, args):
        self._take_back(1)

    def cmd_remove(self, args):
        self._take_back(2)

    def _take_back(self, plies):
        if len(self.game.moves) < plies:
            raise ValueError("no move to take back")
        for _ in range(plies):
            self.game.undo()

    def cmd_hint(self, args):
        if self.game.result() != UNDECIDED:
            return
        move = self._search("hint", Limits(depth=4, movetime=1000))[0]
        if move:
            self.out("Hint: %s" % self._move_text(move))

    def cmd_post(self, args):
        self.post = True

    def cmd_nopost(self, args):
        self.post = False

    def cmd_hard(self, args):
        self.ponder = True

    def cmd_easy(self, args):
        self.ponder = False

    def cmd_analyze(self, args):
        self.analyzing = True
        self.searched_out = None
        self.engine_side = None

    def cmd_status(self, args):
        """`.` in analysis: time (centiseconds), nodes and depth of the search."""
        if self.analyzing:
            depth, nodes, ms = self.last_info
            self.out("stat01: %d %d %d 0 0" % (ms // 10, nodes, depth))

    def cmd_exit(self, args):
        self.analyzing = False

    def cmd_result(self, args):
        self.engine_side = None  # the game is over: the engine waits for new

    def cmd_draw(self, args):
        """The opponent offers a draw: taken when the engine stands a pawn or more worse."""
        if self.score is not None and self.score <= -100 and \
                self.game.result() == UNDECIDED and self.game.rules.draw_claims:
            self.out("offer draw")

    def cmd_memory(self, args):
        megabytes = _number(args[0] if args else "")
        try:
            self.search.tt.resize(megabytes * 1024)
        except MemoryError:
            self.search.tt.resize()
            self.out("# not enough memory for %d MB of hash; using %d KB"
                     % (megabytes, self.search.tt.kb))

    def cmd_cores(self, args):
        """`cores N`: the engine searches on up to N threads: two at most
        (engine/smp.py), one where MicroPython has no second."""
        cores = _number(args[0] if args else "")
        try:
            self.search.set_threads(2 if cores >= 2 else 1)
        except ValueError as e:  # (a GUI does not ask twice: it plays on)
            self.out("# %s; searching on one thread" % e)

    def cmd_option(self, args):
        """`option Level=N`, the one option of the features: the level as
        the console's `level N` takes it."""
        name, _, value = " ".join(args).partition("=")
        if name != "Level":
            raise ValueError("no option named %r; the one option is Level" % name)
        from micro960.engine.levels import check
        self.search.level = check(_number(value))

    def cmd_ping(self, args):
        self.out("pong %s" % (args[0] if args else ""))

    def cmd_quit(self, args):
        self.running = False

    # ------------------------------------------------------------- thinking

    def reply(self):
        """If it is the engine's turn, think and play."""
        game = self.game
        if game.pos.side != self.engine_side or game.result() != UNDECIDED or self.analyzing:
            return
        limits = self._limits()
        self.limits_used = True
        self.clock_told = False
        move, score = self._search("move", limits)
        if self.aborted or not move:
            return
        self.score = score
        text = self._move_text(move)
        game.push(move)
        self.out("move " + text)
        self._game_over()

    def _think_on(self):
        """With nothing to do: analyse, or ponder in the opponent's time."""
        game = self.game
        if game.result() != UNDECIDED:
            return
        if self.analyzing:
            why = "analyze"
        elif self.ponder and self.engine_side == game.pos.side ^ (WHITE | BLACK):
            why = "ponder"
        else:
            return
        # Searched to the end already (a mate is found in no time, and the
        # depth has a limit): not again for every line the GUI sends.
        done = (game.pos.key, len(game.moves))
        if done != self.searched_out:
            self._search(why, Limits(infinite=True))
            if not self.search.stopped:
                self.searched_out = done

    def _search(self, why, limits):
        self.thinking = why
        self.aborted = False
        self.last_info = (0, 0, 0)
        search = self.search
        level = search.level
        if why == "analyze":  # an analysis asks for the whole engine, whatever its level
            search.level = 20  # (a level's depth cap would leave it silent, never done)
        try:
            return search.think(self.game, limits)
        finally:
            self.thinking = None
            search.level = level

    def _limits(self):
        """The limits of the engine's move: st's time or the clock's share,
        in nodes with nps, and sd's depth. sd with no level or time since
        the engine's last move (python-chess's Limit(depth=...)) is a depth
        to reach, whatever the time."""
        depth = self.depth
        clock = self.clock_ms if self.clock_ms >= 0 else self.base_ms
        if self.move_ms:
            ms = self.move_ms
        elif depth and not self.clock_told:
            return Limits(depth=depth)
        elif not clock and self.clock_ms < 0:
            # `level 20 0 0` and no time (python-chess's Limit(remaining_moves=20)):
            # no clock to share; the increment, or a second as UCI's go alone.
            ms = self.increment_ms or 1000
            self.out("# no time on the clock (level's base is 0): %d ms for this move" % ms)
        elif self.nps:
            ms = clock // (self._moves_to_go() or 30) + self.increment_ms
        else:
            limits = Limits(depth=depth, movestogo=self._moves_to_go())
            if self.game.pos.side == WHITE:
                limits.wtime, limits.winc = clock, self.increment_ms
            else:
                limits.btime, limits.binc = clock, self.increment_ms
            return limits
        if self.nps:
            # Time counted in nodes, nps of them a second.
            return Limits(depth=depth, nodes=max(1, ms * self.nps // 1000))
        return Limits(depth=depth, movetime=ms)

    def _moves_to_go(self):
        """The engine's moves to the next session of level's clock (0: all
        the game's), counted from the level: XBoard's level during a game
        gives the moves still to play, as python-chess's remaining_moves."""
        session = self.moves_per_session
        if not session:
            return 0
        played = max(0, len(self.game.moves) - self.level_ply) // 2
        return session - played % session

    def _game_over(self):
        """Say the result when the rules end the game; True if they do."""
        game = self.game
        result = game.result()
        if result == UNDECIDED:
            return False
        self.out("%s {%s}" % (result, game.reason()))
        return True

    def _move_text(self, move):
        """e2e4; castling as O-O / O-O-O where the king may start anywhere
        (XBoard's fischerandom), else as the king's two-square step."""
        pos = self.game.pos
        if is_castle(move) and self.game.rules.uci_chess960:
            return "O-O" if move_to(move) > pos.kings[pos.side >> 4] else "O-O-O"
        if is_castle(move):
            return uci_text(pos, move, False)
        return uci_text(pos, move, True)

    def _info(self, depth, seldepth, score, nodes, ms, pv):
        self.last_info = (depth, nodes, ms)
        # Not for a hint, nor an iteration cut short (its score is no result).
        if not self.post or self.thinking == "hint" or self.search.stopped:
            return
        if self.thinking == "ponder":
            score = -score  # the opponent is to move; XBoard's scores are the engine's
        if abs(score) > MATE_BOUND:  # XBoard's mate scores: 100000 + moves
            moves = (MATE - abs(score) + 1) // 2
            score = 100000 + moves if score > 0 else -100000 - moves
        self.out("%d %d %d %d %s" % (depth, score, ms // 10, nodes,
                                     " ".join(san_line(self.game.pos, pv))))


COMMANDS = {
    "protover": XBoard.cmd_protover, "new": XBoard.cmd_new, "variant": XBoard.cmd_variant,
    "setboard": XBoard.cmd_setboard, "force": XBoard.cmd_force, "go": XBoard.cmd_go,
    "playother": XBoard.cmd_playother, "white": XBoard.cmd_white, "black": XBoard.cmd_black,
    "level": XBoard.cmd_level, "st": XBoard.cmd_st, "nps": XBoard.cmd_nps, "sd": XBoard.cmd_sd,
    "time": XBoard.cmd_time, "otim": XBoard.cmd_otim, "usermove": XBoard.cmd_usermove,
    "?": XBoard.cmd_question, "undo": XBoard.cmd_undo, "remove": XBoard.cmd_remove,
    "hint": XBoard.cmd_hint, "post": XBoard.cmd_post, "nopost": XBoard.cmd_nopost,
    "hard": XBoard.cmd_hard, "easy": XBoard.cmd_easy, "analyze": XBoard.cmd_analyze,
    "exit": XBoard.cmd_exit, ".": XBoard.cmd_status, "result": XBoard.cmd_result,
    "draw": XBoard.cmd_draw,
    "memory": XBoard.cmd_memory, "cores": XBoard.cmd_cores, "option": XBoard.cmd_option,
    "ping": XBoard.cmd_ping,
    "quit": XBoard.cmd_quit,
}
# Commands that need no answer from an engine like this one.
IGNORED = ("xboard", "accepted", "rejected", "random", "computer", "name", "rating", "ics",
           "egtpath", "bk")


def _number(text):
    try:
        value = int(text)
    except ValueError:
        raise ValueError("%r is not a whole number" % text)
    if value < 0:
        raise ValueError("%d is below zero" % value)
    return value


def _ms(text, unit):
    """A time in milliseconds from `text` in units of `unit` ms (1000 for
    seconds): a fraction too, as clients send (python-chess: `st 0.5`)."""
    try:
        value = float(text) * unit
    except ValueError:
        raise ValueError("%r is not a number" % text)
    if not 0 <= value <= 10 ** 9:  # not NaN, not infinite: some 11 days at most
        raise ValueError("%s is not a time of 0 to 11 days" % text)
    return int(value + 0.5)


def main(argv=None):
    """`micro960 xboard`: an XBoard engine on stdin/stdout."""
    from micro960.lines import StdinLines
    engine = XBoard(StdinLines())
    engine.loop()
    return 0
