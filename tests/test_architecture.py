"""The shape of the code, checked: no import cycle in app/ or importers/, no function longer than
MAX_FUNCTION_LINES outside the tests. (The layer order and the Qt and sqlite3 rules are
import-linter contracts in .importlinter, run by `make lint`.)"""

from __future__ import annotations

import ast
from pathlib import Path

import grimp

from tests.conftest import ROOT

MAX_FUNCTION_LINES = 80


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None and child in graph.modules:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.find_modules_directly_imported_by(child)))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            if child is not None:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    component.append(m)
                    if m == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return out


def _package_edges_removed(graph: grimp.ImportGraph) -> None:
    """A package's __init__ re-exporting its own modules is no cycle: drop package -> own child."""
    for m in list(graph.modules):
        for child in graph.find_modules_directly_imported_by(m):
            if child.startswith(m + "."):
                graph.remove_import(importer=m, imported=child)


def test_no_import_cycle() -> None:
    graph = grimp.build_graph("benchlens", exclude_type_checking_imports=True)
    _package_edges_removed(graph)
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = grimp.ImportGraph()
    for m in ("a", "a.x", "a.y", "a.z"):
        graph.add_module(m)
    graph.add_import(importer="a.x", imported="a.y")
    graph.add_import(importer="a.y", imported="a.x")
    graph.add_import(importer="a.y", imported="a.z")
    assert _cycles(graph) == [["a.x", "a.y"]]


def _long_functions(paths: list[Path], root: Path = ROOT) -> list[str]:
    out = []
    for p in paths:
        for node in ast.walk(ast.parse(p.read_text("utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    out.append(f"{p.relative_to(root)}:{node.lineno} {node.name} ({lines} lines)")
    return out


def test_no_long_function_outside_the_tests() -> None:
    code = sorted((ROOT / "app").rglob("*.py")) + sorted((ROOT / "importers").rglob("*.py"))
    assert len(code) > 40
    assert _long_functions(code) == []


def test_a_long_function_is_found(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    (tmp_path / "m.py").write_text(f"def f():\n{body}\n\n\ndef g():\n    pass\n")
    assert _long_functions([tmp_path / "m.py"], tmp_path) == [f"m.py:1 f ({MAX_FUNCTION_LINES + 1} lines)"]
