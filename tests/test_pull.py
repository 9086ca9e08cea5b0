"""`micro960 pull` (no board here: mpremote's answers are those it gives
without one) and where the PC keeps its games."""
import subprocess

import pytest

from host_tools import cli, pull, runtime
from micro960.device.storage import default_folder

PGN = '[Event "a"]\n\n1. e4 e5 *\n\n[Event "b"]\n\n1. d4 1-0\n\n'


class FakeMpremote:
    """Stands in for subprocess.run: records the command, answers like mpremote."""

    def __init__(self, returncode=0, output="", copies=PGN):
        self.returncode = returncode
        self.output = output
        self.copies = copies
        self.commands = []

    def __call__(self, command, **options):
        self.commands.append(command)
        if self.returncode == 0 and self.copies is not None:
            with open(command[-1], "w") as f:
                f.write(self.copies)
        return subprocess.CompletedProcess(command, self.returncode, "", self.output)


def test_pull_copies_games_pgn_through_a_partial_file(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    fake = FakeMpremote()
    assert pull.main([], run=fake) == 0
    command = fake.commands[0]
    assert command[1:] == ["connect", "auto", "cp", ":games.pgn", "games.pgn.part"]
    assert command[0].endswith("mpremote")
    assert (tmp_path / "games.pgn").read_text() == PGN
    assert not (tmp_path / "games.pgn.part").exists()
    assert capsys.readouterr().out == "2 games copied to games.pgn\n"


def test_pull_port_and_target_folder(tmp_path, capsys):
    fake = FakeMpremote()
    assert pull.main(["--port", "/dev/ttyACM1", "--to", str(tmp_path)], run=fake) == 0
    assert fake.commands[0][1:] == ["connect", "/dev/ttyACM1", "cp", ":games.pgn",
                                    str(tmp_path / "games.pgn.part")]
    assert (tmp_path / "games.pgn").read_text() == PGN


@pytest.mark.parametrize("output, says", [
    ("mpremote: no device found\n", "no board found on USB"),
    ("mpremote: failed to access /dev/ttyACM0 (it may be in use by another program)\n",
     "cannot open /dev/ttyACM0"),
    ("mpremote: cp: :games.pgn: No such file or directory.\n", "has no games.pgn yet"),
    ("mpremote: something new\n", "mpremote failed: mpremote: something new"),
])
def test_pull_failures_keep_an_earlier_copy(tmp_path, capsys, output, says):
    earlier = tmp_path / "mine.pgn"
    earlier.write_text("earlier games\n")
    fake = FakeMpremote(returncode=1, output=output, copies="half a fi")
    assert pull.main(["--port", "/dev/ttyACM0", "--to", str(earlier)], run=fake) == 1
    assert says in capsys.readouterr().err
    assert earlier.read_text() == "earlier games\n"
    assert not (tmp_path / "mine.pgn.part").exists()


def test_pull_from_a_port_that_is_not_there_with_the_real_mpremote(tmp_path, capsys):
    target = tmp_path / "games.pgn"
    code = cli.main(["pull", "--port", str(tmp_path / "ttyNOTHERE"), "--to", str(target)])
    assert code == 1
    assert "micro960 pull: cannot open" in capsys.readouterr().err
    assert not target.exists() and not (tmp_path / "games.pgn.part").exists()


def test_pull_auto_finds_no_board_with_the_real_mpremote(tmp_path, capsys):
    from serial.tools import list_ports  # mpremote's own way of looking
    if any(port.vid is not None for port in list_ports.comports()):
        pytest.skip("a USB serial device is plugged in")
    assert cli.main(["pull", "--to", str(tmp_path / "games.pgn")]) == 1
    assert "no board found on USB" in capsys.readouterr().err


def test_pull_without_mpremote(tmp_path, capsys, monkeypatch):
    def missing(name):
        raise runtime.ToolMissing("%s not found" % name)
    monkeypatch.setattr(runtime, "find_tool", missing)
    assert pull.main(["--to", str(tmp_path / "g.pgn")], run=FakeMpremote()) == 1
    assert capsys.readouterr().err == "micro960 pull: mpremote not found\n"


def test_pull_arguments():
    with pytest.raises(SystemExit):
        cli.main(["pull", "--bogus"])
    with pytest.raises(SystemExit) as exit:
        cli.main(["pull", "--help"])
    assert exit.value.code == 0


def test_the_pc_keeps_its_games_in_the_user_data_folder(monkeypatch):
    for name in ("MICRO960_GAMES", "XDG_DATA_HOME", "APPDATA"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", "/home/ann")
    assert default_folder() == "/home/ann/.local/share/micro960"
    monkeypatch.setenv("XDG_DATA_HOME", "/data")
    assert default_folder() == "/data/micro960"
    monkeypatch.setenv("MICRO960_GAMES", "/games")
    assert default_folder() == "/games"
