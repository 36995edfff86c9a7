"""A histogram of optimal lengths as a PNG, with zlib and struct only (no
plotting library): one bar per length on a log scale (the longest lengths
are a handful of positions among hundreds of millions), each labelled with
its length underneath in a 3×5 pixel font.

>>> data = histogram_png({0: 10, 1: 1000, 2: 3})
>>> data[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

import math
import struct
import zlib

import numpy as np

_DIGITS = {  # 3×5 glyphs, rows top to bottom, 3 bits each
    "0": (7, 5, 5, 5, 7), "1": (2, 6, 2, 2, 7), "2": (7, 1, 7, 4, 7), "3": (7, 1, 7, 1, 7), "4": (5, 5, 7, 1, 1),
    "5": (7, 4, 7, 1, 7), "6": (7, 4, 7, 5, 7), "7": (7, 1, 1, 1, 1), "8": (7, 5, 7, 5, 7), "9": (7, 5, 7, 1, 7),
}
BAR, GAP, HEIGHT, MARGIN, SCALE = 14, 4, 240, 12, 2
BACKGROUND, BAR_COLOR, LONGEST_COLOR, TEXT = (255, 255, 255), (52, 101, 164), (204, 0, 0), (40, 40, 40)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def encode_png(pixels: np.ndarray) -> bytes:
    """An RGB image (height × width × 3, uint8) as PNG bytes."""
    h, w, _ = pixels.shape
    raw = b"".join(b"\x00" + pixels[y].tobytes() for y in range(h))
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + _chunk(b"IDAT", zlib.compress(raw, 9)) + _chunk(b"IEND", b""))


def _text(img: np.ndarray, x: int, y: int, text: str) -> None:
    for ch in text:
        for row, bits in enumerate(_DIGITS[ch]):
            for col in range(3):
                if bits & (4 >> col):
                    img[y + row * SCALE:y + (row + 1) * SCALE, x + col * SCALE:x + (col + 1) * SCALE] = TEXT
        x += 4 * SCALE


def histogram_png(hist: dict[int, int]) -> bytes:
    """Bars of ``log10(1 + count)`` for lengths 0..max; the longest length in red."""
    top = max(hist) if hist else 0
    label = 6 * SCALE + 4
    width = 2 * MARGIN + (top + 1) * (BAR + GAP)
    img = np.empty((HEIGHT + label + 2 * MARGIN, width, 3), dtype=np.uint8)
    img[:] = BACKGROUND
    peak = math.log10(1 + max(hist.values(), default=1))
    base = MARGIN + HEIGHT
    for k in range(top + 1):
        x = MARGIN + k * (BAR + GAP)
        count = hist.get(k, 0)
        if count:
            bar = max(1, round(HEIGHT * math.log10(1 + count) / peak))
            img[base - bar:base, x:x + BAR] = LONGEST_COLOR if k == top else BAR_COLOR
        digits = str(k)
        _text(img, x + (BAR - (4 * len(digits) - 1) * SCALE) // 2, base + 4, digits)
    return encode_png(img)
