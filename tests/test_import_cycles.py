"""No two modules of ``quotactl/`` import each other, straight or through others.

The graph is read from the source (``ast``), not from a run, and EVERY import counts: top-level,
inside a function (a lazy import that only hides a loop at start-up is still a loop between two
modules' responsibilities) and under ``if TYPE_CHECKING:``.  An edge runs to the module named:
``import quotactl.a.b`` and ``from quotactl.a import b`` (``b`` a submodule) -> ``quotactl.a.b``;
``from quotactl.a import name`` -> ``quotactl.a`` (its ``__init__``).  A package's ``__init__`` that
Python runs on the way to a submodule is not an edge: it is the package's face, and a face that
imports its own modules would otherwise tie every pair of them.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.helpers import ROOT


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Module of ``root/quotactl`` -> the modules of the package it imports (every import statement)."""
    modules = {_module_name(root, p): p for p in sorted((root / "quotactl").rglob("*.py"))}
    return {name: set(_imports(name, path, modules)) - {name} for name, path in modules.items()}


def _module_name(root: Path, path: Path) -> str:
    return ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")


def _imports(name: str, path: Path, modules: dict[str, Path]):
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if alias.name in modules)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, package)
            for alias in node.names:
                target = f"{base}.{alias.name}"
                if target in modules:
                    yield target
                elif base in modules:
                    yield base


def _absolute(node: ast.ImportFrom, package: str) -> str:
    if not node.level:
        return node.module or ""
    parts = package.split(".")
    anchor = ".".join(parts[:len(parts) - node.level + 1])
    return f"{anchor}.{node.module}" if node.module else anchor


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            child = next(edges, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def _edges_within(graph: dict[str, set[str]], component: list[str]) -> list[str]:
    members = set(component)
    return [f"{a} -> {b}" for a in component for b in sorted(graph[a] & members)]


def test_no_import_cycle_in_the_package():
    graph = import_graph()
    assert {" | ".join(c): _edges_within(graph, c) for c in cycles(graph)} == {}


def test_the_graph_sees_every_kind_of_import(tmp_path):
    # The check above must be able to fail: a loop through a lazy import, a relative import and a
    # TYPE_CHECKING import is found, and a package face is no edge of its submodules.
    pkg = tmp_path / "quotactl" / "pkg"
    pkg.mkdir(parents=True)
    (tmp_path / "quotactl" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("from quotactl.pkg.a import A\n")
    (pkg / "a.py").write_text("A = 1\ndef f():\n    from . import b\n")
    (pkg / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .c import C\n")
    (pkg / "c.py").write_text("import quotactl.pkg.a\nC = 2\n")
    (pkg / "d.py").write_text("from quotactl.pkg import A\n")
    graph = import_graph(tmp_path)
    assert graph["quotactl.pkg.d"] == {"quotactl.pkg"}
    assert cycles(graph) == [["quotactl.pkg.a", "quotactl.pkg.b", "quotactl.pkg.c"]]

