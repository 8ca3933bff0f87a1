"""Zoom history: the x ranges visited in the charts, for Back and Forward (Alt+Left/Right, the
mouse's back and forward buttons). Qt-free; the charts feed it a range once a zoom or pan settles.
None stands for "whole runs" (the charts fitting the data)."""

from __future__ import annotations

Range = tuple[float, float] | None


def same(a: Range, b: Range) -> bool:
    """Equal up to float noise: a range set programmatically may come back a few ulps off."""
    if a is None or b is None:
        return a is b
    tol = 1e-6 * max(abs(a[1] - a[0]), 1e-12)
    return abs(a[0] - b[0]) <= tol and abs(a[1] - b[1]) <= tol


class ZoomHistory:
    LIMIT = 100  # ranges kept behind the current one

    def __init__(self) -> None:
        self.current: Range = None
        self._back: list[Range] = []
        self._forward: list[Range] = []

    def visit(self, r: Range) -> None:
        """A range the user settled on: it becomes current, the forward ranges are dropped."""
        if same(r, self.current):
            return
        self._back = [*self._back, self.current][-self.LIMIT :]
        self._forward.clear()
        self.current = r

    def back(self) -> tuple[bool, Range]:
        """(moved, the range to show)."""
        if not self._back:
            return False, self.current
        self._forward.append(self.current)
        self.current = self._back.pop()
        return True, self.current

    def forward(self) -> tuple[bool, Range]:
        if not self._forward:
            return False, self.current
        self._back.append(self.current)
        self.current = self._forward.pop()
        return True, self.current

    def can_back(self) -> bool:
        return bool(self._back)

    def can_forward(self) -> bool:
        return bool(self._forward)

    def reset(self) -> None:
        self.current = None
        self._back.clear()
        self._forward.clear()
