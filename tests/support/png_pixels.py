"""Reads the pixels of a PNG (8-bit RGB, RGBA or palette, not interlaced: what the pictures
and screenshots are), so tests can look at colours where a person would."""

from __future__ import annotations

import struct
import zlib


class Image:
    def __init__(self, data: bytes, rows: int | None = None) -> None:
        """Decode `data`; `rows`: only the first so many rows (the rest stay unread)."""
        assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
        pos, idat, self.palette = 8, b"", b""
        while pos < len(data):
            (length,) = struct.unpack(">I", data[pos:pos + 4])
            kind = data[pos + 4:pos + 8]
            body = data[pos + 8:pos + 8 + length]
            if kind == b"IHDR":
                self.width, self.height, depth, colour, _, _, interlace = struct.unpack(
                    ">IIBBBBB", body)
                assert depth == 8 and colour in (2, 3, 6) and interlace == 0, (depth, colour)
                self.channels = {2: 3, 3: 1, 6: 4}[colour]
            elif kind == b"PLTE":
                self.palette = body
            elif kind == b"IDAT":
                idat += body
            pos += 12 + length
        raw = zlib.decompress(idat)
        stride = self.width * self.channels
        decoded: list[bytearray] = []
        prev = bytearray(stride)
        n = self.channels
        for y in range(self.height if rows is None else min(rows, self.height)):
            start = y * (stride + 1)
            kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
            for i in range(stride):
                left = line[i - n] if i >= n else 0
                up = prev[i]
                corner = prev[i - n] if i >= n else 0
                if kind == 1:
                    line[i] = (line[i] + left) & 0xFF
                elif kind == 2:
                    line[i] = (line[i] + up) & 0xFF
                elif kind == 3:
                    line[i] = (line[i] + (left + up) // 2) & 0xFF
                elif kind == 4:
                    p = left + up - corner
                    pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                    pred = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                    line[i] = (line[i] + pred) & 0xFF
            decoded.append(line)
            prev = line
        self.rows = decoded

    def pixel(self, x: float, y: float) -> str:
        """The colour at (x, y) as `#rrggbb`."""
        row = self.rows[int(y)]
        if self.channels == 1:  # an index into the palette
            i = row[int(x)] * 3
            return "#{:02x}{:02x}{:02x}".format(*self.palette[i:i + 3])
        i = int(x) * self.channels
        return "#{:02x}{:02x}{:02x}".format(*row[i:i + 3])
