"""What the analysis tests share: a steady synthetic throughput."""

from __future__ import annotations

import numpy as np


def steady(n: int = 600, level: float = 1000.0, noise: float = 30.0, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """`n` reports one second apart around `level`, with normal noise of `noise` (seeded)."""
    rng = np.random.default_rng(seed)
    return np.arange(1, n + 1, dtype=float), level + rng.normal(0, noise, n)
