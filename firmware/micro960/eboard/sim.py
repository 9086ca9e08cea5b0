"""The sensor-board simulator, `micro960 eboard-sim`.

It reads physical events (`lift e1`, `place g1`, one a line) from a file or
standard input, feeds them to an EBoardGame as a board's scanner would, and
prints what the board would say: `move SAN`, `takeback SAN`, `error ...`,
`leds ...` with the engine on, and `fen X-FEN` at the end (during a set-up
phase, `setup not finished: ...`: the board so far, the pieces to come). With
--interactive it shows the board as the sensors see it after every line.
"""
import sys


class UsageError(ValueError):
    """The simulator's command line is wrong; `micro960 eboard-sim` exits with 2."""

SIM_HELP = """Events, one a line (# starts a comment):
  lift e1 / place g1     a piece leaves / is put on a square (several squares: lift e1 h1)
  snapshot FEN-BOARD     the whole board's occupancy, as a FEN board field (or 0x...)
  promote q|r|b|n        the piece for the next promotion (queen by default)
  wait                   time passes with the board still
  reply                  carry out the engine's lit move
  resign, draw, accept   resign; claim or offer a draw; accept one (two players)
  new                    the next game (the pieces set up again)
  Nf3, e1h1, O-O         a whole move, lifted and placed the usual way
  board, fen, help, quit"""


def main(args):
    """eboard-sim [--sp N | --fen FEN] [--rules NAME] [--engine on|off]
    [--color white|black] [--level 0-20|RATING] [--depth N] [--think-ms MS] [--empty]
    [--interactive] [--setup] [FILE]: a sensor board fed events; prints move,
    takeback, error (and with the engine, leds) lines, and `fen X-FEN` at the end
    (`setup not finished: ...` if the set-up phase is).
    --empty: the board starts empty and must be set up first. --setup: the
    back-rank pieces are placed in turn first (setup lines, `leds place`)."""
    options = {"--sp": None, "--rules": "chess960", "--engine": "off", "--level": "20",
               "--depth": "0", "--think-ms": "1000", "--color": "white", "--fen": None}
    interactive = False
    empty = False
    setup = False
    path = None
    args = list(args)
    while args:
        arg = args.pop(0)
        if arg == "--interactive":
            interactive = True
        elif arg == "--empty":
            empty = True
        elif arg == "--setup":
            setup = True
        elif arg in options:
            if not args:
                raise UsageError("%s needs a value" % arg)
            options[arg] = args.pop(0)
        elif arg.startswith("--") or path is not None:
            raise UsageError("eboard-sim: unknown argument %s" % arg)
        else:
            path = arg
    if options["--engine"] not in ("on", "off"):
        raise UsageError("--engine is on or off")
    if options["--color"] not in ("white", "black"):
        raise UsageError("--color is white or black")
    from micro960.rules.variants import Rules
    from micro960.rules.startpos import setup_numbers
    try:
        rules = Rules(options["--rules"].lower())
        numbers = setup_numbers(rules, options["--sp"].split()) if options["--sp"] else ()
    except ValueError as e:
        raise UsageError(str(e))
    engine = False
    if options["--engine"] == "on":
        engine = "black" if options["--color"] == "white" else "white"
    from micro960.eboard.game import EBoardGame
    sim = EBoardSim(interactive, engine)
    sim.setup = setup
    level = _number_option(options["--level"], "--level")
    sim.match = EBoardGame(rules, *numbers, engine=engine, level=level, out=sim.say,
                           think_ms=_number_option(options["--think-ms"], "--think-ms"),
                           depth=_number_option(options["--depth"], "--depth"),
                           fen=options["--fen"], occupied=0 if empty else None, settle_ms=None,
                           setup=setup)
    source = open(path) if path else sys.stdin
    if engine:
        sim.match.think()  # the engine may have the first move
    if interactive:
        print(SIM_HELP)
        sim.show()
    try:
        while sim.running:
            if interactive:
                sys.stdout.write("> ")
            line = source.readline()
            if not line:
                break
            sim.handle(line)
    finally:
        if path:
            source.close()
    sim.match.settle()
    sim.say_position()
    return 0


def _number_option(text, name):
    try:
        return int(text)
    except ValueError:
        raise ValueError("%s takes a number, not %r" % (name, text))


class EBoardSim:
    """Reads event lines for an EBoardGame (micro960 eboard-sim)."""

    def __init__(self, interactive, engine):
        self.interactive = interactive
        self.engine = engine
        self.running = True
        self.match = None
        self.setup = False  # a set-up phase first: its LEDs are its instructions

    def say(self, line):
        if self.engine or self.interactive or self.setup or not line.startswith("leds"):
            print(line)

    def say_position(self):
        """`fen X-FEN` of the game; during a set-up phase, which has no
        position yet, what stands on the board and what is still to place."""
        setting_up = self.match.setting_up
        print(setting_up.report() if setting_up else "fen " + self.match.game.pos.fen())

    def handle(self, line):
        from micro960.eboard.moves import parse_square64
        words = line.split("#")[0].split()
        if not words:
            return
        match = self.match
        word = words[0].lower()
        try:
            if word in ("lift", "place") and len(words) > 1:
                for name in words[1:]:
                    sq = parse_square64(name)
                    match.lift(sq) if word == "lift" else match.place(sq)
            elif word == "promote" and len(words) == 2:
                match.promote(words[1])
            elif word == "snapshot" and len(words) == 2:
                match.snapshot(parse_occupancy(words[1]))
            elif word == "wait":
                match.settle()
            elif word == "reply":
                self.reply()
            elif word == "fen":
                self.say_position()
            elif word == "board":
                self.show()
            elif word == "help":
                print(SIM_HELP)
            elif word == "quit":
                self.running = False
            elif word in match.TYPED and len(words) == 1:
                match.command(word)
            elif word == "think":
                pass  # the engine thinks after every line anyway
            elif word in NEEDS:
                raise ValueError("%s needs %s" % (word, NEEDS[word]))
            elif len(words) == 1:
                self.whole_move(words[0])
            else:
                raise ValueError("not an event: " + line.strip())
        except ValueError as e:
            print("error %s" % e)
        if self.engine:
            match.think()
        if self.interactive and word not in ("help", "board", "fen"):
            self.show()

    def whole_move(self, text):
        """A move typed in full: its pieces lifted and placed the usual way."""
        from micro960.rules.notation import parse_move
        match = self.match
        match.settle()
        if match.setting_up or match.board.setup:
            raise ValueError("set the board up first: a move counts once the game has begun")
        move = parse_move(match.game.pos, text, match.game.legal_moves())
        self.carry_out(move)

    def reply(self):
        if not self.match.expected:
            raise ValueError("no engine move to carry out")
        self.carry_out(self.match.expected)

    def carry_out(self, move):
        from micro960.eboard.moves import gesture
        match = self.match
        flag = move >> 12
        if flag >= 4:
            match.promote("nbrq"[flag - 4])
        for sq, placed in gesture(match.game.pos, move):
            match.place(sq) if placed else match.lift(sq)

    def show(self):
        for line in sim_board_lines(self.match):
            print(line)


def sim_board_lines(match):
    """The board in ASCII as the sensors see it: pieces of the game's position;
    `-` a piece that is up, `o` a piece where the position has none, and
    [x] a lit square."""
    from micro960.rules.position import PIECE_LETTERS, TO120, WHITE
    setting_up = match.setting_up
    pos = setting_up.view().pos if setting_up else match.game.pos
    physical = match.physical
    kind, lit = match.leds
    lines = []
    for rank in range(7, -1, -1):
        cells = ""
        for file in range(8):
            s = 8 * rank + file
            p = pos.board[TO120[s]]
            there = physical >> s & 1
            if p and there:
                glyph = PIECE_LETTERS[p & 7]
                glyph = glyph if p & WHITE else glyph.lower()
            elif p:
                glyph = "-"
            elif there:
                glyph = "o"
            else:
                glyph = "."
            cells += "[%s]" % glyph if lit >> s & 1 else " %s " % glyph
        lines.append("%d %s" % (rank + 1, cells))
    lines.append("   a  b  c  d  e  f  g  h")
    status = "White" if pos.side == WHITE else "Black"
    lines.append("%s to %s; leds %s" % (status, "place" if setting_up else "move", kind))
    return lines


# What an event word needs after it, when it comes alone or with too much.
NEEDS = {"lift": "a square or several, e.g. lift e2",
         "place": "a square or several, e.g. place e4",
         "promote": "one piece letter, e.g. promote n",
         "snapshot": "one board: a FEN board field or a 64-bit mask such as 0xFFFF00000000FFFF"}


def parse_occupancy(text):
    """A FEN board field (any letter is a piece) or an int (0x...) -> occupancy mask."""
    hexadecimal = text[:2].lower() == "0x"
    if hexadecimal or text.isdigit():
        digits = text[2:] if hexadecimal else text
        try:
            mask = int(digits, 16 if hexadecimal else 10)
        except ValueError:
            mask = -1
        if not 0 <= mask < 1 << 64 or not digits:
            raise ValueError("%s is not a mask of the 64 squares (a1 is bit 0, h8 bit 63; "
                             "at most 0xFFFFFFFFFFFFFFFF)" % text)
        return mask
    rows = text.split("/")
    if len(rows) != 8:
        raise ValueError("an occupancy has 8 ranks separated by /")
    mask = 0
    for i in range(8):
        file = 0
        for ch in rows[i]:
            if ch in "12345678":
                file += int(ch)
            else:
                if file < 8:
                    mask |= 1 << (8 * (7 - i) + file)
                file += 1
        if file != 8:
            raise ValueError("rank %d of the occupancy has %d squares" % (8 - i, file))
    return mask
