"""The worker's modules, and the web service's, form layers: no import loop among them
(an import inside a function counts as well), and the jobs a lower module enqueues by
name are there to run."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from rq.utils import import_attribute

ROOT = Path(__file__).resolve().parents[2]


def modules(room: str = "worker") -> dict[str, ast.Module]:
    """The modules of a package (not its ``__init__``: an app factory imports its
    blueprints), parsed."""
    return {f"{room}.{path.stem}": ast.parse(path.read_text(), str(path))
            for path in sorted((ROOT / room).glob("*.py")) if path.name != "__init__.py"}


def imports(tree: ast.Module, names: set[str]) -> set[str]:
    """The modules of ``names`` that ``tree`` imports, anywhere in it."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
    return found & names


@pytest.mark.parametrize("room", ["worker", "service", "events"])
def test_no_import_loop_among_the_modules(room):
    trees = modules(room)
    graph = {name: imports(tree, set(trees)) - {name} for name, tree in trees.items()}
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        assert name not in path, " -> ".join(path[path.index(name):] + [name])
        if name in done:
            return
        for other in sorted(graph[name]):
            visit(other, path + [name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])


def test_every_job_named_in_the_worker_is_a_function_there():
    named = {node.value for tree in modules().values() for node in ast.walk(tree)
             if isinstance(node, ast.Constant) and isinstance(node.value, str)
             and node.value.startswith("worker.") and node.value.count(".") == 2
             and node.value.replace(".", "").replace("_", "").isalnum()}
    assert "worker.jobs.project" in named and "worker.quiet.release" in named
    for name in sorted(named):
        assert callable(import_attribute(name)), name
