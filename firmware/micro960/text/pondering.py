"""Thinking on the person's time: the console ponders while a person thinks.

After its move the engine knows the reply it expects (the second move of
its line). While the person thinks, it plays that reply on the board and
searches its own answer, polling the input as it does when it thinks on
its own time:

- the person plays the expected move (a hit): the move is taken at once,
  the search goes on with what it has found, and its time (its clock, or
  `time`) starts only now; its thinking lines show from then on, as they
  do when it thinks on its own time (before, it is quiet);
- the person types anything else (a miss, or a command): the expected move
  is taken back and the line is handled as always, the search's findings
  kept in the table;
- the search ends by itself (it saw to the end), or the input ends: the
  expected move is taken back and the console reads the line as usual.

The console does this only where someone types (Console.input), for the
side the engine does not play, at level 10 and up, with `ponder on`.

    line = ponder(console)   # the line that stopped it, or None after a hit
"""
from micro960.rules.notation import san
from micro960.engine.search import Limits
from micro960.rules.ucimove import uci_text


def ponder(console):
    game = console.game
    expected = console.expected[2]
    pos = game.pos
    texts = _texts(pos, expected, game.rules.uci_chess960)
    said = console.move_text(pos, expected)
    person = pos.side  # (while the search runs, game.pos is wherever it has got to)
    plies = len(game.moves)
    game.push(expected)  # the search needs the position after it
    limits = Limits(ponder=True, movetime=console.limits.movetime, nodes=console.limits.nodes)
    heard = []  # the line that came, and whether it was the expected move

    def poll():
        if heard:  # the hit was heard: back to the usual polling
            return console.typed_while_thinking()
        line = console.input.poll()
        if line is None:  # nothing typed yet; or the input is over: stop
            return getattr(console.input, "ended", False)
        clock = game.clock
        hit = line.strip() in texts and not (clock and clock.remaining(clock.running) <= 0)
        heard.append((line, hit))
        if not hit:  # (a move after the flag fell goes the usual way: the flag is seen)
            return True
        console.taken(person, said)
        console.show_board(_After(game))  # as after any move (game.pos is the search's)
        engine.on_info = told  # its thinking shows from now on, as on its own time
        if game.clock:
            game.clock.limits(person ^ 24, limits)
        console.engine.ponderhit()
        return False

    engine = console.engine
    usual, told = engine.poll, engine.on_info
    engine.poll = poll
    engine.on_info = None  # quiet while the person thinks
    console.said = None
    try:
        move, score = engine.think(game, limits)
    except KeyboardInterrupt:
        # Ctrl-C stops the search, not the program. After a hit the engine
        # plays the best move it has; before, the line is read as usual.
        game.rebuild()
        move = engine.best
        score = None
        if not (heard and heard[0][1]):
            game.truncate(plies)
            console.expected = None  # no more till the engine's next move: Ctrl-C then quits
            if heard:  # a miss, being taken back: that line as usual
                return heard[0][0]
            console.out("Stopped thinking on your time (Ctrl-C again at the prompt quits).")
            return console.input.readline()
        moves = game.legal_moves()
        if move not in moves:
            move = moves[0] if moves else 0
        console.out("Stopped: the engine plays the best move it has found.")
    finally:
        engine.poll, engine.on_info = usual, told
    if heard and heard[0][1]:  # a hit: the engine's move
        console.engine_score = score
        console.answer(move)
        return None
    game.truncate(plies)  # take the expected move back
    return heard[0][0] if heard else console.input.readline()


class _After:
    """The game as it stands after the hit, for Console.show_board: game.pos
    is the search's while it runs, so the position is replayed apart."""

    def __init__(self, game):
        for pos, move in game.replay():  # (it plays each move after giving it)
            pass
        self.pos, self.moves, self.rules = pos, game.moves, game.rules


def _texts(pos, move, chess960):
    """The ways a person may type `move`: SAN with and without its check
    sign, and UCI (e2e4; castling both ways)."""
    text = san(pos, move)
    texts = [text, text.rstrip("+#"), uci_text(pos, move, chess960),
             uci_text(pos, move, not chess960)]
    return texts
