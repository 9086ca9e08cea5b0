"""Reading PGN files as other programs write them: their Result tags, Latin-1
and a byte-order mark (micro960 replay)."""
from micro960.rules.replay import replay_command
from game_text import read_games


class Lines:
    def __init__(self):
        self.text = ""

    def write(self, text):
        self.text += text


def replayed(data, write_pgn=False):
    """(exit code, output) of replay_command on a file holding the bytes `data`."""
    tmp = "micro960-test-bytes.pgn"
    with open(tmp, "wb") as f:
        f.write(data)
    out = Lines()
    try:
        code = replay_command(tmp, write_pgn, out=out)
    finally:
        import os
        os.remove(tmp)
    return code, out.text


def test_replay_pgn_keeps_a_result_the_moves_do_not_decide():
    """A resignation or an agreed draw is only in the Result tag: --pgn once
    wrote "*" for them. Where the final position decides, the rules win."""
    text = ('[Event "resigned"]\n[Result "0-1"]\n\n1. e4 e5 2. Nf3 Nc6 0-1\n\n'
            '[Event "agreed"]\n[Result "1/2-1/2"]\n\n1. d4 d5 1/2-1/2\n\n'
            '[Event "mated, tagged wrong"]\n[Result "1-0"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n\n'
            '[Event "going on"]\n[Result "*"]\n\n1. c4 *\n')
    code, pgn = replayed(text.encode(), write_pgn=True)
    assert code == 0, pgn
    games = list(read_games(pgn.split("\n")))
    assert [(tags["Event"], tags["Result"], tokens[-1]) for tags, tokens in games] == [
        ("resigned", "0-1", "0-1"), ("agreed", "1/2-1/2", "1/2-1/2"),
        ("mated, tagged wrong", "0-1", "0-1"), ("going on", "*", "*")]
    # The plain RESULT XFEN line stays the rules' result at the final position.
    code, lines = replayed(text.encode())
    assert [line.split()[0] for line in lines.split("\n") if line] == ["*", "*", "0-1", "*"]


def test_replay_reads_latin_1_and_a_byte_order_mark():
    """A Latin-1 file once failed whole ('utf-8' codec can't decode; on
    MicroPython a bare `error: `), and a UTF-8 byte-order mark was taken for
    the first game's first move."""
    game = b'[Event "%s"]\n[White "%s"]\n[Result "*"]\n\n1. e4 e5 *\n'
    latin = game % (b"Caf\xe9", b"M\xfcller") + b"\n" + game % (b"b", b"\xc3\xa9")
    code, pgn = replayed(latin, write_pgn=True)
    assert code == 0, pgn
    games = list(read_games(pgn.split("\n")))
    assert [(tags["Event"], tags["White"]) for tags, tokens in games] == [
        ("Caf\u00e9", "M\u00fcller"), ("b", "\u00e9")]
    code, lines = replayed(b"\xef\xbb\xbf" + game % (b"bom", b"x") + b"\n" + game % (b"2", b"y"))
    assert code == 0 and lines.split("\n") == [
        "* rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"] * 2 + [""], lines
