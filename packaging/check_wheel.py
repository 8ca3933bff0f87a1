"""Check a built benchlens wheel: every package of the checkout, the resources, no tests.

    python3 packaging/check_wheel.py dist/benchlens-*.whl [--require-compiled]

Fails (exit 1, one line per problem) when the wheel lacks a package folder of app/ or importers/
(pyproject.toml lists packages by hand; both install as benchlens/app and benchlens/importers),
app/store/schema.sql, the demo runs, the icons or the .desktop entry, or when it ships anything
outside benchlens/ (a top-level app or importers clashes with other projects, issue 11), tests/,
bench/ or the README screenshot. --require-compiled also
wants the compiled tokenizer importers/_scan.*.
"""

from __future__ import annotations

import argparse
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def problems(wheel: Path, require_compiled: bool) -> tuple[list[str], list[str]]:
    names = set(zipfile.ZipFile(wheel).namelist())
    bad: list[str] = []
    for top in ("app", "importers"):
        for init in sorted((ROOT / top).rglob("__init__.py")):
            rel = init.relative_to(ROOT).as_posix()
            if "__pycache__" not in rel and f"benchlens/{rel}" not in names:
                bad.append(f"missing package {init.parent.relative_to(ROOT).as_posix()} (add it to pyproject.toml)")
    resources = sorted(p.relative_to(ROOT / "resources").as_posix() for p in (ROOT / "resources/demo").rglob("*"))
    wanted = ["benchlens/__init__.py", "benchlens/app/store/schema.sql", "benchlens/app/_resources/benchlens.desktop"]
    wanted += ["benchlens/app/_resources/icons/benchlens.svg"]
    wanted += [f"benchlens/app/_resources/icons/benchlens-{n}.png" for n in (16, 32, 48, 256)]
    wanted += [f"benchlens/app/_resources/{r}" for r in resources if (ROOT / "resources" / r).is_file()]
    bad += [f"missing {w}" for w in wanted if w not in names]
    shipped = [n for n in names if not n.startswith("benchlens/") and ".dist-info/" not in n]
    shipped += [n for n in names if n.split("/", 2)[1] in ("tests", "bench", "resources", "packaging")]
    shipped += [n for n in names if n.endswith("screenshot.png")]
    bad += [f"should not ship {n}" for n in sorted(shipped)]
    compiled = [n for n in names if n.startswith("benchlens/importers/_scan.") and n.endswith((".so", ".pyd"))]
    if require_compiled and not compiled:
        bad.append("no compiled benchlens/importers/_scan extension (C compiler missing?)")
    facts = [
        f"{len(names)} files",
        f"{sum(n.startswith('benchlens/app/_resources/demo/') for n in names)} demo files",
        f"tokenizer core: {compiled[0] if compiled else 'pure Python only'}",
    ]
    return bad, facts


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("wheel", type=Path)
    p.add_argument("--require-compiled", action="store_true")
    args = p.parse_args()
    bad, facts = problems(args.wheel, args.require_compiled)
    for b in bad:
        print(f"check_wheel: {args.wheel.name}: {b}", file=sys.stderr)
    if not bad:
        print(f"{args.wheel.name}: ok ({', '.join(facts)})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
