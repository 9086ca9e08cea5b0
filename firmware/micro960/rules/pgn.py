"""PGN out (Seven Tag Roster plus Chess960 tags) and in (replaying move by move).

Reading skips comments, NAGs, variations and move numbers; a file is read
line by line so a large archive fits a small heap. The `replay` command that
reads files is rules/replay.py's: a board that only writes its games at the end
of each (device/storage.py) does not hold its code.
"""
from micro960.rules.game import Game
from micro960.rules.variants import Rules

# Classical chess's start (startpos.start_fen("RNBQKBNR")): written here, so
# that writing a game's PGN at its end does not load rules/startpos.py as well.
CLASSICAL_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
SEVEN_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
# Variant tags as other programs spell them.
SPELLINGS = {"chess 960": "chess960", "fischerandom": "chess960", "fischerrandom": "chess960",
             "fischer random": "chess960", "frc": "chess960", "960": "chess960",
             "standard": "classical", "normal": "classical", "chess": "classical",
             "double chess960": "double960", "shuffle chess": "shuffle",
             "chess 480": "chess480", "transcendental chess": "transcendental",
             "lrs chess": "lrs", "from position": "chess960"}


def named(text):
    """Rules for a Variant tag: a rules/variants.py name or a common spelling of it."""
    name = text.strip().lower()
    return Rules(SPELLINGS.get(name, name))


def game_pgn(game, tags=None):
    """The game as PGN text, moves in our own SAN, wrapped at 80 columns."""
    return "\n".join(pgn_lines(game, tags)) + "\n"


def pgn_lines(game, tags=None):
    """The lines of game_pgn one at a time: the console and the archive write
    them so, and a long game's text is never needed whole on a small heap."""
    tags = dict(tags or {})
    result = game.result()
    values = {"Event": "micro960 game", "Site": "?", "Date": game.date or "????.??.??",
              "Round": "-", "White": "?", "Black": "?", "Result": result}
    values.update(_players(game.settings))
    values.update(tags)
    values["Result"] = result
    for name in SEVEN_TAGS:
        yield '[%s "%s"]' % (name, _escape(values.pop(name)))
    if game.rules.variant_tag:
        values["Variant"] = game.rules.variant_tag
    if game.start_fen.split()[:4] != CLASSICAL_FEN.split()[:4] or "Variant" in values:
        values["SetUp"] = "1"
        values["FEN"] = game.start_fen
    if game.clock and "TimeControl" not in values:
        values["TimeControl"] = game.clock.time_control_tag()
    if result != "*" and "Termination" not in values:
        values["Termination"] = game.reason()  # why: a flag, a claim, a resignation, ...
    for name in ("Variant", "SetUp", "FEN"):
        if name in values:
            yield '[%s "%s"]' % (name, _escape(values.pop(name)))
    for name in values:
        yield '[%s "%s"]' % (name, _escape(values[name]))
    yield ""
    for line in _wrap(_movetext(game)):
        yield line


def _players(settings):
    """White and Black as the console's settings (Console.keep) tell: the
    person and the engine at its level; none for two people."""
    words = settings.split()
    named = dict(zip(words[::2], words[1::2]))
    side = named.get("engine")
    if side not in ("white", "black"):
        return {}
    engine = "micro960 level " + named.get("level", "20")
    return {"White": engine, "Black": "Player"} if side == "white" else \
        {"White": "Player", "Black": engine}


def _escape(value):
    return str(value).replace("\\", "\\\\").replace('"', '\\"')


def _movetext(game):
    """The words of the move text, one at a time, each move's SAN made as it comes."""
    from micro960.rules.notation import san
    clock = game.clock
    number = int(game.start_fen.split()[5])
    white_first = game.start_fen.split()[1] == "w"
    last = ""  # the word before
    for i, (pos, move) in enumerate(game.replay()):
        white = (i % 2 == 0) == white_first
        if white:
            yield "%d." % number
        elif i == 0 or last.endswith("}"):  # after a comment, Black's move is numbered
            yield "%d..." % number
        last = san(pos, move)
        yield last
        if clock and 0 <= i - clock.first < len(clock.marks):
            seconds = max(0, clock.marks[i - clock.first]) // 1000
            last = "{[%%clk %d:%02d:%02d]}" % (seconds // 3600, seconds // 60 % 60, seconds % 60)
            yield last
        if not white:
            number += 1
    yield game.result()


def _wrap(words, width=80):
    """Lines of at most `width` columns (a longer word on a line of its own)."""
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            yield line
            line = word
        else:
            line = line + " " + word if line else word
    if line:
        yield line


class PgnReader:
    """Splits a stream of PGN lines into games of (tags, move tokens)."""

    def __init__(self):
        self.tags = {}
        self.tokens = []
        self.brace = False  # inside a { comment }
        self.depth = 0  # inside ( variations )
        self.in_moves = False

    def feed(self, line):
        """Take one line; return a finished (tags, tokens) game or None."""
        done = None
        stripped = line.strip()
        if not self.brace and stripped.startswith("%"):
            return None
        # A tag line ends the game before it, even one left inside an
        # unclosed comment or variation: that must not swallow the next game.
        tag = stripped.startswith("[") and stripped.endswith("]") and stripped[1:2].isalpha()
        if tag and (self.in_moves or self.brace or self.depth) or \
                not self.brace and self.depth == 0 and stripped.startswith("["):
            if self.in_moves or self.brace or self.depth:
                done = self.finish()
            self._tag(stripped)
            return done
        word = ""
        for ch in line:
            if self.brace:
                self.brace = ch != "}"
            elif ch == "{":
                self.brace = True
            elif ch == ";":
                break
            elif ch == "(":
                # A variation needs a move before it to vary from; a "(" with
                # none is passed over, as python-chess does.
                if self.depth or self.in_moves:
                    self.depth += 1
            elif ch == ")":
                self.depth = max(0, self.depth - 1)
            elif self.depth:
                continue
            elif ch in " \t\r\n.":
                if ch == "." and word and not word.isdigit():
                    word += ch
                    continue
                self._word(word)
                word = ""
                continue
            else:
                word += ch
                continue
            self._word(word)
            word = ""
        self._word(word)
        if self.tokens and self.tokens[-1] in RESULTS:
            return self.finish()
        return done

    def _tag(self, text):
        body = text.strip("[]").strip()
        name, _, value = body.partition(" ")
        value = value.strip()
        if value.startswith('"') and value.endswith('"') and len(value) >= 2:
            value = value[1:-1].replace('\\"', '"').replace("\\\\", "\\")
        self.tags[name] = value

    def _word(self, word):
        if not word or word.isdigit() or word.startswith("$"):
            return
        if word in ("!", "?", "!!", "??", "!?", "?!"):
            return
        self.in_moves = True
        self.token(word)

    def token(self, word):
        self.tokens.append(word)

    def finish(self):
        """Return the game read so far (or None if there is none) and reset."""
        if not self.tokens and not self.tags:
            return None
        game = (self.tags, self.tokens)
        self.reset()
        return game

    def reset(self):
        self.tags, self.tokens = {}, []
        self.brace, self.depth, self.in_moves = False, 0, False


class Replayer(PgnReader):
    """Plays each move as it is read, so a game's text is never held whole.

    feed() and finish() give (tags, game, error) for each finished game.
    """

    def __init__(self):
        super().__init__()
        self.game = None
        self.error = None

    def token(self, word):
        if self.game is None and self.error is None:
            try:
                self.game = start_game(self.tags)
            except ValueError as e:
                self.error = "bad Variant or FEN tag: %s" % e
        if self.error or word in RESULTS:
            self.tokens = [word] if word in RESULTS else self.tokens
            return
        self.error = play_token(self.game, word)

    def finish(self):
        if not self.tokens and not self.tags and self.game is None:
            return None
        if self.game is None and self.error is None:
            self.token("*")  # a game with tags but no moves
        done = (self.tags, self.game, self.error)
        self.reset()
        self.game = None
        self.error = None
        return done


def start_game(tags):
    """A new game from a PGN game's tags (Variant and FEN); with no Variant
    tag the game is classical chess (from its FEN, if it has one)."""
    rules = named(tags.get("Variant") or "classical")
    return Game(rules, tags.get("FEN") or CLASSICAL_FEN)


def play_token(game, token):
    """Play one SAN token; return None, or an error naming the move number."""
    try:
        game.play(token.rstrip("."))
    except ValueError as e:
        dots = "." if game.pos.side == 8 else "..."
        return "move %d%s %s: %s" % (game.pos.fullmove, dots, token, e)
    return None


def replay(tags, tokens):
    """Replay one game's moves; return (game, error or None).

    On an illegal or unreadable move the game stops there and the error
    names the move number and the text.
    """
    game = start_game(tags)
    for token in tokens:
        if token in RESULTS:
            break
        error = play_token(game, token)
        if error:
            return game, error
    return game, None
