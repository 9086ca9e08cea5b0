"""PGN: our games written out, games read back with comments, NAGs and variations."""
from micro960.rules.game import Game
from micro960.rules.pgn import game_pgn, replay
from micro960.rules.replay import replay_command
from game_text import read_games

SAMPLE = """[Event "Test"]
[Site "Here"]
[Variant "Chess960"]
[SetUp "1"]
[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]
[Result "*"]

1. e4 {a comment
over two lines} e5 2. Nf3 $1 (2. Nc3 Nc6 (2... d5)) 2... Nf6 ; rest of line
3. Bc4 Bc5 4.O-O O-O *

[Event "Broken"]
[Result "1-0"]

1. e4 e5 2. Ke3 Nc6 1-0

[Event "Classical mate"]

1. f3 e5 2. g4 Qh4# 0-1
"""


class Lines:
    def __init__(self):
        self.text = ""

    def write(self, text):
        self.text += text


def test_reading_skips_comments_nags_and_variations():
    games = list(read_games(SAMPLE.split("\n")))
    assert len(games) == 3
    tags, tokens = games[0]
    assert tags["Event"] == "Test"
    assert tokens == ["e4", "e5", "Nf3", "Nf6", "Bc4", "Bc5", "O-O", "O-O", "*"]
    game, error = replay(tags, tokens)
    assert error is None
    assert game.pos.fen() == "rnbq1rk1/pppp1ppp/5n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 w - - 6 5"
    game, error = replay(*games[1])
    assert error == "move 2. Ke3: illegal move: Ke3"
    game, error = replay(*games[2])
    assert game.result() == "0-1"


def test_replay_command_reports_errors_and_goes_on():
    tmp = "micro960-test.pgn"
    with open(tmp, "w") as f:
        f.write(SAMPLE)
    out = Lines()
    try:
        code = replay_command(tmp, out=out)
    finally:
        import os
        os.remove(tmp)
    assert code == 1
    lines = out.text.split("\n")
    assert lines[0] == "* rnbq1rk1/pppp1ppp/5n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 w - - 6 5"
    assert lines[1] == "error game 2, move 2. Ke3: illegal move: Ke3"
    assert lines[2] == "0-1 rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
    assert replay_command("no-such-file.pgn", out=Lines()) == 2


def test_written_pgn_reads_back_to_the_same_game():
    game = Game("chess960", number=0)
    for text in "d4 d5 Nc3 Nc6 Nd3 Nd6 Qd2 Qd7 O-O-O O-O-O".split():
        game.play(text)
    text = game_pgn(game, {"White": "Ann", "Black": 'B. "the bot"'})
    assert '[Variant "Chess960"]' in text and '[SetUp "1"]' in text
    assert '[Black "B. \\"the bot\\""]' in text
    assert "1. d4 d5 2. Nc3 Nc6 3. Nd3 Nd6 4. Qd2 Qd7 5. O-O-O O-O-O *" in text
    (tags, tokens), = list(read_games(text.split("\n")))
    again, error = replay(tags, tokens)
    assert error is None and again.pos.fen() == game.pos.fen()
    assert tags["Black"] == 'B. "the bot"'
    assert game_pgn(Game("classical")).count("[FEN") == 0


def test_a_shuffle_game_that_ends_is_written_out():
    """Its PGN once asked the shuffle rules for set-up 518 (there are 18) and
    failed: the console printed an error instead of the result."""
    from micro960.rules.game import Game
    game = Game("shuffle", None, 3)
    game.resign()
    assert '[Result "0-1"]' in game_pgn(game) and '[FEN "' in game_pgn(game)


def test_an_unclosed_variation_or_comment_does_not_swallow_the_next_game():
    text = ('[Event "a"]\n\n1. e4 ( 1. d4 *\n\n[Event "b"]\n\n1. d4 d5 *\n\n'
            '[Event "c"]\n\n1. c4 { no end\n\n[Event "d"]\n\n1. Nf3 *\n')
    games = list(read_games(text.split("\n")))
    assert [(tags["Event"], tokens) for tags, tokens in games] == [
        ("a", ["e4"]), ("b", ["d4", "d5", "*"]), ("c", ["c4"]), ("d", ["Nf3", "*"])]


def test_a_variation_before_any_move_is_passed_over_as_python_chess_does():
    """A "(" needs a move before it to vary from: with none, the parenthesis
    is passed over and the moves after it are the game's (found by the PGN
    fuzz test against python-chess)."""
    text = '[Event "a"]\n\n{ a comment } (1. g4 *\n\n[Event "b"]\n\n( 1. e4 ) e5 *\n'
    games = list(read_games(text.split("\n")))
    assert [tokens for tags, tokens in games] == [["g4", "*"], ["e4", "e5", "*"]]
