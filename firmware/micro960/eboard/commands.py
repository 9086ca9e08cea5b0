"""What a player types at the sensor board besides moves: resign, draw,
accept, new. Loaded when first typed, so the device loop's heap is spared.

    resign   you resign (with two players at the board: the side to move)
    draw     claim a draw (fifty-move rule, threefold repetition); with none
             to claim, offer one: micro960 takes it when it stands a pawn or
             more worse, as it judged its last move. Two players: the offer
             is the side to move's, and stands while it makes its move
    accept   (two players) take the draw just offered, before your own move:
             only the side that did not offer can
    new      the next game: the one on the board goes to games.pgn as it
             stands, and the pieces go to a start position of the rules

Each raises ValueError, changing nothing, when it cannot be done now.

    >>> from micro960.eboard.game import EBoardGame
    >>> g = EBoardGame(number=518, engine=False, out=print)
    >>> resign(g)
    result 0-1 White resigns
"""
from micro960.rules.game import BLACK_WINS, UNDECIDED, WHITE_WINS, Game
from micro960.rules.position import WHITE, side_name


def _not_over(match):
    game = match.game
    if game.result() != UNDECIDED:
        raise ValueError("the game is over (%s); type new for the next" % game.reason())


def resign(match):
    _not_over(match)
    game = match.game
    loser = match.engine_side ^ 24 if match.engine_side else game.pos.side
    game.ended = (BLACK_WINS if loser == WHITE else WHITE_WINS, side_name(loser) + " resigns")
    match.ended()


def draw(match):
    _not_over(match)
    game = match.game
    if not game.rules.draw_claims:
        raise ValueError("%s has no draws but the one after %d plies"
                         % (game.rules.name, game.rules.max_plies))
    if game.claimable_draw():
        game.claim_draw()
        match.ended()
    elif match.engine_side is None:
        match.draw_offer = (game.pos.side, len(game.moves))
        match.out("draw offered by %s; %s may type accept before their next move"
                  % (side_name(game.pos.side), side_name(game.pos.side ^ 24)))
    elif match.score is not None and match.score <= -100:
        game.agree_draw()
        match.out("draw accepted by micro960")
        match.ended()
    else:
        match.out("draw declined by micro960; play on")


def accept(match):
    _not_over(match)
    game = match.game
    if match.engine_side is not None:
        raise ValueError("no draw offer to accept: micro960 offers none (draw offers yours)")
    offer = match.draw_offer
    # The side offered to accepts, once the offer's side has made its move.
    if not offer or (game.pos.side, len(game.moves)) != (offer[0] ^ 24, offer[1] + 1):
        raise ValueError("no draw offer to accept: the side offered a draw accepts it "
                         "after the offer's move, before making their own")
    game.agree_draw()
    match.ended()


def new(match):
    """The next game, from the set-up (or FEN) the board was started with."""
    game = match.game
    store = match.store
    if store is not None and game.moves and game.result() == UNDECIDED:
        problem = store.finish(game, once=False)  # an unfinished game is kept with *
        if problem:
            match.out("warning %s" % problem)
    fen, number, black_number = match.start
    if store is not None and store.waiting is game:  # kept whole till games.pgn takes it
        match.game = match.board.game = Game(game.rules, fen, number, black_number)
    else:
        game.new(fen, number, black_number)
        game.clock = None
    match.begin()
