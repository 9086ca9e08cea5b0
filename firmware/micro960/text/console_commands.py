"""What the console does now and then: most of its commands (new, rules,
clock, undo, hint, analyze, draw, level, time, ...) and the summary at a
game's end (taking up a saved game is text/console_resume.py's). The console
loads this module when it needs it and gives its heap back after
(Console.forget), so a Pico has that room in the meantime. Each command
takes the Console and the words after the command.
"""
from micro960.compat import ticks_diff, ticks_ms
from micro960.rules.game import Game, UNDECIDED
from micro960.rules.notation import san, san_line, side_name
from micro960.rules.position import BLACK, BOTH, WHITE
from micro960.rules.variants import NAMES, Rules
from micro960.engine.search import Limits


def setup_text(game):
    """The start position's number and back rank, or its FEN."""
    from ..rules import startpos
    return "Start position %s." % (startpos.setup_text(game.rules, game.start_fen)
                                   or game.start_fen)


def summary(console):
    """At the end of a game: the result, why, and the whole game as PGN."""
    game = console.game
    console.out("Game over: %s (%s)" % (game.result(), game.reason()))
    console.out("")
    from ..rules.pgn import game_pgn, pgn_lines
    try:
        console.out(game_pgn(game).rstrip())
    except MemoryError:  # no room for the text in one piece: a line at a time
        try:
            for line in pgn_lines(game):
                console.out(line)
        except MemoryError:
            console.out("(no room left to show the moves; type pgn to see them)")
    console.out("")
    if console.store:
        console.out("Finished games go to %s. Type new for another game."
                    % console.store.archive_path)
    else:
        console.out("Type new for another game.")


def cmd_board(console, args):
    console.show_board()  # in a set-up phase, with who places what next


def cmd_resign(console, args):
    console.game.resign()
    console.announce()


def cmd_help(console, args):
    from .console_help import HELP
    console.out(HELP)


def cmd_new(console, args):
    rules = console.game.rules
    fen = None
    numbers = ()
    word = args[0].lower() if args else "random"
    if word == "setup":
        if len(args) > 1:
            raise ValueError("new setup takes nothing after it, not %r" % " ".join(args[1:]))
        from .console_setup import SetUpPhase  # loaded only when asked for
        _keep_unfinished(console)
        SetUpPhase(console, rules)
        return
    from micro960.rules.startpos import backrank, setup_number, setup_numbers, sp_from_dice
    if word == "fen":
        fen = " ".join(args[1:])
        if not fen:
            raise ValueError("new fen needs a FEN")
    elif word == "dice":
        numbers = (setup_number(rules, backrank(sp_from_dice([_int(a, "die roll")
                                                              for a in args[1:]]))),)
    elif word == "classical" and len(args) == 1:
        numbers = (setup_number(rules, "RNBQKBNR"),)
    elif word != "random" or len(args) > 1:
        numbers = setup_numbers(rules, args)
    game = Game(rules, fen, *numbers)  # raises before the old game is touched
    _begin(console, game)
    console.out("New %s game. %s" % (rules.name, setup_text(game)))
    console.show_board()
    console.announce()


def cmd_rules(console, args):
    if len(args) != 1:
        raise ValueError("rules needs one of: " + " ".join(NAMES))
    _begin(console, Game(Rules(args[0].lower())))  # raises before the old game is touched
    console.out("Rules: %s. %s" % (console.game.rules.name, setup_text(console.game)))
    console.show_board()


def _begin(console, game):
    """Play `game` from now on, on a clock like the last game's if it had one."""
    _keep_unfinished(console)
    old = console.game.clock
    if old:
        from micro960.rules.clock import Clock
        game.clock = Clock(old.control, 0, game.pos.side, console.now)
    console.game = game
    console.draw_offer = console.setup = None  # a new game ends a set-up phase
    console.start_clock()


def _keep_unfinished(console):
    """Before a new game takes its place, an unfinished game goes to the
    archive with the result * rather than being thrown away: a player who
    typed new by mistake still has it, and asking first would hold every
    new game up. A game with no move yet has nothing to keep."""
    game = console.game
    if not console.store or not len(game.moves) or game.result() != UNDECIDED:
        return
    problem = console.store.finish(game, once=False)  # (with the result *)
    console.warn(problem, False)
    if not problem:
        console.out("The unfinished game was kept in %s." % console.store.archive_path)


def cmd_clock(console, args):
    """`clock 15+10` (or 5, or 40/90+30) puts the game on a clock, full time
    for both; `clock off` takes it off; `clock` shows it."""
    game = console.game
    if args and args[0].lower() == "off" and len(args) == 1:
        game.clock = None
    elif len(args) == 1:
        from micro960.rules.clock import Clock
        game.clock = Clock(args[0], len(game.moves), game.pos.side, console.now)
    elif args:
        raise ValueError("clock takes one time control (15+10, 5, 40/90+30) or off")
    console.out(game.clock.line() if game.clock else
                "No clock: the engine thinks %s a move." % seconds_text(console.limits.movetime))
    if len(args) == 1 and game.clock:
        # Started once said, so the line shows the time set (5:00, not the
        # 4:59 it showed when a millisecond ticked by in between).
        console.start_clock()


def cmd_flip(console, args):
    console.flipped = not console.flipped
    console.show_board()


def cmd_unicode(console, args):
    console.unicode = True
    console.show_board()


def cmd_ascii(console, args):
    console.unicode = False
    console.show_board()


def cmd_color(console, args):
    """`color` (or `color on`) paints the board with ANSI colours; `color off` stops."""
    word = args[0].lower() if args else "on"
    if word not in ("on", "off") or len(args) > 1:
        raise ValueError("color takes on or off, not %r" % " ".join(args))
    console.color = word == "on"
    console.show_board()


def cmd_moves(console, args):
    console.not_over()
    pos = console.game.pos
    moves = console.game.legal_moves()
    console.out(" ".join(sorted(san(pos, m, moves) for m in moves)) or "(no legal moves)")


def cmd_undo(console, args):
    # An ended game is archived already: taking moves back and ending it
    # again would archive it twice.
    if console.setup:
        console.setup.undo()
        return
    console.not_over()
    game = console.game
    game.undo()
    console.last_move = None
    console.draw_offer = None
    if game.pos.side == console.engine_side and game.moves:
        game.undo()  # take back the engine's reply with your move
        console.out("Took back two moves.")
    else:
        console.out("Took back a move.")
    console.start_clock()  # each side has the time it had then
    console.show_board()


def cmd_white(console, args):
    console.engine_side = BLACK
    say_sides(console)  # (then the engine moves if it is its turn: Console.handle)


def cmd_black(console, args):
    console.engine_side = WHITE
    say_sides(console)


def cmd_both(console, args):
    console.engine_side = None
    say_sides(console)


def cmd_go(console, args):
    if console.game.result() != UNDECIDED:
        raise ValueError("the game is over (%s); type new" % console.game.reason())
    console.engine_side = console.game.pos.side  # and it moves (Console.handle)


def cmd_hint(console, args):
    game = console.game
    if game.result() != UNDECIDED:
        raise ValueError("the game is over (%s); type new" % game.reason())
    if console.may_ponder():  # the reply it expects: no need to think again
        console.out("Hint: %s (micro960 expects it)" % san(game.pos, console.expected[2]))
        return
    move, score = _think(console, console.limits)  # Ctrl-C: the best move so far
    if move:
        console.out("Hint: %s (%s)" % (san(game.pos, move), _said_score(console, score)))
    say_typed(console)


def cmd_analyze(console, args):
    """Think about the position on the board, a line for each depth, until
    Enter is pressed (or to `time`'s limit where nothing can be typed)."""
    game = console.game
    console.not_over()
    if console.input:
        console.out("Analysing; press Enter to stop.")
    limits = Limits(infinite=True) if console.input else console.limits
    move, score = _think(console, limits)  # Ctrl-C stops it too
    if move:
        console.out("Best: %s (%s)" % (san(game.pos, move), _said_score(console, score)))
    say_typed(console)


def _think(console, limits):
    """The engine's (move, score) for the position; Ctrl-C stops the search,
    not the program (as when the engine thinks on its own time, see
    Console.reply): then the best move found so far, and score None."""
    game = console.game
    console.said = None
    try:
        move, score = console.engine.think(game, limits)
    except KeyboardInterrupt:
        game.rebuild()  # the moves the search was trying are taken back
        moves = game.legal_moves()
        best = console.engine.best
        move, score = (best if best in moves else moves[0] if moves else 0), None
    said = console.said
    if said and said[2] != move:
        show_choice(console, move)
    return move, score


def show_choice(console, move):
    """After a search whose last thinking line began with another move than
    `move`, the move chosen (played, or a hint): one more line, that begins
    with it, before the move is said. In place of a
    score it says why they differ: `unfinished`, a move that beat the last
    line's in the depth the time (or Enter) cut short, its score not known;
    or `level N`, a weaker move chosen on purpose below level 20."""
    engine = console.engine
    depth = console.reached
    if engine.level != 20 and not (engine.stopped and move == engine.root_raised):
        why = "level %d" % engine.level
    else:
        why = "unfinished"
        depth += 1
    line = " ".join(san_line(console.game.pos, engine.pv(move, depth)))
    console.say_line(depth, why, engine.nodes, ticks_diff(ticks_ms(), engine.start), line)


def say_typed(console):
    """Once the engine has moved (or hinted, or analysed): the lines typed
    while it thought (Console.typed_while_thinking). They were meant for the
    position before, so none is played or carried out; now each can be."""
    over = console.game.result() != UNDECIDED
    for text in console.typed:
        console.out("error: %r was typed while the engine thought; %s"
                    % (text, "the game is over" if over else "type it again now"))
    del console.typed[:]


def _said_score(console, score):
    """The score as the console says it; None: the search was stopped by Ctrl-C."""
    return "stopped by Ctrl-C" if score is None else console.score_text(score)


def cmd_ponder(console, args):
    """`ponder on` (the default) lets the engine think on your time, at
    level 10 and up; `ponder off` stops it; `ponder` alone shows it."""
    from micro960.engine.levels import ponders
    if args:
        if args[0].lower() not in ("on", "off") or len(args) > 1:
            raise ValueError("ponder takes on or off, not %r" % " ".join(args))
        console.pondering = args[0].lower() == "on"
    console.out("The engine %s on your time%s." % (
        "thinks" if console.pondering else "does not think",
        " (at level 10 and up)" if console.pondering and not ponders(console.engine.level)
        else ""))


def cmd_threads(console, args, quiet=False):
    """`threads 2`: at full strength the engine searches on two threads (a
    Pico's two cores, engine/smp.py); `threads 1` on one (the default);
    `threads` alone shows it."""
    engine = console.engine
    if args:
        if args[0] not in ("1", "2") or len(args) > 1:
            raise ValueError("threads takes 1 or 2, not %r" % " ".join(args))
        engine.set_threads(int(args[0]))
    if not quiet:
        console.out("The engine searches on %s." % (
            "one thread" if not engine.helper else "two threads%s" % (
                "" if engine.level == 20 else " at level 20; a level plays on one")))


def cmd_fen(console, args):
    console.out(console.game.pos.fen(shredder=bool(args) and args[0].lower() == "shredder"))


def cmd_pgn(console, args):
    from ..rules.pgn import game_pgn
    console.out(game_pgn(console.game).rstrip())


def cmd_draw(console, args):
    game = console.game
    console.not_over()
    if not game.rules.draw_claims:
        raise ValueError("%s has no draws but the one after %d plies"
                         % (game.rules.name, game.rules.max_plies))
    if game.claimable_draw():
        game.claim_draw()
    elif game.pos.side ^ BOTH == console.engine_side:
        _engine_answers_offer(console)
        return
    else:
        console.draw_offer = (game.pos.side, len(game.moves))
        console.out("%s offers a draw; %s may type accept before their next move."
                    % (side_name(game.pos.side), side_name(game.pos.side ^ BOTH)))
        return
    console.announce()


def _engine_answers_offer(console):
    """The engine takes a draw when it thinks it stands a pawn or more worse."""
    if console.engine_score is not None and console.engine_score <= -100:
        console.game.agree_draw()
        console.out("micro960 accepts the draw.")
        console.announce()
    else:
        console.out("micro960 declines the draw; play on.")


def cmd_accept(console, args):
    game = console.game
    console.not_over()
    offer = console.draw_offer
    # An offer is made on one's own turn; the other side may accept it
    # after that move, before making its own.
    if offer and offer[0] == game.pos.side and offer[1] == len(game.moves):
        raise ValueError("%s offered the draw: %s may accept it, after %s's move"
                         % (side_name(offer[0]), side_name(offer[0] ^ BOTH),
                            side_name(offer[0])))
    if not offer or (len(game.moves), game.pos.side) != (offer[1] + 1, offer[0] ^ BOTH):
        raise ValueError("no draw offer to accept")
    game.agree_draw()
    console.announce()


def say_sides(console):
    side = console.engine_side
    console.out("You play %s; micro960 plays %s." % (side_name(side ^ BOTH),
                                                     side_name(side))
                if side else "Two players: the engine moves only when you type go.")


def cmd_level(console, args, quiet=False):
    """`level 1500` plays at about that rating; `level 0-19` at the same
    ratings, evenly spread (engine/levels.py); `level 20` at full strength;
    `level` alone says which."""
    from micro960.engine.levels import check, rating
    engine = console.engine
    if args:
        engine.level = check(_int(args[0], "level"))
    if not quiet:
        level = engine.level
        console.out("Level %d: %s." % (level, "full strength" if level == 20 else
                                       "plays at about %d Elo" % rating(level)))


def cmd_time(console, args, quiet=False):
    clock = console.game.clock
    if args:
        try:
            seconds = float(args[0])
        except ValueError:
            raise ValueError("time takes seconds, e.g. time 5 or time 0.5, not %r" % args[0])
        if not 0.1 <= seconds <= 3600:  # (nor inf, nor nan: it cannot be a whole ms)
            raise ValueError("the engine thinks 0.1 to 3600 seconds a move")
        console.limits = Limits(movetime=int(seconds * 1000))
        if quiet:
            return
        console.game.clock = None  # a time a move instead of a clock
    elif clock:  # the clock rules the engine's time, not `time`
        console.out("%s The engine budgets its clock; time N takes the game off it."
                    % clock.line())
        return
    if not quiet:
        console.out("The engine thinks %s a move%s." % (
            seconds_text(console.limits.movetime),
            " (instead of the clock %s)" % clock.control if clock and args else ""))


def seconds_text(ms):
    """1500 -> '1.5 seconds', 1000 -> '1 second'."""
    text = "%d" % (ms // 1000) if ms % 1000 == 0 else ("%.3f" % (ms / 1000)).rstrip("0")
    return text + (" second" if ms == 1000 else " seconds")


def _int(text, what):
    try:
        return int(text)
    except ValueError:
        raise ValueError("%s must be a number, not %r" % (what, text))
