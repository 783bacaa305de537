"""Column conversion between the analyzer (code points) and the client's position encoding.

LSP clients count columns in UTF-16 code units unless both sides agree on UTF-8 or UTF-32
during ``initialize``.  The analyzer counts Unicode code points.  Almost every line of Python
source is ASCII, where all three agree, so the conversions start with that shortcut.
"""

from __future__ import annotations

UTF8 = "utf-8"
UTF16 = "utf-16"
UTF32 = "utf-32"


def to_client_column(line: str, column: int, encoding: str) -> int:
    """Code-point column in ``line`` -> column in the client's units, at most the line's end
    (the analyzer may point one past it, at the end of a line that ends too early)."""
    if column <= 0:
        return 0
    if encoding == UTF32 or line.isascii():
        return min(column, len(line))
    head = line[:column]
    if encoding == UTF8:
        return len(head.encode("utf-8", errors="surrogatepass"))
    return len(head.encode("utf-16-le", errors="surrogatepass")) // 2


def from_client_column(line: str, column: int, encoding: str) -> int:
    """Column in the client's units -> code-point column, clamped to the line."""
    if column <= 0:
        return 0
    if encoding == UTF32 or line.isascii():
        return min(column, len(line))
    width = 1 if encoding == UTF8 else 2
    codec = "utf-8" if encoding == UTF8 else "utf-16-le"
    units = 0
    for index, char in enumerate(line):
        step = len(char.encode(codec, errors="surrogatepass")) // width
        if units + step > column:
            return index
        units += step
    return len(line)
