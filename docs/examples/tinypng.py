"""A tiny line-chart PNG writer (zlib and struct only), so the RL example needs no plotting library."""

from __future__ import annotations

import struct
import zlib

# 3x5 pixel digits for tick labels
_FONT = {
    "0": "111101101101111", "1": "010110010010111", "2": "111001111100111", "3": "111001111001111",
    "4": "101101111001001", "5": "111100111001111", "6": "111100111101111", "7": "111001010010010",
    "8": "111101111101111", "9": "111101111001111", ".": "000000000000010", "%": "101001010100101",
}


class Canvas:
    """An RGB image to draw lines and small labels on."""

    def __init__(self, width: int, height: int, background=(255, 255, 255)):
        self.width, self.height = width, height
        self.rows = [bytearray(bytes(background) * width) for _ in range(height)]

    def dot(self, x: int, y: int, colour, size: int = 1) -> None:
        for dy in range(size):
            for dx in range(size):
                px, py = x + dx, y + dy
                if 0 <= px < self.width and 0 <= py < self.height:
                    self.rows[py][3 * px:3 * px + 3] = bytes(colour)

    def line(self, x0: int, y0: int, x1: int, y1: int, colour, size: int = 1) -> None:
        steps = max(abs(x1 - x0), abs(y1 - y0), 1)
        for i in range(steps + 1):
            self.dot(round(x0 + (x1 - x0) * i / steps), round(y0 + (y1 - y0) * i / steps), colour, size)

    def text(self, x: int, y: int, text: str, colour=(60, 60, 60), scale: int = 2) -> None:
        for k, ch in enumerate(text):
            bits = _FONT.get(ch)
            if bits is None:
                continue
            for i, bit in enumerate(bits):
                if bit == "1":
                    self.dot(x + k * 4 * scale + (i % 3) * scale, y + (i // 3) * scale, colour, scale)

    def png(self) -> bytes:
        raw = b"".join(b"\x00" + bytes(row) for row in self.rows)

        def chunk(kind: bytes, data: bytes) -> bytes:
            return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)
        return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def line_chart(path: str, series: list, x_max: int, colours=((200, 60, 40), (40, 90, 200)),
               width: int = 640, height: int = 360) -> None:
    """Plot series of (x, y) points with y in 0..1 against x in 0..x_max; gridlines at y = 0, 0.25 ... 1."""
    c = Canvas(width, height)
    left, right, top, bottom = 60, width - 20, 20, height - 40

    def at(x: float, y: float) -> tuple[int, int]:
        return round(left + (right - left) * x / x_max), round(bottom - (bottom - top) * y)

    for k in range(5):
        y = k / 4
        c.line(*at(0, y), *at(x_max, y), (225, 225, 225))
        c.text(8, at(0, y)[1] - 5, f"{y:.2f}".rstrip("0").rstrip(".") if y else "0")
    for k in range(5):
        x = x_max * k // 4
        c.line(*at(x, 0), *at(x, 0.02), (120, 120, 120))
        label = str(x)
        c.text(min(at(x, 0)[0] - 4 * len(label), width - 8 * len(label)), bottom + 10, label)
    c.line(left, bottom, right, bottom, (90, 90, 90))
    c.line(left, top, left, bottom, (90, 90, 90))
    for points, colour in zip(series, colours, strict=False):
        for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
            c.line(*at(x0, y0), *at(x1, y1), colour, 2)
    with open(path, "wb") as f:
        f.write(c.png())
