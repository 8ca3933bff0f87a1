"""Run colours: a run's colour is its place in the comparison (the first run colour 1, the second
colour 2 ...), the same in the window, in both of its themes and in every export, so no two runs
of one comparison look alike whatever their library ids (issue 24: they followed the library id,
repeated after 10, and the window and the export disagreed). And the contrast arithmetic (WCAG 2)
that keeps a run-coloured label readable on either theme. No Qt: the window, the renderer and
the figure's data share it."""

from __future__ import annotations

import colorsys

# Okabe-Ito's colour-blind safe set, then Paul Tol's muted wine, indigo, olive and teal; all but
# blue, vermillion, green and purple moved in lightness (by hand, with contrast()) until every
# colour is a line of >= 3:1 (WCAG 1.4.11) on the white of the exports and light theme and on the
# dark theme's #1e1f22 alike.
RUN_COLORS = (
    *("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#b87f00", "#4590ba"),  # Okabe-Ito
    *("#a65980", "#7064ac", "#8f8f30", "#3a9082"),  # Paul Tol
)
LINE_CONTRAST = 3.0  # a curve or swatch against its background
TEXT_CONTRAST = 4.5  # a label's text against its background (WCAG AA)


def run_color(k: int) -> str:
    """The colour of the k-th run of a comparison; past the palette its hue turned by a small
    step per round at the luminance it had (so it reads on both themes as the palette does):
    even the eleventh run differs from the first."""
    base = RUN_COLORS[k % len(RUN_COLORS)]
    turn = k // len(RUN_COLORS)
    if not turn:
        return base
    h, light, sat = colorsys.rgb_to_hls(*(c / 255 for c in _channels(base)))
    r, g, b = colorsys.hls_to_rgb((h + 0.07 * turn) % 1.0, light, sat)
    turned = "#" + "".join(f"{round(c * 255):02x}" for c in (r, g, b))
    target = min(max(luminance(base), 0.16), 0.27)  # inside the 3:1 of both: 0.141 to 0.30
    lighter = luminance(turned) < target
    steps = (mix(turned, "#ffffff" if lighter else "#000000", t / 100) for t in range(101))
    return next(c for c in steps if (luminance(c) >= target) == lighter or c in ("#ffffff", "#000000"))


def _channels(color: str) -> tuple[int, int, int]:
    h = color.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def mix(a: str, b: str, t: float) -> str:
    """The colour t of the way from a to b (#rrggbb)."""
    return "#" + "".join(f"{round(x * (1 - t) + y * t):02x}" for x, y in zip(_channels(a), _channels(b), strict=True))


def luminance(color: str) -> float:
    """Relative luminance (WCAG 2) of #rrggbb."""
    lin = [c / 255 / 12.92 if c / 255 <= 0.03928 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in _channels(color)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two colours, 1 to 21."""
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def readable(color: str, background: str, ratio: float = TEXT_CONTRAST) -> str:
    """The colour as text on `background`: darkened on a light one, lightened on a dark one, just
    enough to reach `ratio` (the hue stays, so a label still says which run it is)."""
    toward = "#000000" if luminance(background) > 0.18 else "#ffffff"
    t = 0.0
    while contrast(mix(color, toward, t), background) < ratio and t < 1.0:
        t += 0.05
    return mix(color, toward, min(t, 1.0))
