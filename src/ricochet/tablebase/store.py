"""The table file: a JSON header, then the table in independently
compressed zstd chunks, so that a memory-mapped file answers one lookup by
decompressing one chunk.

Layout (little-endian)::

    magic     8 bytes  b"RRTABLE\\x01"
    hlen      u32      length of the header
    header    hlen bytes of UTF-8 JSON (see Header)
    offsets   u64 × (chunks + 1), from the start of the first chunk
    chunks    zstd frames (with their content checksums) of ``chunk`` table bytes each

The header names the board (its position-code form), the target, the active
robot's colour, the robot count, the rules, the sizes, the SHA-256 of the
uncompressed table, the histogram of lengths and how the table was built.
"""

from __future__ import annotations

import hashlib
import json
import mmap
import os
import struct
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from .layout import TablebaseError

MAGIC = b"RRTABLE\x01"
FORMAT = "ricochet-tablebase"
VERSION = 1
CHUNK = 1 << 20
LEVEL = 3
_CACHE_CHUNKS = 64


def _zstd() -> Any:
    try:
        import zstandard
    except ImportError:
        raise TablebaseError("table files need the zstandard package: pip install 'ricochet[tablebase]'") from None
    return zstandard


def _workers() -> int:
    return max(1, min(8, os.cpu_count() or 1))


def checksum(table: np.ndarray) -> str:
    """The SHA-256 of the table bytes, in hex."""
    return hashlib.sha256(np.ascontiguousarray(table).data).hexdigest()


def save(path: str | os.PathLike[str], header: dict[str, Any], table: np.ndarray, *, chunk: int = CHUNK,
         level: int = LEVEL) -> None:
    """Write ``table`` (uint8) with ``header`` (``sha256``, ``chunk``, ``codec`` and
    ``size`` are filled in) to ``path`` atomically (a temporary file, then a rename)."""
    zstd = _zstd()
    data = np.ascontiguousarray(table, dtype=np.uint8).data
    header = {"format": FORMAT, "version": VERSION, **header, "size": len(data), "chunk": chunk, "codec": "zstd"}
    pieces = [data[i:i + chunk] for i in range(0, len(data), chunk)]

    def pack(piece: memoryview) -> bytes:
        return zstd.ZstdCompressor(level=level, write_checksum=True).compress(piece)

    with ThreadPoolExecutor(_workers()) as pool:  # zstd and hashlib release the GIL
        digest = pool.submit(checksum, table)
        frames = list(pool.map(pack, pieces))
        header["sha256"] = digest.result()
    text = json.dumps(header, separators=(",", ":")).encode()
    offsets = np.zeros(len(frames) + 1, dtype="<u8")
    offsets[1:] = np.cumsum([len(f) for f in frames])
    tmp = f"{os.fspath(path)}.tmp{os.getpid()}"
    try:
        with open(tmp, "wb") as f:
            f.write(MAGIC + struct.pack("<I", len(text)) + text + offsets.tobytes())
            f.writelines(frames)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


@dataclass(eq=False)
class StoredTable:
    """A table file opened for queries: the file is memory-mapped and each
    chunk is decompressed when first read (the last few are kept)."""

    path: str
    header: dict[str, Any]
    _map: mmap.mmap
    _offsets: np.ndarray
    _base: int

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> StoredTable:
        """Open and check a table file (its magic, header and chunk offsets)."""
        name = os.fspath(path)
        with open(name, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size < len(MAGIC) + 4:
                raise TablebaseError(f"{name}: not a tablebase file (too short)")
            mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        if mm[:len(MAGIC)] != MAGIC:
            raise TablebaseError(f"{name}: not a tablebase file (bad magic; expected a file written by "
                                 "'ricochet tablebase build')")
        (hlen,) = struct.unpack_from("<I", mm, len(MAGIC))
        start = len(MAGIC) + 4
        try:
            header = json.loads(bytes(mm[start:start + hlen]))
        except ValueError:
            raise TablebaseError(f"{name}: damaged tablebase header (not JSON)") from None
        if not isinstance(header, dict) or header.get("format") != FORMAT or header.get("version") != VERSION:
            raise TablebaseError(f"{name}: unsupported tablebase format {header.get('format')!r} "
                                 f"version {header.get('version')!r} (this program reads {FORMAT} {VERSION})")
        for key in ("size", "chunk"):
            if not isinstance(header.get(key), int) or header[key] <= 0:
                raise TablebaseError(f"{name}: damaged tablebase header (field {key!r})")
        chunks = -(-header["size"] // header["chunk"])
        at = start + hlen
        if at + 8 * (chunks + 1) > size:
            raise TablebaseError(f"{name}: truncated tablebase file (chunk offsets missing)")
        offsets = np.frombuffer(mm, dtype="<u8", count=chunks + 1, offset=at).astype(np.int64)
        base = at + 8 * (chunks + 1)
        if np.any(np.diff(offsets) <= 0) or base + int(offsets[-1]) != size:
            raise TablebaseError(f"{name}: truncated or damaged tablebase file (chunk offsets do not match its size)")
        return cls(name, header, mm, offsets, base)

    def __post_init__(self) -> None:
        self._cache: OrderedDict[int, np.ndarray] = OrderedDict()

    @property
    def size(self) -> int:
        return int(self.header["size"])

    @property
    def chunks(self) -> int:
        return len(self._offsets) - 1

    def chunk(self, i: int) -> np.ndarray:
        """The bytes of chunk ``i`` (decompressed, checked by zstd's checksum)."""
        got = self._cache.get(i)
        if got is not None:
            self._cache.move_to_end(i)
            return got
        got = self._decompress(i)
        self._cache[i] = got
        if len(self._cache) > _CACHE_CHUNKS:
            self._cache.popitem(last=False)
        return got

    def _decompress(self, i: int) -> np.ndarray:
        zstd = _zstd()
        lo, hi = self._base + int(self._offsets[i]), self._base + int(self._offsets[i + 1])
        expect = min(self.header["chunk"], self.size - i * self.header["chunk"])
        try:
            raw = zstd.ZstdDecompressor().decompress(self._map[lo:hi], max_output_size=expect)
        except zstd.ZstdError as e:
            raise TablebaseError(f"{self.path}: damaged chunk {i}: {e}") from None
        if len(raw) != expect:
            raise TablebaseError(f"{self.path}: damaged chunk {i}: {len(raw)} bytes, expected {expect}")
        return np.frombuffer(raw, dtype=np.uint8)

    def __getitem__(self, index: int) -> int:
        c, off = divmod(index, self.header["chunk"])
        return int(self.chunk(c)[off])

    def array(self, *, verify: bool = True) -> np.ndarray:
        """The whole table in memory (decompressed in parallel); with
        ``verify``, its SHA-256 is checked against the header's."""
        out = np.empty(self.size, dtype=np.uint8)
        step = self.header["chunk"]

        def one(i: int) -> None:
            piece = self._decompress(i)
            out[i * step:i * step + len(piece)] = piece

        with ThreadPoolExecutor(_workers()) as pool:
            list(pool.map(one, range(self.chunks)))
        if verify and checksum(out) != self.header.get("sha256"):
            raise TablebaseError(f"{self.path}: checksum mismatch: the table is damaged")
        return out

    def close(self) -> None:
        self._cache.clear()
        self._map.close()
