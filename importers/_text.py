"""Lines of a chunk for the importers that read text line by line (the SHOW statements, sysbench,
tpcc, dbSTRESS logs).

A chunk (importers/_read.py) is whole lines ending in `\\n`. They are split on `\\n` only, as the
reader cut them and as the token scanner numbers them: str.splitlines() also splits on `\\v`, `\\f`,
`\\x1c`-`\\x1e`, NEL and U+2028, so a stray form feed in a capture made every later `line N:`
warning point past the line it meant. A CR before the newline (a CRLF file) is dropped.
"""

from __future__ import annotations


def text_lines(data: bytes) -> list[str]:
    """The lines of a chunk of complete lines, decoded (invalid UTF-8 replaced), without `\\n`."""
    lines = data.decode("utf-8", "replace").split("\n")
    if lines[-1] == "":
        lines.pop()  # the chunk ends with a newline: nothing after it
    return [line[:-1] if line.endswith("\r") else line for line in lines]
