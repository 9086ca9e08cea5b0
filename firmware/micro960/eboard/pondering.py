"""Thinking on the player's time at the sensor board.

Once the engine's move is on the board, the engine knows the reply it
expects (EBoardGame.reply). While the player thinks, it plays that reply
in its head and searches its answer. The search polls the scanner's queue
every 16 nodes: the lifts and placements are held back, in order, and followed
on the board as the sensors see it:

- only the squares of the expected move change, until the board shows it
  made: a hit. The move is said at once (`move SAN`) and the player's clock
  stops; the engine's time (its clock, or EBOARD_THINK_MS) starts now, the
  search goes on with what it has, and its answer is lit as soon as it is
  done;
- any other square, a typed line, a full list, the player's flag: a miss.
  The search stops; what it found stays in the table.

Either way the expected move is then taken back in the game, and the events
held are handed to the game in order, as if they had just come: the game
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

MAX_EVENTS = 16  # events held while pondering; more, and the search stops


def ponder(board):
    match = board.match  # the EBoardGame
    game = match.game
    search = match.search
    plies, expected = match.reply
    match.reply = None  # once a move
    if match.board.may_become_castling(expected):
        return  # the board would show it before it is sure of it: no guess to stand by
    person = game.pos.side
    touched = move_squares(game.pos, expected)
    said = "move " + san(game.pos, expected)
    seen = match.physical  # the board as the sensors see it
    game.push(expected)  # the search needs the position after it
    target = occupancy(game.pos)
    clock = game.clock
    limits = Limits(ponder=True, depth=match.depth,
                    movetime=0 if clock else match.think_ms)
    events = []
    hit = False  # the board has shown the expected move made
    typed = None  # a line typed meanwhile

    def poll():
        nonlocal seen, hit, typed
        thinking = board.thinking()  # the display's clocks, the move-now button
        if hit:  # after the hit: as when the engine thinks on its own time
            if thinking:
                return True
            while len(events) <= MAX_EVENTS:  # held for the game; too many: play now
                event = board.scanner.get()
                if event < 0:
                    return False
                events.append(event)
            return True
        if board.lines is not None:
            line = board.lines.poll()
            if line is not None:
                typed = line
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
                seen |= 1 << square
            else:
                seen &= ~(1 << square)
            if seen == target:
                hit = True
                match.out(said)
                match.told = expected  # (said once: not again when the game has it)
                _hit(match, clock, person, limits)
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
    if typed is not None:
        board.typed(typed)
    for event in events:
        if event & PLACED:
            match.place(event & 63)
        else:
            match.lift(event & 63)
    if hit and move:
        match.pondered = (plies + 1, expected, move, score)


def _hit(match, clock, person, limits):
    """The player made the expected move: their clock stops, the engine's runs
    and its search's time starts."""
    if clock:
        clock.moved(person)
        match.say_clock()
        clock.limits(person ^ 24, limits)
    match.search.ponderhit()
