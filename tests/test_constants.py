"""Each constant is defined once, and every copy of it agrees.

MicroPython's const() is inlined only within the module that declares it,
and a private one (`_PAWN = const(1)`) costs no heap at all, so viper code
that needs rules/position.py's piece values or engine/search.py's scores
declares them again as private constants. The rules this test holds:

- a public constant (a name without `_`) is defined in one module only;
- a constant of the same name in several modules, with or without the
  `_`, has the same value in all of them: it is one fact and its copies,

except for the few names listed in HOMONYMS, which name different things
in different modules.
"""
import ast

from conftest import FIRMWARE

# name: why it means different things in different modules
HOMONYMS = {
    # engine/search.py's frame fields (FRAME of them a ply) and the fields
    # quiescence.py keeps in the same frames below the tree: two records.
    "END": "a frame field of search.py or of quiescence.py",
    "MOVE": "a frame field of search.py or of quiescence.py",
    "NEXT": "a frame field of search.py or of quiescence.py",
    "LEGAL": "a frame field of search.py or of quiescence.py",
    "IN_CHECK": "a frame field of quiescence.py, a flag bit of search.py",
    "HASH_MOVE": "a frame field of search.py, a move score of ordering.py",
    "START": "a frame field of search.py, lines.py's first byte of a key",
    "LIMIT": "network.py's score limit, lines.py's line length",
}


def constants(path):
    """{name: value} of a file's module-level `NAME = const(INT)` and
    public `NAME = INT` lines."""
    found = {}
    for node in ast.parse(path.read_text()).body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)):
            continue
        name, value = node.targets[0].id, node.value
        if isinstance(value, ast.Call) and getattr(value.func, "id", None) == "const":
            found[name] = ast.literal_eval(value.args[0])
        elif (not name.startswith("_") and isinstance(value, ast.Constant)
              and type(value.value) is int):
            found[name] = value.value
    return found


def everything():
    """{fact's name (without `_`): {module: value}} over the firmware."""
    facts = {}
    for path in sorted(FIRMWARE.rglob("*.py")):
        module = str(path.relative_to(FIRMWARE))
        for name, value in constants(path).items():
            facts.setdefault(name.lstrip("_"), {})[module + ":" + name] = value
    return facts


def test_public_constants_are_defined_once():
    twice = {}
    for name, where in everything().items():
        public = [place for place in where if place.endswith(":" + name)]
        if len(public) > 1:
            twice[name] = public
    assert twice == {}


def test_copies_equal_their_definition():
    disagree = {name: where for name, where in everything().items()
                if name not in HOMONYMS and len(set(where.values())) > 1}
    assert disagree == {}


def test_homonyms_are_still_homonyms():
    """A name listed as a homonym that no longer differs comes off the list."""
    facts = everything()
    assert [name for name in HOMONYMS
            if len(set(facts.get(name, {}).values())) < 2] == []


def test_the_copies_are_seen():
    """The rules above see the copies they are for (a renamed copy would escape them)."""
    facts = everything()
    for name in ("EN_PASSANT", "PROMOTE_N", "SIDE", "PLY", "BOTH", "KILLER", "MATE", "FRAME"):
        assert len(facts[name]) > 1, name
