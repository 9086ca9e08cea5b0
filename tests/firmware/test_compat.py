"""compat: the one place that loads a module on demand and gives it back.

Runs on CPython and, through tests/mprun.py, on the MicroPython unix port.
"""
import sys

from micro960 import compat


def test_release_gives_back_a_package_it_empties():
    """A board keeps a package's module object (and its place in micro960's
    names) only while a module of it is loaded: main.py's board settings leave
    no empty micro960.device behind. CPython keeps what it loads."""
    import micro960
    loaded = [key[len("micro960."):] for key in sys.modules if key.startswith("micro960.eboard.")]
    compat.release(*loaded)
    assert compat.load("eboard.debounce") is sys.modules["micro960.eboard.debounce"]
    assert "micro960.eboard" in sys.modules
    compat.release("eboard.debounce")
    if compat.IS_MICROPYTHON:
        assert "micro960.eboard.debounce" not in sys.modules
        assert "micro960.eboard" not in sys.modules and "eboard" not in micro960.__dict__
    else:
        assert "micro960.eboard.debounce" in sys.modules


def test_release_keeps_a_package_another_module_of_it_needs():
    compat.load("rules.fen")
    assert "micro960.rules.position" in sys.modules or compat.load("rules.position")
    compat.release("rules.fen")
    assert "micro960.rules" in sys.modules and "micro960.rules.position" in sys.modules
