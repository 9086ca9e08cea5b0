"""Helpers shared by the firmware tests, which run on CPython and MicroPython."""
import os

from micro960.rules.movegen import legal_moves, move_buffer


def data_path(name):
    """A file of the reference data; MICRO960_DATA names the folder (tests/data)."""
    return (os.getenv("MICRO960_DATA") or "tests/data") + "/" + name


def tsv_rows(name):
    """Yield the rows of a data table as lists of fields, header skipped.

    Read line by line: the tables do not fit a 64K heap whole.
    """
    with open(data_path(name)) as f:
        f.readline()
        for line in f:
            if line.strip():
                yield line.rstrip("\r\n").split("\t")


def raises(exception, function, *args):
    """True if function(*args) raises `exception`."""
    try:
        function(*args)
    except exception:
        return True
    return False


def legal(pos):
    buf = move_buffer()
    return [buf[i] for i in range(legal_moves(pos, buf, 0))]


class Time:
    """A clock's now(): ms that pass only when a test says so."""

    def __init__(self):
        self.ms = 1000

    def __call__(self):
        return self.ms

    def wait(self, seconds):
        self.ms += int(seconds * 1000)
