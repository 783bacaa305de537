"""Tapes used across top-level statements (notebook and script style).

Each top-level statement is its own block, so in

    with tf.GradientTape() as tape:
        pred = model(x)
    loss = loss_fn(y, pred)
    grads = tape.gradient(loss, model.trainable_variables)

no single block sees the whole story.  Every block contributes a few events (a tape opened, a
name assigned, a gradient asked for); the module fact replays them in module order and returns
the statements to report, each identified by a structural key that the block computes again.
"""

from __future__ import annotations

import ast
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from tflsp.analysis.detectors.tape_flow import GRADIENT_METHODS, TAPE_CLASSES
from tflsp.analysis.index import NodeIndex
from tflsp.analysis.names import dotted
from tflsp.analysis.registry import module_fact
from tflsp.analysis.summary import ModuleSummary

TOP_LEVEL_TAPES = "gradients.top_level_tapes"
_COMPUTED = (ast.Call, ast.BinOp, ast.UnaryOp)


@dataclass(frozen=True, slots=True)
class Opened:
    tape: str
    callee: str | None  # None: ``with tape:`` re-enters an existing tape
    persistent: bool | None
    assigned: tuple[str, ...]  # top-level names assigned inside the with-block
    asked: int  # gradient calls on this tape inside the with-block


@dataclass(frozen=True, slots=True)
class Assigned:
    names: tuple[str, ...]
    key: Hashable  # identifies the statement


@dataclass(frozen=True, slots=True)
class Asked:
    tape: str
    target: str | None  # the loss, when it is a plain name
    key: Hashable


@dataclass(frozen=True)
class TopLevelFindings:
    # TFL505: statement key -> (tape, loss name) for assignments made after the tape closed.
    loss_outside: tuple[tuple[Hashable, str, str], ...] = ()
    # TFL502: statement key -> tape, for gradient calls on a tape that already gave one.
    asked_again: tuple[tuple[Hashable, str], ...] = ()


def statement_key(stmt: ast.stmt) -> Hashable:
    """The same statement gives the same key in whatever block position it sits."""
    return ast.dump(stmt, include_attributes=False)


def gradient_calls(stmt: ast.stmt) -> list[ast.Call]:
    return [node for node in ast.walk(stmt) if isinstance(node, ast.Call) and _asks(node)]


def _asks(call: ast.Call) -> bool:
    func = call.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr in GRADIENT_METHODS
        and isinstance(func.value, ast.Name)
    )


def receiver(call: ast.Call) -> str:
    """The tape name of a call returned by :func:`gradient_calls`."""
    func = call.func
    assert isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
    return func.value.id


def _assigned_names(stmt: ast.stmt) -> tuple[str, ...]:
    targets: list[ast.expr] = []
    if isinstance(stmt, ast.Assign):
        targets = list(stmt.targets)
    elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
        targets = [stmt.target]
    return tuple(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))


def _extract(index: NodeIndex) -> tuple[object, ...]:
    events: list[object] = []
    # Most blocks ask no tape for a gradient: then no statement needs walking for one.
    asks = any(_asks(call) for call in index.nodes(ast.Call))
    for stmt in index.tree.body:
        if isinstance(stmt, ast.With):
            for item in stmt.items:
                expr, var = item.context_expr, item.optional_vars
                tape: str | None = None
                if isinstance(var, ast.Name):
                    tape = var.id
                elif isinstance(expr, ast.Name):
                    tape = expr.id
                if tape is None:
                    continue
                inside = tuple(
                    assigned
                    for s in ast.walk(stmt)
                    if isinstance(s, ast.stmt)
                    for assigned in _assigned_names(s)
                )
                asked = len([c for c in gradient_calls(stmt) if receiver(c) == tape]) if asks else 0
                if isinstance(expr, ast.Call) and isinstance(var, ast.Name):
                    callee = dotted(expr.func)
                    events.append(Opened(tape, callee, _persistent(expr), inside, asked))
                elif isinstance(expr, ast.Name):
                    events.append(Opened(tape, None, None, inside, asked))
            continue
        if not isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr)):
            continue
        for call in gradient_calls(stmt) if asks else ():
            target = call.args[0] if call.args else None
            events.append(
                Asked(
                    receiver(call),
                    target.id if isinstance(target, ast.Name) else None,
                    statement_key(stmt),
                )
            )
        names = _assigned_names(stmt)
        value = getattr(stmt, "value", None)
        if names and isinstance(value, _COMPUTED):
            events.append(Assigned(names, statement_key(stmt)))
    return tuple(events)


def _persistent(call: ast.Call) -> bool | None:
    for kw in call.keywords:
        if kw.arg == "persistent":
            value = kw.value
            if isinstance(value, ast.Constant) and type(value.value) is bool:
                return value.value
            return None
    return False


def _combine(blocks: Sequence[Hashable], summary: ModuleSummary) -> TopLevelFindings:
    tapes: dict[str, bool | None] = {}  # open tapes -> persistent
    asked: dict[str, int] = {}  # gradient calls per tape since it was opened
    # name -> (key of the assignment, tapes already closed when it ran), or None when the
    # latest assignment happened inside a with-block (recorded).
    latest: dict[str, tuple[Hashable, frozenset[str]] | None] = {}
    loss_outside: dict[Hashable, tuple[str, str]] = {}
    asked_again: dict[Hashable, str] = {}
    for block in blocks:
        if not isinstance(block, tuple):
            continue
        for event in block:
            if isinstance(event, Opened):
                if event.callee is not None:
                    if summary.resolve(event.callee) not in TAPE_CLASSES:
                        continue
                    tapes[event.tape] = event.persistent
                    asked[event.tape] = event.asked
                elif event.tape in tapes:
                    asked[event.tape] += event.asked
                else:
                    continue
                for name in event.assigned:
                    latest[name] = None
            elif isinstance(event, Assigned):
                closed = frozenset(tapes)
                for name in event.names:
                    latest[name] = (event.key, closed)
            elif isinstance(event, Asked) and event.tape in tapes:
                asked[event.tape] += 1
                if asked[event.tape] > 1 and tapes[event.tape] is False:
                    asked_again[event.key] = event.tape
                where = latest.get(event.target or "")
                if where is not None and event.tape in where[1] and event.target:
                    loss_outside[where[0]] = (event.tape, event.target)
    return TopLevelFindings(
        tuple((k, t, n) for k, (t, n) in loss_outside.items()),
        tuple(asked_again.items()),
    )


module_fact(TOP_LEVEL_TAPES, _extract, _combine)


def top_level_findings(summary: ModuleSummary) -> TopLevelFindings:
    value = summary.extra.get(TOP_LEVEL_TAPES)
    return value if isinstance(value, TopLevelFindings) else TopLevelFindings()
