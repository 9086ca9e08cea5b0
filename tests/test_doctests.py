"""Every example written in a firmware or host-tool module's docstrings runs
(on CPython), so an example that goes stale fails here. A module with
examples is found by its `>>> ` lines: a new one is run without a word here.
An example that cannot run here (the self-test's output on a Pico) says
so with `# doctest: +SKIP`."""
import doctest
import importlib

import pytest

from conftest import FIRMWARE, REPO

SOURCES = [(FIRMWARE, path) for path in sorted(FIRMWARE.rglob("*.py"))] + \
          [(REPO, path) for path in sorted((REPO / "host_tools").rglob("*.py"))
           if "node_modules" not in path.parts]
WITH_EXAMPLES = [(root, path) for root, path in SOURCES if ">>> " in path.read_text()]


def module_name(root, path):
    return ".".join(path.relative_to(root).with_suffix("").parts)


def test_examples_are_found():
    names = [module_name(root, path) for root, path in WITH_EXAMPLES]
    assert "micro960.rules.notation" in names and "host_tools.match" in names


@pytest.mark.parametrize("root, path", WITH_EXAMPLES,
                         ids=[module_name(root, path) for root, path in WITH_EXAMPLES])
def test_examples_run(root, path):
    module = importlib.import_module(module_name(root, path))
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
