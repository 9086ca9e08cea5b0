"""The import contracts of micro960, counted: who imports whom, and what.

    .venv/bin/python -m tests.layers        # the counts, then every breach

prints the number of import circles and of cross-module private names over
the firmware (firmware/micro960, firmware/main.py, boards/*/board.py) and the
host tools (host_tools/), then each breach; tests/test_layers.py holds them
at 0. It reads the source with `ast` and imports nothing.

What counts as an import: every `import` statement, at the top of a module or
inside a function (a module loaded on demand is still a dependency), in its
relative (`from .x import y`, `from . import x`) and absolute (`from micro960
import x`, `from micro960.x import y`, `import micro960.x`) forms. A module
named by a string (`__import__`, compat.release) is not an import: the one
loader that does that is compat.

The layers, lowest first (a module may import the layers ALLOWED says):

    runtime   the package's top: compat and cpython (the runtime shim) and
              lines, threadedlines (the serial line every mode reads)
    drivers   sensors, LEDs, the OLED (no chess: the runtime only)
    rules     the board, FEN, moves, start positions, rule sets, notation,
              PGN, a game, its history and its clock
    engine    search, evaluation, ordering, SEE, table, levels, bench
    device    board settings, saved games, the self-test
    eboard    the sensor board: events to moves, its game, pondering,
              set-up, scanning, debouncing, display, simulator
    text      the console and its commands, UCI, XBoard, the command line

A module's layer is its sub-package's (micro960.rules.fen is in `rules`),
but a driver's is `drivers` in the device's package too
(micro960.device.sensor_matrix, one of DRIVERS), and a module at the
package's top (micro960.compat, one of RUNTIME) is in `runtime`.
"""
import ast
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "micro960"

LAYERS = ("runtime", "drivers", "rules", "engine", "device", "eboard", "text")
ALLOWED = {
    "runtime": ("runtime",),
    "drivers": ("runtime", "drivers"),
    "rules": ("runtime", "rules"),
    "engine": ("runtime", "rules", "engine"),
    "device": ("runtime", "rules", "engine", "device"),
    "eboard": ("runtime", "drivers", "rules", "engine", "device", "eboard"),
    # The command line starts every front end, the sensor board's simulator too.
    "text": ("runtime", "rules", "engine", "device", "eboard", "text"),
}
# The modules at the package's top, and the drivers in micro960.device.
RUNTIME = "compat cpython lines threadedlines".split()
DRIVERS = ("sensor_matrix sensor_mcp23017 sensor_shift165 led_shift595 led_ws2812 "
           "ssd1306 occupancy").split()


def layer_of(module):
    """The layer of firmware module `module` ('micro960.rules.fen'), or None."""
    parts = module.split(".")
    if parts[0] != PACKAGE:
        return None
    if len(parts) == 1:
        return "runtime"  # the package's __init__: its VERSION
    if len(parts) == 2:
        return "runtime" if parts[1] in RUNTIME else None
    if parts[1] == "device" and parts[-1] in DRIVERS:
        return "drivers"  # the device's package holds its drivers
    return parts[1] if parts[1] in LAYERS else None


# ------------------------------------------------------------ reading source

def sources():
    """(module name, path) of every module the contracts cover."""
    found = []
    firmware = os.path.join(REPO, "firmware")
    for root, dirs, files in os.walk(os.path.join(firmware, PACKAGE)):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(root, name)
                parts = os.path.relpath(path, firmware)[:-3].split(os.sep)
                if parts[-1] == "__init__":
                    parts = parts[:-1]
                found.append((".".join(parts), path))
    found.append(("main", os.path.join(firmware, "main.py")))
    boards = os.path.join(REPO, "boards")
    for name in sorted(os.listdir(boards)):
        path = os.path.join(boards, name, "board.py")
        if os.path.isfile(path):
            found.append(("boards.%s.board" % name, path))
    tools = os.path.join(REPO, "host_tools")
    for name in sorted(os.listdir(tools)):
        if name.endswith(".py"):
            module = "host_tools" if name == "__init__.py" else "host_tools." + name[:-3]
            found.append((module, os.path.join(tools, name)))
    return found


def is_package(module, modules):
    return any(other.startswith(module + ".") for other in modules)


def imports(module, path, modules):
    """[(imported module, [names imported from it], line)] of one source file."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    package = module if is_package(module, modules) else module.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append((alias.name, [], node.lineno))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")
                up = up[:len(up) - (node.level - 1)]
                base = ".".join(up + ([base] if base else []))
            plain = []
            for alias in node.names:
                sub = base + "." + alias.name
                if sub in modules:  # from . import movegen: the module itself
                    found.append((sub, [], node.lineno))
                else:
                    plain.append(alias.name)
            if plain or not node.names:
                found.append((base, plain, node.lineno))
    return found


def graph():
    """{module: [(imported module of ours, names, line)]} and {module: path}."""
    paths = dict(sources())
    modules = set(paths)
    edges = {}
    for module, path in paths.items():
        edges[module] = [(target, names, line)
                         for target, names, line in imports(module, path, modules)
                         if target in modules and target != module]
    return edges, paths


# ---------------------------------------------------------------- contracts

def circles(edges):
    """The import circles: each strongly connected group of two or more
    modules (or a module importing itself), as a sorted list of names."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):  # Tarjan's algorithm
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w, _, _ in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10000))
    try:
        for v in sorted(edges):
            if v not in index:
                visit(v)
    finally:
        sys.setrecursionlimit(limit)
    return sorted(found)


def private_names(edges):
    """[(module, imported module, name, line)] for each `_name` imported from
    another module (or a `_module` imported)."""
    found = []
    for module, targets in sorted(edges.items()):
        for target, names, line in targets:
            for name in names:
                if name.startswith("_") and not name.startswith("__"):
                    found.append((module, target, name, line))
            last = target.rpartition(".")[2]
            if not names and last.startswith("_") and not last.startswith("__"):
                found.append((module, target, last, line))
    return found


def defined_names(tree):
    """The `_names` a module defines: its functions, classes, methods and
    attributes it sets (self._x = ...)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return set(name for name in names if name.startswith("_") and not name.startswith("__"))


def private_attributes(paths):
    """[(module, name, line)] for each `thing._name` a module reads where
    `_name` is defined in another module of ours and not in its own: a
    function reaching into another module's object (console._not_over())."""
    trees = {}
    for module, path in paths.items():
        with open(path) as f:
            trees[module] = ast.parse(f.read(), path)
    defined = dict((module, defined_names(tree)) for module, tree in trees.items())
    found = []
    for module, tree in sorted(trees.items()):
        elsewhere = set()
        for other, names in defined.items():
            if other != module:
                elsewhere |= names
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                    and not node.attr.startswith("__") and node.attr not in defined[module]
                    and node.attr in elsewhere):
                found.append((module, node.attr, node.lineno))
    return found


def layer_breaches(edges):
    """[(module, imported module, why)] for each import against the layers:
    a firmware module importing a higher layer or the host tools, a module
    of no known layer. main.py, boards/ and the host tools may use any
    firmware module."""
    found = []
    for module, targets in sorted(edges.items()):
        if not module.startswith(PACKAGE + ".") and module != PACKAGE:
            if module.startswith("host_tools"):
                continue  # the host tools may use any firmware module
            continue  # main.py and boards/ start the modes: they may use any
        mine = layer_of(module)
        if mine is None:
            found.append((module, "", "is in no layer (add it to tests/layers.py's RUNTIME, DRIVERS or LAYERS)"))
            continue
        for target, _, line in targets:
            if target == PACKAGE:
                continue  # the package itself: VERSION
            if not target.startswith(PACKAGE + "."):
                found.append((module, target, "firmware imports the host tools"))
                continue
            theirs = layer_of(target)
            if theirs is None:
                found.append((target, "", "is in no layer (add it to tests/layers.py's RUNTIME, DRIVERS or LAYERS)"))
            elif theirs not in ALLOWED[mine]:
                found.append((module, target, "%s imports %s (line %d)" % (mine, theirs, line)))
    return sorted(set(found))


def on_demand(paths):
    """[(module, name)] for each compat.load("name") a module makes: the
    modules it uses without importing them (not edges of the import graph)."""
    found = []
    for module, path in sorted(paths.items()):
        with open(path) as f:
            tree = ast.parse(f.read(), path)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "load"
                    and node.args and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)):
                found.append((module, node.args[0].value))
    return sorted(set(found))


def counts():
    """{'circles': [...], 'private names': [...], 'layer breaches': [...]}:
    private names are those imported and those read off another module's
    objects."""
    edges, paths = graph()
    private = private_names(edges) + [(module, "", name, line) for module, name, line
                                      in private_attributes(paths)]
    return {"circles": circles(edges), "private names": private,
            "layer breaches": layer_breaches(edges)}


def main():
    found = counts()
    print("import circles: %d" % len(found["circles"]))
    print("cross-module private names: %d" % len(found["private names"]))
    print("imports against the layers: %d" % len(found["layer breaches"]))
    for module, name in on_demand(graph()[1]):
        print("(loaded on demand, not imported: %s loads %s.%s through compat.load)"
              % (module, PACKAGE, name))
    for group in found["circles"]:
        print("circle: " + " <-> ".join(group))
    for module, target, name, line in found["private names"]:
        if target:
            print("private: %s imports %s from %s (line %d)" % (module, name, target, line))
        else:
            print("private: %s uses another module's %s (line %d)" % (module, name, line))
    for module, target, why in found["layer breaches"]:
        print("layers: %s %s %s" % (module, target and "-> " + target, why))
    return 1 if any(found.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
