"""Device entry point: MicroPython runs this file at boot.

It reads the board configuration (/board.py, copied there by `micro960
flash`; defaults without it) and starts the mode it names:

- "console": the text game, as soon as the first line arrives. If that line
  is `uci`, a chess GUI is talking: the UCI engine answers it instead, with
  no menu in between.
- "uci": the UCI engine at once.
- "eboard": the sensor board (not written yet: the console runs instead).
"""
from micro960 import board
from micro960.lines import StdinLines


def main():
    config = board.load()
    lines = StdinLines()  # ends lines at \r or \n, as terminals and GUIs send them
    if config.MODE == "uci":
        return uci(lines, None, config.HASH_KB)
    if config.MODE == "eboard":
        print("micro960: the sensor board is not supported yet; starting the console.")
    print("micro960 on %s: press Enter to play, or send uci." % config.NAME)
    first = lines.readline()
    if first is not None and first.strip() == "uci":
        return uci(lines, first, config.HASH_KB)
    return console(lines, first, config.HASH_KB)


def uci(lines, first, hash_kb):
    from micro960.uci import Uci
    engine = Uci(lines, hash_kb=hash_kb)
    if first is not None:
        engine.handle(first)
    engine.loop()


def console(lines, first, hash_kb):
    from micro960.console import Console
    game = Console(hash_kb=hash_kb)
    print("micro960 - Chess960 for small machines. Type help for commands.")
    from micro960.storage import GameStore, default_folder
    if game.resume(GameStore(default_folder())):
        game.show_board()
        game.reply()  # the engine may be to move
    else:
        game.cmd_new([])  # says which start position and shows the board
    line = first
    while line is not None:
        game.handle(line)
        if not game.running:
            break
        line = lines.readline()


main()
