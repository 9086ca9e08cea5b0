"""CPython's stand-ins for what MicroPython has built in: the `micropython`
module (const and the native and viper decorators) and the ticks clock.

compat.py takes them from here only on CPython, so a board never loads this.
"""
from time import monotonic


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


def ticks_ms():
    return int(monotonic() * 1000)


def ticks_diff(end, start):
    return end - start


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
