"""Ask the semantic model about ``reveal(expr)`` calls written in a snippet."""

from __future__ import annotations

import ast
import textwrap

from tests.helpers import analyzer
from tflsp.analysis.context import BlockContext
from tflsp.analysis.semantic import values as v


def contexts(source: str, target_keras: str = "3") -> list[BlockContext]:
    """A context per block of ``source`` (dedented), as the engine builds them."""
    tool = analyzer("ALL", target_keras)
    result = tool.analyze(textwrap.dedent(source))
    assert result.summary is not None
    out = []
    for ordinal, block in enumerate(result.blocks):
        analysis = block.analysis
        assert analysis.index is not None and analysis.parsed.tree is not None
        out.append(
            BlockContext(
                analysis.text,
                analysis.parsed.tree,
                analysis.index,
                result.summary,
                frozenset(),
                ordinal=ordinal,
            )
        )
    return out


def revealed(source: str, target_keras: str = "3") -> list[v.Values]:
    """The values of the argument of every ``reveal(...)`` call, in source order."""
    found: list[v.Values] = []
    for ctx in contexts(source, target_keras):
        for call in ctx.index.nodes(ast.Call):
            if isinstance(call.func, ast.Name) and call.func.id == "reveal":
                found.append(ctx.value(call.args[0]))
    return found


def kinds(source: str) -> list[set[str]]:
    return [{x.kind for x in values} for values in revealed(source)]


def one_kind(values: v.Values) -> str:
    assert len(values) == 1, values
    return next(iter(values)).kind
