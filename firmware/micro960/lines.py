"""Lines from standard input, waiting for them or not.

The UCI engine must notice `stop` in the middle of a search, so besides a
blocking readline() there is poll(), which returns a whole line only if one
has arrived. MicroPython polls the stream and reads one character at a time
(a larger read blocks on the Pico); CPython reads in a background thread.
"""
import sys

from .compat import IS_MICROPYTHON


class StdinLines:
    def __init__(self, stream=None):
        stream = stream or sys.stdin
        self._source = _PolledLines(stream) if IS_MICROPYTHON else _ThreadedLines(stream)

    def readline(self):
        """The next line (without its end), waiting for it; None at end of input."""
        return self._source.readline()

    def poll(self):
        """The next line if a whole one has arrived, else None."""
        return self._source.poll()


class _PolledLines:
    def __init__(self, stream):
        import select
        self.stream = stream
        self.poller = select.poll()
        self.poller.register(stream, select.POLLIN)
        self.partial = ""
        self.ended = False

    def _read(self, timeout):
        """Read what is ready; a finished line, or None."""
        while not self.ended and self.poller.poll(timeout):
            ch = self.stream.read(1)
            if not ch:
                self.ended = True
                break
            if ch in "\r\n":
                if self.partial:
                    line = self.partial
                    self.partial = ""
                    return line
            else:
                self.partial += ch
            timeout = 0
        if self.ended and self.partial:
            line = self.partial
            self.partial = ""
            return line
        return None

    def poll(self):
        return self._read(0)

    def readline(self):
        while not self.ended:
            line = self._read(-1)
            if line is not None:
                return line
        return self._read(0)


class _ThreadedLines:
    def __init__(self, stream):
        import queue
        import threading
        self.queue = queue.Queue()
        self.ended = False
        threading.Thread(target=self._pump, args=(stream,), daemon=True).start()

    def _pump(self, stream):
        for line in iter(stream.readline, ""):
            line = line.rstrip("\r\n")
            if line:
                self.queue.put(line)
        self.queue.put(None)

    def readline(self):
        if self.ended:
            return None
        line = self.queue.get()
        self.ended = line is None
        return line

    def poll(self):
        if self.ended or self.queue.empty():
            return None
        return self.readline()
