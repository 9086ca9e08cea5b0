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
        if version != 2 or inputs != _INPUTS or not (n and buckets and qa and qb):
            raise ValueError("%s: version %d, %d inputs, N=%d: this reads version 2, 768 inputs"
                             % (name, version, inputs, n))
        width = n + 1  # the units and the material column
        size = (2 * (_INPUTS + 1) * width + 4 * n * buckets + 4 * buckets + 4) // 2  # halfwords
        rows = zeros("H", width + size + 1)  # the zero row, the rest, one to see the file end
        got = f.readinto(memoryview(rows)[width:])
    if got != 2 * size:
        raise ValueError("%s: %d bytes where N=%d needs %d (truncated or padded)"
                         % (name, _HEADER + got, n, _HEADER + 2 * size))
    body = memoryview(rows)[width:width + size - 2]
    end = width + size - 2
    if crc32(body, crc32(header)) & 0xFFFFFFFF != rows[end] | rows[end + 1] << 16:
        raise ValueError("%s: checksum mismatch (the file is corrupted)" % name)
    return Network(rows, n, buckets, qa, qb)
