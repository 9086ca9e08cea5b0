"""Thinking on the player's time at the sensor board.

Once the engine's move is on the board, the engine knows the reply it
expects (EBoardGame.reply). While the player thinks, it plays that reply
in its head and searches its answer. The search polls the scanner's queue
every 16 nodes: the lifts and placements are kept, in order, and followed
on the board as the sensors see it:

- only the squares of the expected move change, until the board shows it
  made: a hit. The move is said at once (`move SAN`) and the player's clock
  stops; the engine's time (its clock, or EBOARD_THINK_MS) starts now, the
  search goes on with what it has, and its answer is lit as soon as it is
  done;
- any other square, a typed line, a full list, the player's flag: a miss.
  The search stops; what it found stays in the table.

Either way the expected move is then taken back in the game, and the events
kept are handed to the game in order, as if they had just come: the game
judges them as always (the move is the game's to decide, not this guess's).
The answer found after a hit is played only if the game then has the
expected move (EBoardGame.pondered); a promotion to another piece, say, is
searched again.

    ponder(board)   # board: a sensorboard.SensorBoard, the person to move
"""
from micro960.eboard.moves import move_squares, occupancy
from micro960.rules.notation import san
from micro960.eboard.scanner import PLACED
from micro960.engine.search import Limits

MAX_EVENTS = 16  # events kept while pondering; more, and the search stops


def ponder(board):
    eboard = board.game  # the EBoardGame
    game = eboard.game
    search = eboard.search
    plies, expected = eboard.reply
    eboard.reply = None  # once a move
    if eboard.board.may_become_castling(expected):
        return  # the board would show it before it is sure of it: no guess to stand by
    person = game.pos.side
    touched = move_squares(game.pos, expected)
    said = "move " + san(game.pos, expected)
    seen = eboard.physical
    game.push(expected)  # the search needs the position after it
    target = occupancy(game.pos)
    clock = game.clock
    limits = Limits(ponder=True, depth=eboard.depth,
                    movetime=0 if clock else eboard.think_ms)
    events = []
    state = [seen, False, None]  # the board now, a hit, a typed line

    def poll():
        thinking = board.thinking()  # the display's clocks, the move-now button
        if state[1]:  # after the hit: as when the engine thinks on its own time
            return thinking or _keep(board, events)
        if board.lines is not None:
            line = board.lines.poll()
            if line is not None:
                state[2] = line
                return True
        if clock and clock.remaining(person) <= 0 or board.scanner.overflowed:
            return True
        while True:
            event = board.scanner.get()
            if event < 0:
                return False
            events.append(event)
            square = event & 63
            if not touched >> square & 1 or len(events) > MAX_EVENTS:
                return True  # a miss
            if event & PLACED:
                state[0] |= 1 << square
            else:
                state[0] &= ~(1 << square)
            if state[0] == target:
                state[1] = True
                eboard.out(said)
                eboard.told = expected  # (said once: not again when the game has it)
                _hit(eboard, clock, person, limits)
                return False

    usual = search.poll
    search.poll = poll
    try:
        move, score = search.think(game, limits)
    except KeyboardInterrupt:  # Ctrl-C: the game as it was, then the loop ends
        game.rebuild()
        game.truncate(plies)
        raise
    finally:
        search.poll = usual
    game.truncate(plies)  # take the expected move back
    if state[2] is not None:
        board.typed(state[2])
    for event in events:
        if event & PLACED:
            eboard.place(event & 63)
        else:
            eboard.lift(event & 63)
    if state[1] and move:
        eboard.pondered = (plies + 1, expected, move, score)


def _keep(board, events):
    """After the hit, the events go on being kept for the game (too many:
    the engine plays what it has)."""
    while len(events) <= MAX_EVENTS:
        event = board.scanner.get()
        if event < 0:
            return False
        events.append(event)
    return True


def _hit(eboard, clock, person, limits):
    """The player made the expected move: their clock stops, the engine's runs
    and its search's time starts."""
    if clock:
        clock.moved(person)
        eboard.say_clock()
        clock.limits(person ^ 24, limits)
    eboard.search.ponderhit()
