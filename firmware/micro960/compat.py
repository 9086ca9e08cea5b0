"""The `micropython` module, or identity stand-ins for it on CPython.

Firmware modules write `from .compat import micropython, const` and then
`@micropython.viper`; MicroPython's compiler acts on those decorators by name,
and CPython runs the same source through the stand-ins below.
"""
try:
    import micropython
    IS_MICROPYTHON = True
    stack_use = micropython.stack_use
except ImportError:
    IS_MICROPYTHON = False

    class micropython:  # noqa: N801 - mirrors the real module's name
        @staticmethod
        def const(value):
            return value

        @staticmethod
        def native(function):
            return function

        @staticmethod
        def viper(function):
            return _without_casts(function)

    def stack_use():
        return 0

const = micropython.const


def _without_casts(function):
    """CPython's copy of a viper function, with the casts taken out.

    Viper needs int(...) and ptr8(...) casts that are no-ops in Python but
    cost a call each; compiling the same source without them makes the
    CPython fallback about twice as fast. Line numbers stay those of the file.
    """
    import inspect
    import re
    try:
        lines, first = inspect.getsourcelines(function)
    except (OSError, TypeError):
        return function
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("def "))
    indent = len(lines[start]) - len(lines[start].lstrip())
    body = "".join(line[indent:] if line.strip() else "\n" for line in lines[start:])
    body = re.sub(r"\b(int|ptr8|ptr16|ptr32)\(", "(", body)
    namespace = {}
    code = compile("\n" * (first + start - 1) + body, inspect.getsourcefile(function), "exec")
    exec(code, function.__globals__, namespace)
    return namespace[function.__name__]



def ptr8(buffer):
    """Viper's pointer casts (ptr8(buf) in a viper function) and argument
    annotations: MicroPython's compiler acts on the names; on CPython they
    must exist, and a buffer indexes the same way as the pointer would."""
    return buffer


ptr16 = ptr32 = ptr8

_ITEM_SIZES = {"b": 1, "B": 1, "h": 2, "H": 2, "i": 4, "I": 4}


def zeros(typecode, count):
    """An array of `count` zeros.

    Both runtimes copy a bytes initializer into an array as raw memory. On
    MicroPython that needs the memory twice over at once, which a small heap
    may not have in one piece; from a range the array is allocated once, at
    its final size, and then cleared.
    """
    from array import array
    if not IS_MICROPYTHON:
        return array(typecode, bytes(count * _ITEM_SIZES[typecode]))
    import gc
    gc.collect()  # a large buffer needs a free run of heap: clear the garbage first
    buffer = array(typecode, range(count))
    for i in range(count):
        buffer[i] = 0
    return buffer


try:
    from time import ticks_diff, ticks_ms  # noqa: F401 - MicroPython
except ImportError:
    from time import monotonic

    def ticks_ms():
        return int(monotonic() * 1000)

    def ticks_diff(end, start):
        return end - start
