"""The network's weights file, read once: network.network() loads this module
for it and releases it after, so a board keeps the weights, not the code
that read them. The format is host_tools/nnue/reference.py's (FORMAT
there); engine/network.py tells how the weights lie in `rows`.
"""
from micro960.compat import const, zeros
from micro960.engine.network import Network

_HEADER = const(18)  # bytes: magic, version, inputs, N, buckets, QA, QB, reserved
_INPUTS = const(768)


def path():
    """micro960.nnue in the package's folder (beside compat.py: the package
    has no __init__), wherever the runtime put the package."""
    from micro960 import compat
    here = compat.__file__.replace("\\", "/")
    return here[:here.rfind("/") + 1] + "micro960.nnue"


def read(name=None):
    """The Network in weights file `name` (path()'s by default); ValueError
    with a one-line reason when it is missing, of another format or corrupted."""
    name = name or path()
    try:
        return _read(name)
    except OSError as e:
        raise ValueError("%s: cannot read it (%s)" % (name, e))


def _read(name):
    import struct
    from binascii import crc32
    with open(name, "rb") as f:
        header = f.read(_HEADER)
        if len(header) < _HEADER:
            raise ValueError("%s: too short for a weights file" % name)
        magic, version, inputs, n, buckets, qa, qb, _ = struct.unpack("<4sHHHHHHH", header)
        if magic != b"M9NN":
            raise ValueError("%s: not a micro960 weights file" % name)
        if version != 3 or inputs != _INPUTS or not (n and buckets and qb) or \
                qa not in (1, 2, 4, 8, 16, 32, 64):
            raise ValueError("%s: version %d, %d inputs, N=%d, QA=%d: this reads version 3, "
                             "768 inputs, QA a power of two to 64" % (name, version, inputs, n, qa))
        # The first layer's bytes (network.py's rows8: a zero row of 128s
        # first), then the 16-bit rest (rows: b1, a zero material value, the
        # material column, W2, b2, the CRC), and one more to see the file end.
        rows8 = bytearray((_INPUTS + 1) * n)  # allocated once: a Pico's heap has no room for two
        for j in range(n):
            rows8[j] = 128
        got = f.readinto(memoryview(rows8)[n:])
        size = n + _INPUTS + 2 * n * buckets + 2 * buckets + 2  # halfwords after the bytes
        rows = zeros("H", size + 2)
        got += f.readinto(memoryview(rows)[:n])
        got += f.readinto(memoryview(rows)[n + 1:])
    if got != _INPUTS * n + 2 * size:
        raise ValueError("%s: %d bytes where N=%d needs %d (truncated or padded)"
                         % (name, _HEADER + got, n, _HEADER + _INPUTS * n + 2 * size))
    end = size - 1  # the CRC's two halves
    crc = crc32(memoryview(rows8)[n:], crc32(header))
    crc = crc32(memoryview(rows)[n + 1:end], crc32(memoryview(rows)[:n], crc))
    if crc & 0xFFFFFFFF != rows[end] | rows[end + 1] << 16:
        raise ValueError("%s: checksum mismatch (the file is corrupted)" % name)
    return Network(rows8, rows, n, buckets, qa, qb)
