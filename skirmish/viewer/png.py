"""A small PNG writer (and reader of what it writes): numpy + zlib, no imaging library."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import numpy as np

from ..errors import SkirmishError

_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def encode_png(pixels: np.ndarray, text: dict[str, str] | None = None) -> bytes:
    """PNG bytes of an (h, w, 3) RGB or (h, w, 4) RGBA uint8 array, top row first.

    Rows use the "Up" filter (good for flat-coloured pictures).

    >>> decode_png(encode_png(np.full((2, 3, 3), 7, np.uint8))).shape
    (2, 3, 3)
    """
    a = np.ascontiguousarray(pixels, dtype=np.uint8)
    if a.ndim != 3 or a.shape[2] not in (3, 4):
        raise SkirmishError(f"a PNG needs an (h, w, 3|4) array, got shape {a.shape}")
    h, w, c = a.shape
    rows = a.reshape(h, w * c)
    up = rows.copy()
    up[1:] = rows[1:] - rows[:-1]  # uint8 arithmetic wraps, as the filter wants
    raw = np.empty((h, w * c + 1), np.uint8)
    raw[:, 0] = 2
    raw[:, 1:] = up
    raw[0, 0] = 0
    raw[0, 1:] = rows[0]
    header = struct.pack(">IIBBBBB", w, h, 8, 6 if c == 4 else 2, 0, 0, 0)
    out = _SIGNATURE + _chunk(b"IHDR", header)
    for k, v in (text or {}).items():
        out += _chunk(b"tEXt", k.encode("latin-1", "replace") + b"\0" + v.encode("latin-1", "replace"))
    return out + _chunk(b"IDAT", zlib.compress(raw.tobytes(), 9)) + _chunk(b"IEND", b"")


def write_png(path: str | Path, pixels: np.ndarray, text: dict[str, str] | None = None) -> Path:
    p = Path(path)
    try:
        p.write_bytes(encode_png(pixels, text))
    except OSError as exc:
        raise SkirmishError(f"{path}: cannot write the picture: {exc.strerror}") from None
    return p


def decode_png(data: bytes) -> np.ndarray:
    """Pixels of an 8-bit, non-interlaced RGB/RGBA PNG (any row filter): (h, w, c) uint8."""
    if data[:8] != _SIGNATURE:
        raise SkirmishError("not a PNG file")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    if header is None:
        raise SkirmishError("PNG without a header")
    w, h, depth, ctype, _, _, interlace = header
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise SkirmishError("only 8-bit non-interlaced RGB/RGBA PNGs are read")
    c = 4 if ctype == 6 else 3
    raw = np.frombuffer(zlib.decompress(idat), np.uint8).reshape(h, w * c + 1)
    out = np.zeros((h, w * c), np.int32)
    prev = np.zeros(w * c, np.int32)
    for y in range(h):
        f, line = raw[y, 0], raw[y, 1:].astype(np.int32)
        if f == 0:
            cur = line
        elif f == 2:
            cur = (line + prev) & 255
        else:  # Sub, Average, Paeth: byte by byte
            cur = np.zeros_like(line)
            for i in range(w * c):
                a = cur[i - c] if i >= c else 0
                b = prev[i]
                cc = prev[i - c] if i >= c else 0
                if f == 1:
                    pred = a
                elif f == 3:
                    pred = (a + b) // 2
                else:
                    p = a + b - cc
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - cc)
                    pred = a if pa <= pb and pa <= pc else (b if pb <= pc else cc)
                cur[i] = (line[i] + pred) & 255
        out[y] = cur
        prev = cur
    return out.astype(np.uint8).reshape(h, w, c)
