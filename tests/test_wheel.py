"""The wheel as a pip user gets it (issue 11): everything is installed under `benchlens` (no
top-level `app` or `importers` in site-packages), it sits next to another project that does ship
top-level `app` and `importers` packages, and the console script runs from it: `--help`, and an
import of a demo run, which reads schema.sql and the demo runs through the installed package.

Offline and quick (~15 s): both wheels are built with --no-build-isolation from this venv's
setuptools (the dev extra pins setuptools>=74.1), installed with --no-index into a fresh venv
without pip; benchlens's own dependencies (numpy, PySide6, pyqtgraph) come from this venv's
site-packages through a .pth line (a path added that way is not a site dir: this venv's editable
finder .pth is not run there, so the checkout stays invisible).
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT

# What a wheel build needs of the checkout (bench/ holds hundreds of MB of outputs, tests/ the fixtures).
SKIP = shutil.ignore_patterns(
    ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis", "*.so", "*.pyd"
)


def _setuptools_ok() -> bool:
    try:
        import setuptools
    except ImportError:
        return False
    return tuple(int(p) for p in setuptools.__version__.split(".")[:2]) >= (74, 1)


def _run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{' '.join(map(str, cmd))} -> {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def _build_wheel(project: Path, out: Path) -> Path:
    pip = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-index", "--no-build-isolation"]
    _run([*pip, "-w", str(out), str(project)], cwd=out)
    (wheel,) = out.glob(f"{project.name}-*.whl")
    return wheel


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    if not _setuptools_ok():
        pytest.skip("needs setuptools>=74.1 in this venv (pip install -e '.[dev]')")
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "benchlens"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    for name in ("app", "importers", "resources", "benchlens"):
        shutil.copytree(ROOT / name, src / name, symlinks=True, ignore=SKIP)
    other = tmp / "otherproj"  # someone else's project with the generic top-level names
    for pkg in ("app", "importers"):
        (other / pkg).mkdir(parents=True)
        (other / pkg / "__init__.py").write_text(f'WHO = "otherproj {pkg}"\n')
    (other / "pyproject.toml").write_text(
        textwrap.dedent("""\
            [build-system]
            requires = ["setuptools>=74.1"]
            build-backend = "setuptools.build_meta"
            [project]
            name = "otherproj"
            version = "1.0"
            [tool.setuptools]
            packages = ["app", "importers"]
            """)
    )
    wheels = tmp / "wheels"
    wheels.mkdir()
    benchlens_wheel, other_wheel = _build_wheel(src, wheels), _build_wheel(other, wheels)

    venv = tmp / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=tmp)
    bindir = venv / ("Scripts" if os.name == "nt" else "bin")
    py = bindir / ("python.exe" if os.name == "nt" else "python")
    # The other project first, then benchlens over it: nothing of one may replace the other's files.
    pip = [sys.executable, "-m", "pip", "--python", str(py), "install", "-q", "--no-index", "--no-deps"]
    for wheel in (other_wheel, benchlens_wheel):
        _run([*pip, str(wheel)], tmp)
    site = Path(_run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], tmp).strip())
    deps = dict.fromkeys([sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])
    (site / "zz_benchlens_test_deps.pth").write_text("".join(f"{p}\n" for p in deps))
    return {"tmp": tmp, "wheel": benchlens_wheel, "py": py, "bin": bindir, "site": site}


def _env(tmp: Path) -> dict[str, str]:
    home = tmp / "home"
    home.mkdir(exist_ok=True)
    keep = {k: os.environ[k] for k in ("SYSTEMROOT", "TEMP", "TMP") if k in os.environ}  # Windows needs these
    return {
        **keep,
        "PATH": os.defpath,
        "HOME": str(home),
        "QT_QPA_PLATFORM": "offscreen",
        "BENCHLENS_DB": str(tmp / "unused.sqlite"),
    }


def test_wheel_installs_only_benchlens(installed: dict[str, Path]) -> None:
    names = zipfile.ZipFile(installed["wheel"]).namelist()
    tops = {n.split("/", 1)[0] for n in names}
    assert tops == {"benchlens", next(t for t in tops if t.endswith(".dist-info"))}, sorted(tops)
    for wanted in (
        "benchlens/__init__.py",
        "benchlens/app/cli.py",
        "benchlens/importers/__init__.py",
        "benchlens/app/store/schema.sql",
        "benchlens/app/_resources/demo/baseline/vmstat.log",
    ):
        assert wanted in names, wanted


def test_console_script_runs_next_to_another_app(installed: dict[str, Path]) -> None:
    tmp, py, env = installed["tmp"], str(installed["py"]), _env(installed["tmp"])
    # The other project's packages are intact and are what `import app` / `import importers` give.
    out = _run([py, "-c", "import app, importers; print(app.WHO, '|', importers.WHO)"], tmp, env)
    assert out.strip() == "otherproj app | otherproj importers"
    probe = textwrap.dedent("""\
        import json, benchlens.app.cli as cli
        from benchlens.app import resources
        from benchlens.app.store.migrations import schema_sql
        from benchlens.importers import _tokens
        print(json.dumps({"cli": cli.__file__, "resources": str(resources.resources_dir()),
                          "demo": [p.name for p in resources.demo_folders()],
                          "icons": len(resources.icon_files()), "schema": len(schema_sql())}))
        """)
    got = json.loads(_run([py, "-c", probe], tmp, env))
    site = installed["site"].resolve()
    assert Path(got["cli"]).resolve().is_relative_to(site / "benchlens" / "app"), got  # not the checkout
    assert Path(got["resources"]).resolve() == site / "benchlens" / "app" / "_resources", got
    assert {"baseline", "disk-stall"} <= set(got["demo"]) and got["icons"] >= 4 and got["schema"] > 100, got

    exe = str(installed["bin"] / ("benchlens.exe" if os.name == "nt" else "benchlens"))
    assert "usage: benchlens" in _run([exe, "--help"], tmp, env)
    db = tmp / "x.sqlite"
    _run([exe, "import", str(ROOT / "resources" / "demo" / "baseline"), "--db", str(db)], tmp, env)
    _run([exe, "import", got["resources"] + "/demo/disk-stall", "--db", str(db)], tmp, env)  # the installed copy
    runs = json.loads(_run([exe, "runs", "--db", str(db), "--json"], tmp, env))
    assert sorted(r["name"] for r in runs) == ["baseline", "disk-stall"], runs


def test_nothing_imports_the_top_level_names() -> None:
    """In a checkout `app` and `importers` are importable too (pytest puts the repo root on
    sys.path): a stray `from app.x import y` would pass every other test and fail only installed."""
    found = []
    paths = [p for top in ("app", "importers", "tests", "packaging") for p in (ROOT / top).rglob("*.py")]
    paths += [*(ROOT / "bench").glob("*.py"), *(ROOT / "bench").glob("*/*.py"), ROOT / "packaging" / "benchlens.spec"]
    for path in sorted(paths):
        rel = path.relative_to(ROOT).as_posix()
        if "/fixtures/" in rel:
            continue
        for node in ast.walk(ast.parse(path.read_bytes(), rel)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            found += [f"{rel}:{node.lineno}: {n}" for n in names if n.split(".")[0] in ("app", "importers")]
    assert not found, "import benchlens.app / benchlens.importers instead:\n" + "\n".join(found)
