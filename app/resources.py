"""Where the bundled resources (demo runs, icons) are, installed or in a checkout."""

from __future__ import annotations

from pathlib import Path


def resources_dir() -> Path:
    return Path(__file__).resolve().parent.parent / "resources"


def demo_folders() -> list[Path]:
    demo = resources_dir() / "demo"
    return sorted(p for p in demo.iterdir() if p.is_dir()) if demo.is_dir() else []
