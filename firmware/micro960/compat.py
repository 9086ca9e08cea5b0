"""The `micropython` module, or identity stand-ins for it on CPython.

Firmware modules write `from .compat import micropython, const` and then
`@micropython.viper`; MicroPython's compiler acts on those decorators by name,
and CPython runs the same source through the stand-ins of cpython.py.

It is also the package's top (micro960/ is a folder without __init__.py,
which costs a board 100 bytes of heap): VERSION and the one way to load and
release a module on demand.
"""
VERSION = "0.1.0"  # pyproject.toml and package.json say the same

try:
    import micropython
    from time import ticks_diff, ticks_ms  # noqa: F401
    IS_MICROPYTHON = True
    stack_use = micropython.stack_use
except ImportError:
    IS_MICROPYTHON = False
    from .cpython import micropython, stack_use, ticks_diff, ticks_ms  # noqa: F401

const = micropython.const


def ptr8(buffer):
    """Viper's pointer casts (ptr8(buf) in a viper function) and argument
    annotations: MicroPython's compiler acts on the names; on CPython they
    must exist, and a buffer indexes the same way as the pointer would."""
    return buffer


ptr16 = ptr32 = ptr8


def zeros(typecode, count):
    """An array of `count` zeros.

    Both runtimes copy a bytes initializer into an array as raw memory. On
    MicroPython that needs the memory twice over at once, which a small heap
    may not have in one piece; from a range the array is allocated once, at
    its final size, and then cleared.
    """
    from array import array
    if not IS_MICROPYTHON:
        return array(typecode, bytes(count * array(typecode).itemsize))
    import gc
    gc.collect()  # a large buffer needs a free run of heap: clear the garbage first
    buffer = array(typecode, range(count))
    for i in range(count):
        buffer[i] = 0
    return buffer


def load(name):
    """The module micro960.<name> (e.g. "rules.fen"), imported now if it is not
    loaded: the one way to a module used now and then that a module below
    it cannot import (Position's FEN code). release() gives it back."""
    import sys
    __import__("micro960." + name)  # at once if it is loaded
    return sys.modules["micro960." + name]


def release(*names):
    """Forget the modules micro960.<name> loaded for a moment's use (numbering
    start positions, writing PGN, the help text): on a board their code is
    loaded into RAM, and this gives that heap back to the game until the next
    use imports them again. Whatever imported them must keep no reference.
    CPython has no heap to save and keeps them."""
    if not IS_MICROPYTHON:
        return
    import sys
    for name in names:
        full = "micro960." + name
        # The module, then its package (a module object too) if nothing else of it is loaded.
        while sys.modules.pop(full, None) is not None:
            parent, _, leaf = full.rpartition(".")  # the package that holds it
            package = sys.modules.get(parent)
            if package is not None and leaf in package.__dict__:
                delattr(package, leaf)
            full = parent
            if full == "micro960" or any(key.startswith(full + ".") for key in sys.modules):
                break
