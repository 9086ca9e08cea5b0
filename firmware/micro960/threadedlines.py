"""Standard input on CPython: read by a thread, so that a search can poll it.

MicroPython polls the stream instead (lines.py); this module is never
loaded on a board.
"""


class ThreadedLines:
    """A thread reads raw text; the caller's thread edits it, so any echo is
    written in order with everything else the caller prints."""

    def __init__(self, stream, editor):
        import queue
        import threading
        self.empty = queue.Empty
        # SimpleQueue, not Queue: Queue.get takes a Python-level lock, and a
        # Ctrl-C that lands just after it is taken (a search polls here all
        # the time) leaves it held, so the next readline waits for ever.
        self.queue = queue.SimpleQueue()
        self.editor = editor
        self.ready = []  # lines edited but not yet returned
        self.ended = False
        threading.Thread(target=self._pump, args=(stream,), daemon=True).start()

    def _pump(self, stream):
        try:
            fd = stream.fileno()
        except (AttributeError, OSError, ValueError):  # e.g. io.StringIO
            fd = None
        if fd is None:
            for text in iter(stream.readline, ""):
                self.queue.put(text)
        else:
            # Whatever has arrived, not a whole line: a raw terminal ends
            # lines with a lone CR, which readline() would wait past.
            import codecs
            import os
            decoder = codecs.getincrementaldecoder("utf-8")("replace")
            data = os.read(fd, 4096)
            while data:
                self.queue.put(decoder.decode(data))
                data = os.read(fd, 4096)
        self.queue.put(None)

    def _next(self, block):
        while not self.ready:
            if self.ended:
                return None
            try:
                text = self.queue.get(block)
            except self.empty:
                return None
            if text is None:
                self.ended = True
                text = self.editor.finish()
                if text is not None:
                    self.ready.append(text)
                continue
            for ch in text:
                line = self.editor.feed(ch)
                if line is not None:
                    self.ready.append(line)
        return self.ready.pop(0)

    def readline(self):
        return self._next(True)

    def poll(self):
        return self._next(False)
