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

        viper = native

    def stack_use():
        return 0

const = micropython.const



def ptr8(buffer):
    """Viper's pointer casts (ptr8(buf) in a viper function) and argument
    annotations: MicroPython's compiler acts on the names; on CPython they
    must exist, and a buffer indexes the same way as the pointer would."""
    return buffer


ptr16 = ptr32 = ptr8

_ITEM_SIZES = {"b": 1, "B": 1, "h": 2, "H": 2, "i": 4, "I": 4}


def zeros(typecode, count):
    """An array of `count` zeros, made without a temporary list.

    Both runtimes copy a bytes initializer into an array as raw memory.
    """
    from array import array
    return array(typecode, bytes(count * _ITEM_SIZES[typecode]))


try:
    from time import ticks_diff, ticks_ms  # noqa: F401 - MicroPython
except ImportError:
    from time import monotonic

    def ticks_ms():
        return int(monotonic() * 1000)

    def ticks_diff(end, start):
        return end - start
