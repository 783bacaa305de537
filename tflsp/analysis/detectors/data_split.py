"""tf.data family: ``*_dataset_from_directory`` subsets split differently (TFL207).

Each call of ``image/text/audio_dataset_from_directory(dir, validation_split=f,
subset="training"|"validation", seed=s, shuffle=b)`` lists and (by default) shuffles the files
with its own seed, then cuts them at ``f``.  Two calls agree on the cut only when they pass the
same seed, shuffle flag and fraction.  A module fact collects the calls of every block (module
code is one block per statement) and pairs a training call with a validation call of the same
function, scope and directory; only arguments whose values the semantic model knows are
compared, so an unknown seed or directory keeps it silent.
"""

from __future__ import annotations

import ast
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from tflsp.analysis.context import BlockContext
from tflsp.analysis.facts import semantics_of
from tflsp.analysis.index import NodeIndex
from tflsp.analysis.registry import detector, module_fact
from tflsp.analysis.semantic import values as v
from tflsp.analysis.semantic.model import qualname_of
from tflsp.analysis.semantic.terms import Term

FACT = "data.directory_splits"
FUNCTIONS = (
    "image_dataset_from_directory",
    "text_dataset_from_directory",
    "audio_dataset_from_directory",
)
_SETTINGS = ("seed", "shuffle", "validation_split")
_MISSING = object()  # an argument the call does not pass
_UNKNOWN = object()  # an argument whose value the code does not show


@dataclass(frozen=True, slots=True)
class SplitCall:
    site: int  # position among the block's candidate calls
    scope: str | None  # enclosing function (local id); None: module code
    func: Term
    directory: Term | None
    settings: tuple[tuple[str, Term], ...]  # subset, seed, shuffle, validation_split
    opaque: bool  # **kwargs or more positional arguments than the directory


def _candidates(index: NodeIndex) -> list[ast.Call]:
    """Calls passing ``subset=``: the keyword names what the semantic model then checks."""
    return [call for call in index.nodes(ast.Call) if any(k.arg == "subset" for k in call.keywords)]


def _extract(index: NodeIndex) -> Hashable:
    calls = _candidates(index)
    if not calls:
        return None
    semantics = semantics_of(index)
    terms = semantics.terms
    out = []
    for site, call in enumerate(calls):
        fn = index.enclosing_function(call)
        scope = index.scope_id(fn) if fn is not None else None
        directory = call.args[0] if call.args else _kw(call, "directory")
        settings = tuple(
            (k.arg, terms.expr(k.value)) for k in call.keywords if k.arg in ("subset", *_SETTINGS)
        )
        opaque = len(call.args) > 1 or any(k.arg is None for k in call.keywords)
        out.append(
            SplitCall(
                site,
                scope,
                terms.expr(call.func),
                terms.expr(directory) if directory is not None else None,
                settings,
                opaque,
            )
        )
    return tuple(out)


def _kw(call: ast.Call, name: str) -> ast.expr | None:
    for k in call.keywords:
        if k.arg == name:
            return k.value
    return None


# A finding: (site, message id, keyword to underline or None, message args, the other call's
# value for that keyword as source text, for the fix).
Finding = tuple[int, str, "str | None", tuple[tuple[str, str], ...], "str | None"]


@dataclass(frozen=True, slots=True)
class _Known:
    block: int
    call: SplitCall
    function: str
    subset: str
    directory: object
    values: dict[str, object]


def _combine(values: Sequence[Hashable], summary: object) -> Hashable:
    model = getattr(summary, "model", None)
    if model is None:
        return None
    known: list[_Known] = []
    for block, found in enumerate(values):
        if not isinstance(found, tuple):
            continue
        for call in found:
            if not isinstance(call, SplitCall) or call.opaque:
                continue
            name = qualname_of(model.value(call.func, block)) or ""
            function = name.rpartition(".")[2]
            if not name.startswith("keras.") or function not in FUNCTIONS:
                continue
            settings = dict(call.settings)
            subset = _constant(model, settings["subset"], block)
            if subset not in ("training", "validation"):
                continue
            read = {
                key: _constant(model, settings[key], block) if key in settings else _MISSING
                for key in _SETTINGS
            }
            directory: object = _UNKNOWN
            if call.directory is not None:
                text = _constant(model, call.directory, block)
                directory = text if text is not _UNKNOWN else call.directory
            known.append(_Known(block, call, function, str(subset), directory, read))
    findings: dict[int, list[Finding]] = {}
    for item in known:
        missing = _missing_seed(item)
        if missing is not None:
            findings.setdefault(item.block, []).append(missing)
            continue
        if item.subset != "validation":
            continue
        partners = [
            other
            for other in known
            if other.subset == "training"
            and other.function == item.function
            and other.call.scope == item.call.scope
            and (other.call.scope is None or other.block == item.block)
            and item.directory is not _UNKNOWN
            and other.directory == item.directory
            and _missing_seed(other) is None
        ]
        if not partners:
            continue
        differences = [_difference(item, other) for other in partners]
        if all(d is not None for d in differences):
            key, this_setting, other_setting = differences[0]  # type: ignore[misc]
            args = (
                ("function", item.function),
                ("subset", item.subset),
                ("this_setting", this_setting),
                ("other_subset", "training"),
                ("other_setting", other_setting),
            )
            keyword = key if key in dict(item.call.settings) else None
            theirs = partners[0].values[key]
            same = repr(theirs) if keyword is not None and theirs is not _MISSING else None
            findings.setdefault(item.block, []).append(
                (item.call.site, "default", keyword, args, same)
            )
    return tuple((block, tuple(found)) for block, found in sorted(findings.items())) or None


def _constant(model: object, term: Term, block: int) -> object:
    found = v.constants(model.value(term, block))  # type: ignore[attr-defined]
    if found is None or len(found) != 1:
        return _UNKNOWN
    return next(iter(found))


def _missing_seed(item: _Known) -> Finding | None:
    """A shuffling subset call without a seed raises ValueError in Keras 2 and 3."""
    split, seed, shuffle = (item.values[k] for k in ("validation_split", "seed", "shuffle"))
    if split in (_MISSING, _UNKNOWN, None, 0, 0.0):
        return None
    if shuffle not in (_MISSING, True) or seed not in (_MISSING, None):
        return None
    args = (("function", item.function),)
    return (item.call.site, "missing_seed", None, args, None)


def _describe(key: str, value: object) -> str:
    if value is _MISSING:
        return {"shuffle": "shuffle=True (the default)", "seed": "no seed"}.get(key, f"no {key}")
    return f"{key}={value!r}"


def _difference(item: _Known, other: _Known) -> tuple[str, str, str] | None:
    """The first setting that makes the two calls cut the files differently (all known)."""
    keys = ["shuffle"]
    shuffles = [
        True if x is _MISSING else x for x in (item.values["shuffle"], other.values["shuffle"])
    ]
    if _UNKNOWN in shuffles:
        return None
    if shuffles == [True, True]:
        keys.append("seed")  # without shuffling the seed does not matter
    keys.append("validation_split")
    for key in keys:
        mine, theirs = item.values[key], other.values[key]
        if _UNKNOWN in (mine, theirs):
            return None  # a difference we cannot see may hide behind one we can
        if key == "shuffle":
            mine, theirs = shuffles
        if mine != theirs:
            return key, _describe(key, item.values[key]), _describe(key, other.values[key])
    return None


module_fact(FACT, _extract, _combine, reads_values=True)


@detector("TFL207")
def split_seed_mismatch(ctx: BlockContext) -> None:
    fact = ctx.summary.extra.get(FACT)
    if not isinstance(fact, tuple):
        return
    found = next((f for block, f in fact if block == ctx.ordinal), ())
    if not found:
        return
    calls = _candidates(ctx.index)
    for site, message, keyword, args, same in found:
        if site >= len(calls):
            continue
        call = calls[site]
        node: ast.AST = call.func
        fix = None
        kw = ctx.keyword(call, keyword) if keyword is not None else None
        if kw is not None:
            node = kw
            if same is not None:  # give this call the other call's value
                fix = ctx.fix(ctx.replace(kw.value, same), safe=False)
        ctx.report("TFL207", node, message=message, args=dict(args), fix=fix)
