"""Saves on the emulated Pico (host_tools/emulator.py), and the real mpremote.

The emulator serves the boot ROM's flash functions, so what the firmware
writes to its file system lasts, through a power cut too; and
EmulatedPico.serial_port() is a pseudo-terminal that is the board's USB
serial port, so `micro960 pull` and `micro960 flash` run the real mpremote
against it as against a Pico on USB.

Skipped, with the reason, where the emulator cannot run (as tests/test_pico.py).
"""
import io
import re

import chess
import chess.pgn
import pytest

from host_tools import emulator, flash, pull
from test_pico import BANNER, repl

pytestmark = pytest.mark.skipif(emulator.missing() is not None,
                                reason=str(emulator.missing()))


def test_the_flash_erases_to_ones_and_programming_only_clears_bits():
    """NOR flash, as littlefs expects it: an erase sets a sector to 0xFF,
    programming ANDs the data in, and both outlast a power cut."""
    with emulator.EmulatedPico(board=None) as pico:  # an empty file system: its last block is free
        said = repl(pico, "import rp2; f = rp2.Flash(); n = f.ioctl(4, 0) - 1; b = bytearray(8); "
                          "f.ioctl(6, n); f.readblocks(n, b); print('erased', n, b.hex()); "
                          "f.writeblocks(n, b'\\x0f' * 256, 0); f.writeblocks(n, b'\\x3c' * 256, 0); "
                          "f.readblocks(n, b); print('programmed', b.hex())")
        erased = [line for line in said if line.startswith("erased ")][-1].split()
        block = int(erased[1])
        assert erased[2] == "ff" * 8 and "programmed " + "0c" * 8 in said, said
        pico.power_cut()
        pico.at_prompt = False
        said = repl(pico, "import rp2; b = bytearray(8); rp2.Flash().readblocks(%d, b); "
                          "print('kept', b.hex())" % block)
        assert "kept " + "0c" * 8 in said, said
        at = block * emulator.FS_BLOCK_SIZE
        assert pico.image.read_bytes()[at:at + 256] == b"\x0c" * 256


def fen_now(pico):
    """The position as the console's `fen` gives it (not a PGN's [FEN] tag).
    Lines are handled in turn, so the line before it is done by then."""
    pico.send("fen")
    return pico.read_until(lambda line: line.count("/") == 7 and not line.startswith("["))[-1]


def test_a_game_outlasts_a_power_cut_and_is_pulled_back(tmp_path):
    with emulator.EmulatedPico() as pico:
        pico.read_until(BANNER)
        pico.send("")  # Enter: the console
        pico.read_until("White to move")
        for line in ("new 518", "time 0.1", "e4"):
            pico.send(line)
        pico.read_until("micro960 plays 1...")
        before_the_cut = fen_now(pico)  # saved by now: the console saves after every move

        pico.power_cut()
        pico.read_until(BANNER)
        pico.send("")
        said = pico.read_until("White to move")
        assert any(line.startswith("Resuming your saved game") for line in said), said
        assert fen_now(pico) == before_the_cut
        pico.send("Nf3")  # legal whatever Black answered to 1. e4
        pico.read_until("micro960 plays 2...")
        final = fen_now(pico)
        pico.send("resign")
        pico.read_until("Game over: 0-1 (White resigns)")
        fen_now(pico)  # the game is archived by the time the console answers this
        assert "game.txt" not in pico.files().listdir("/")  # the finished game is not offered again

        assert pull.main(["--port", pico.serial_port(), "--to", str(tmp_path)]) == 0

    text = (tmp_path / "games.pgn").read_text()
    assert text.count("[Event ") == 1, text
    game = chess.pgn.read_game(io.StringIO(text))
    assert game.headers["Variant"] == "Chess960" and game.headers["Result"] == "0-1", text
    moves = [move.uci() for move in game.mainline_moves()]
    assert len(moves) == 4 and moves[0] == "e2e4" and moves[2] == "g1f3", text
    assert game.end().board().fen() == final, text


def copied(out):
    """The files `micro960 flash` copied, from its `[i/n] PATH (size)` lines."""
    return re.findall(r"^\[\d+/\d+\] (\S+) \(", out, re.M)


@pytest.mark.slow
def test_micro960_flash_with_the_real_mpremote_copies_only_what_changed(capsys):
    with emulator.EmulatedPico(board=None) as pico:  # MicroPython's .uf2 and nothing else
        port = pico.serial_port()
        assert flash.main(["--port", port]) == 0
        out = capsys.readouterr().out
        assert copied(out) == flash.bundle_paths(), out
        # The self-test ran on the device, its perft right (this is the
        # emulated Pico's self-test: a test of its own ran it again).
        assert "  self-test passed" in out.splitlines(), out
        assert any(line.startswith("  perft startpos depth 3: 8902 ok") for line in
                   out.splitlines()), out
        pico.read_until(BANNER)  # flash resets the board: micro960 starts

        # Another board's configuration: only board.py differs. (Its self-test
        # would repeat the one above: --no-selftest, some 20 s less.)
        assert flash.main(["--port", port, "--board", "picow", "--no-selftest"]) == 0
        out = capsys.readouterr().out
        assert copied(out) == ["board.py"], out
        assert "Self-test" not in out and "Done: micro960 starts" in out, out
        pico.read_until("micro960 on Raspberry Pi Pico W: press Enter")
        on_the_board = pico.files()
        for path in flash.bundle_paths():
            with on_the_board.open(path, "rb") as f:
                assert f.read() == (flash.FLASH_BUILD / "picow-armv6m" / path).read_bytes(), path
