"""Device entry point: MicroPython runs this file at boot.

It reads the board configuration (/board.py, copied there by `micro960
flash`; defaults without it) and starts the mode it names:

- "console": the text game, as soon as the first line arrives. If that line
  is `uci` (or `xboard`), a chess GUI is talking: the UCI (or XBoard) engine
  answers it instead, with no menu in between. A `uci` line in the middle of a game (micro960 bridge
  taking over the port) switches to UCI too; the game is saved already.
- "uci": the UCI engine at once.
- "eboard": the sensor board (micro960/eboard/sensorboard.py); the console when the
  board has no sensors or they do not answer.
"""
from micro960.lines import StdinLines


def main():
    from micro960.device import board
    config = board.load()
    if config.CPU_MHZ:
        import machine
        from micro960.device.cpu_clock import set_mhz
        set_mhz(machine, config.CPU_MHZ, config.CHIP)
        forget("device.cpu_clock")
    lines = StdinLines()  # CR, LF or CR LF end a line, as terminals and GUIs send them
    if config.MODE == "eboard":
        from micro960.eboard.sensorboard import main as sensorboard
        if sensorboard(config, lines):  # False: no sensor board here; the console instead
            return None
    mode, name, echo, hash_kb = config.MODE, config.NAME, config.ECHO, config.HASH_KB
    board = config = None
    forget("device.board")  # its code and settings are not needed from here on
    if mode == "uci":
        return uci(lines, None, hash_kb)
    print("micro960 on %s: press Enter to play, or send uci or xboard." % name)
    first = lines.readline()
    if first is not None and first.strip() == "uci":
        return uci(lines, first, hash_kb)
    if first is not None and first.strip() == "xboard":
        return xboard(lines, hash_kb)
    lines.interactive(echo)  # a person types: echo if the board says so, short lines
    if console(lines, first, hash_kb):  # a GUI sent uci mid-game (micro960 bridge)
        return uci(StdinLines(), "uci", hash_kb)  # fresh lines: no echo, long lines


def forget(*names):
    """Unload these modules of micro960 (device.board: and /board.py), so the
    heap they took is free for the engine."""
    import sys
    from micro960.compat import release
    release(*names)
    if "device.board" in names:
        sys.modules.pop("board", None)  # /board.py


def uci(lines, first, hash_kb):
    from micro960.text.uci import Uci
    lines.hand_over_long_lines()  # a long game's position line is read in place
    engine = Uci(lines, hash_kb=hash_kb)
    if first is not None:
        engine.handle(first)
    engine.loop()


def xboard(lines, hash_kb):
    from micro960.text.xboard import XBoard
    XBoard(lines, hash_kb=hash_kb).loop()


def console(lines, first, hash_kb):
    from micro960.text.console import Console
    game = Console(hash_kb=hash_kb)
    game.input = lines  # read while the engine thinks: move now, or refused
    print("micro960 - Chess960 for small machines. Type help for commands.")
    from micro960.device.storage import GameStore, default_folder
    if game.resume(GameStore(default_folder())):
        game.show_board()
        game.reply()  # the engine may be to move
    else:
        game.command("cmd_new", [])  # says which start position and shows the board
    game.forget()
    line = first
    while line is not None:
        if line.strip() == "uci":
            return True  # main() starts UCI, once this game's memory is free
        game.handle(line)
        if not game.running:
            break
        line = game.next_line()  # the engine ponders meanwhile


main()
