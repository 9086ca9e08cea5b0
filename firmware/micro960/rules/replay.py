"""`micro960 replay FILE [--pgn]`: the games of a PGN file replayed by the
rules, one `RESULT XFEN` line each, or written back out as PGN.

Apart from rules/pgn.py, whose writer a board loads at the end of every game:
this file-reading code then stays off its heap.
"""
import sys

from micro960.rules.pgn import RESULTS, Replayer, game_pgn


def replay_command(path, write_pgn=False, out=None):
    """`micro960 replay FILE [--pgn]`: one `RESULT XFEN` line per game, or PGN."""
    out = out or sys.stdout
    try:
        stream = open(path, "rb")
    except OSError:
        out.write("error: cannot read %s\n" % path)
        return 2
    replayer = Replayer()
    counts = [0, 0]  # games, errors
    with stream:
        for line in stream:
            _report(replayer.feed(text_of(line)), counts, write_pgn, out)
    _report(replayer.finish(), counts, write_pgn, out)
    return 1 if counts[1] else 0


def text_of(line):
    """A line of a PGN file as text: UTF-8, or Latin-1 where it is not (older
    files), and without the byte-order mark some editors put first."""
    if line[:3] == b"\xef\xbb\xbf":
        line = line[3:]
    try:
        return line.decode()
    except UnicodeError:  # MicroPython decodes only UTF-8: Latin-1 is a byte a letter
        return "".join([chr(b) for b in line])


def _report(done, counts, write_pgn, out):
    if not done:
        return
    tags, game, error = done
    counts[0] += 1
    if error:
        counts[1] += 1
        # With --pgn the games go to stdout, so errors go beside them.
        (sys.stderr if write_pgn else out).write("error game %d, %s\n" % (counts[0], error))
    if game is None:
        return
    if write_pgn:
        result = tags.get("Result")
        if not error and result in RESULTS[:3] and not game.outcome():
            game.ended = (result, "as the PGN says")  # resigned, agreed: the moves cannot tell
        out.write(game_pgn(game, tags) + "\n")
    elif not error:
        out.write("%s %s\n" % (game.result(), game.pos.fen()))
