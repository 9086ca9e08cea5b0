"""The import contracts (tests/layers.py): the layers run one way, no import
circles, no private names across modules, over the firmware and host_tools/.

    .venv/bin/python -m tests.layers    # the counts and each breach
"""

from tests import layers


def test_no_module_imports_another_that_imports_it_back():
    edges, _ = layers.graph()
    assert layers.circles(edges) == []


def test_no_module_uses_another_module_s_private_names():
    assert layers.counts()["private names"] == []


def test_each_firmware_module_imports_only_its_layer_and_those_below():
    assert layers.counts()["layer breaches"] == []


def test_every_firmware_module_is_in_a_layer():
    _, paths = layers.graph()
    firmware = [module for module in paths if module.startswith("micro960")]
    assert len(firmware) > 40
    assert [module for module in firmware if layers.layer_of(module) is None] == []


def test_drivers_import_nothing_of_chess():
    edges, _ = layers.graph()
    for module, targets in edges.items():
        if layers.layer_of(module) == "drivers":
            assert set(layers.layer_of(t) for t, _, _ in targets) <= {"runtime", "drivers"}, module


# The counter itself, on made-up modules: it must see what it is there to see.

def test_the_counter_finds_a_circle_through_three_modules():
    edges = {"a": [("b", [], 1)], "b": [("c", [], 1)], "c": [("a", [], 1)], "d": [("a", [], 1)]}
    assert layers.circles(edges) == [["a", "b", "c"]]


def test_the_counter_reads_every_form_of_import(tmp_path):
    source = tmp_path / "m.py"
    source.write_text("from .position import _push, WHITE\n"
                      "from . import movegen\n"
                      "def f():\n"
                      "    from micro960.fen import parse\n"
                      "    import micro960.search\n")
    modules = {"micro960", "micro960.m", "micro960.position", "micro960.movegen",
               "micro960.fen", "micro960.search"}
    found = layers.imports("micro960.m", str(source), modules)
    assert sorted((target, names) for target, names, _ in found) == [
        ("micro960.fen", ["parse"]), ("micro960.movegen", []),
        ("micro960.position", ["_push", "WHITE"]), ("micro960.search", [])]
    edges = {"micro960.m": [(t, n, line) for t, n, line in found]}
    assert [name for _, _, name, _ in layers.private_names(edges)] == ["_push"]


def test_the_counter_knows_each_module_s_layer():
    assert layers.layer_of("micro960.rules.position") == "rules"
    assert layers.layer_of("micro960.text.console_help") == "text"
    assert layers.layer_of("micro960.compat") == "runtime"
    assert layers.layer_of("micro960.position") is None  # the old flat layout: no layer
    assert layers.layer_of("micro960.device.sensor_matrix") == "drivers"
    assert layers.layer_of("micro960.device.storage") == "device"
    assert layers.layer_of("micro960.text.uci") == "text"
    assert "text" not in layers.ALLOWED["eboard"] and "eboard" not in layers.ALLOWED["rules"]


def test_the_counts_command_prints_zeros(capsys):
    assert layers.main() == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:3] == ["import circles: 0", "cross-module private names: 0",
                       "imports against the layers: 0"]
