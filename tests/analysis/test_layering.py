"""The analyzer's core modules import one another in one direction only (issue 13, part 8)."""

from __future__ import annotations

import ast
from pathlib import Path

import tflsp.analysis

ANALYSIS = Path(tflsp.analysis.__file__).parent


def _imports(path: Path) -> set[str]:
    """Modules of ``tflsp.analysis`` that ``path`` imports, TYPE_CHECKING blocks included."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            if node.module.startswith("tflsp.analysis."):
                out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("tflsp.analysis."))
    return out


def _module(path: Path) -> str:
    parts = path.relative_to(ANALYSIS.parent.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_core_and_semantic_modules_have_no_import_cycle() -> None:
    paths = [*ANALYSIS.glob("*.py"), *(ANALYSIS / "semantic").glob("*.py")]
    graph = {_module(p): _imports(p) for p in paths}
    # Package __init__ files re-export; a module importing its package is no cycle.
    graph = {m: {d for d in deps if d in graph and d != m} for m, deps in graph.items()}

    def visit(node: str, path: list[str], done: set[str]) -> None:
        if node in path:
            raise AssertionError("import cycle: " + " -> ".join([*path[path.index(node) :], node]))
        if node in done:
            return
        for dep in sorted(graph.get(node, ())):
            visit(dep, [*path, node], done)
        done.add(node)

    done: set[str] = set()
    for module in sorted(graph):
        visit(module, [], done)


def test_the_semantic_model_does_not_know_detectors_or_the_summary() -> None:
    for path in (ANALYSIS / "semantic").glob("*.py"):
        for name in _imports(path):
            assert not name.startswith(
                ("tflsp.analysis.detectors", "tflsp.analysis.summary", "tflsp.analysis.context")
            ), (path.name, name)
