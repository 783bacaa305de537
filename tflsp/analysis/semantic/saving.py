"""Object flow for saving: which objects reach which save and load, in order.

A custom Keras class is *saved* when an object that contains one of its instances reaches a
Keras save (``model.save``, ``keras.saving.save_model``, a ``ModelCheckpoint`` given to ``fit``)
in a format that stores the architecture (``.keras``, ``.h5``, or a path we cannot read).  What
an object contains comes from values: a ``Sequential``/functional model holds the layers it was
built from (each is rebuilt from its class name); an instance of a subclassed model holds its
own class only, since loading calls its ``__init__``, which makes the sublayers itself.

It is *looked up by name* only when a Keras load (``load_model``, ``model_from_json``) can meet
it: a load that follows such a save (or that runs in a function, at any time) whose path may be
the saved one, and whose ``custom_objects``/``custom_object_scope`` do not name the class.
``tf.saved_model.load``, ``keras.layers.TFSMLayer`` and weight files never look classes up; a
TensorFlow SavedModel directory written by Keras 2 is revived without the class; on Keras 3 a
``save()`` to a directory raises before it writes anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import partial

from tflsp.analysis.semantic import values as v
from tflsp.analysis.semantic.block import CallSem, Mentions
from tflsp.analysis.semantic.evaluate import BlockParts
from tflsp.analysis.semantic.graph import _may_run_local_code, callees
from tflsp.analysis.semantic.imports import IMPORTED
from tflsp.analysis.semantic.model import ModuleModel, qualname_of
from tflsp.analysis.semantic.terms import Term

SAVE_FUNCTIONS = frozenset({"keras.saving.save_model", "keras.models.save_model"})
LOAD_FUNCTIONS = frozenset({"keras.saving.load_model", "keras.models.model_from_json"})
SERIALIZERS = frozenset(
    {"keras.models.clone_model", "keras.saving.serialize_keras_object", "keras.layers.serialize"}
)
CHECKPOINT = "keras.callbacks.ModelCheckpoint"
REGISTER = "keras.saving.register_keras_serializable"
SCOPES = frozenset(
    {
        "keras.saving.custom_object_scope",
        "keras.utils.CustomObjectScope",
        "keras.saving.CustomObjectScope",
    }
)
_NAMES = frozenset(
    {
        "save",
        "save_model",
        "load_model",
        "model_from_json",
        "fit",
        "get_config",
        "to_json",
        "clone_model",
        "serialize_keras_object",
        "serialize",
        "ModelCheckpoint",
        "get_custom_objects",
        "add",
    }
)


@dataclass(frozen=True, slots=True)
class SaveSite:
    order: tuple[int, int]  # (block, position of the call in the block)
    contents: frozenset[str]  # local Keras classes inside the saved object
    format: str | None  # keras | h5 | other (a directory) | None (path not known)
    path: str | None  # the whole path when it is known
    in_function: bool
    # The saved Sequential models as values: what ``.add()`` gives them joins the contents.
    sequentials: tuple[v.Value, ...] = ()


@dataclass(frozen=True, slots=True)
class LoadSite:
    order: tuple[int, int]
    path: str | None
    format: str | None
    covers: frozenset[str] | None  # class names given as custom objects; None: cannot tell
    in_function: bool


@dataclass(frozen=True, slots=True)
class BlockSaving:
    saves: tuple[SaveSite, ...]
    loads: tuple[LoadSite, ...]
    serialized: frozenset[str]  # local classes inside objects whose config is taken
    checkpoints: tuple[tuple[str | None, bool], ...]  # (format, weights only) of ModelCheckpoints
    fits_with_checkpoint: tuple[tuple[tuple[int, int], frozenset[str], bool], ...]
    registers_by_hand: bool
    # ``model.add(layer)`` on a Sequential: (the model's value, the local classes added).
    added: tuple[tuple[v.Value, frozenset[str]], ...] = ()


@dataclass(frozen=True, slots=True)
class ClassSaving:
    """What happens to one local class: the formats it is saved in, whether a Keras load can
    meet it, whether its config is taken."""

    saved: tuple[str | None, ...]
    loaded: bool  # a Keras load meets a file holding it and is not given the class
    serialized: bool
    covered: bool = False  # a Keras load meets such a file and is given the class


NOT_SAVED = ClassSaving((), False, False)


@dataclass(frozen=True)
class SavingFlow:
    classes: dict[str, ClassSaving]
    registers_by_hand: bool
    saves: tuple[SaveSite, ...]
    loads: tuple[LoadSite, ...]
    # What it was built from: a next model with equal parts gets the same answers back.
    call_sites: BlockParts | None = field(default=None, compare=False, repr=False)
    sites: BlockParts | None = field(default=None, compare=False, repr=False)
    mentions: tuple[Mentions, ...] = field(default=(), compare=False, repr=False)
    calls: dict[str, tuple[tuple[int, int], ...]] | None = field(
        default=None, compare=False, repr=False
    )
    # Whether the answer read the blocks' mentions (only a load of a file no save here wrote
    # asks whether a class is used elsewhere).
    reads_mentions: bool = field(default=True, compare=False, repr=False)


_EMPTY_BLOCK = BlockSaving((), (), frozenset(), (), (), False)


def path_format(text: str | None) -> str | None:
    if text is None:
        return None
    if text.endswith(".keras"):
        return "keras"
    if text.endswith((".h5", ".hdf5")):
        return "h5"
    return "other"


def _block_call_sites(model: ModuleModel, block: int) -> tuple[tuple[str, int], ...]:
    """``(function id, call number)`` for the block's calls of this module's functions."""
    model.evaluator.touch(block)
    out: list[tuple[str, int]] = []
    for number, call in enumerate(model.blocks[block].calls):
        if _may_run_local_code(model, block, call.func):
            out.extend((gid, number) for gid in callees(model, block, call))
    return tuple(out)


_CALLS = "saving-calls"  # declared input: function id -> where the module calls it


class _Arguments:
    """What this module passes to a function's parameters (for ``def export(model): model.save``
    the saved object is what the callers pass)."""

    def __init__(self, model: ModuleModel, previous: SavingFlow | None = None) -> None:
        self.model = model
        evaluator = model.evaluator
        self.block_parts = evaluator.block_parts(
            "call-sites",
            partial(_block_call_sites, model),
            (),
            previous.call_sites if previous is not None else None,
        )
        if (
            previous is not None
            and previous.call_sites is not None
            and previous.calls is not None
            and previous.call_sites.parts is self.block_parts.parts
        ):
            self.sites = previous.calls  # no block's calls changed: nor did the table
        else:
            sites: dict[str, list[tuple[int, int]]] = {}
            for block, found in enumerate(self.block_parts.parts):
                for gid, number in found:
                    sites.setdefault(gid, []).append((block, number))
            self.sites = {gid: tuple(found) for gid, found in sites.items()}
        # A parameter's values come from call sites anywhere in the module: a block's saving
        # sites read the call sites of the functions whose parameters they ask about, and are
        # computed again when those (not any call of the module) change.
        evaluator.declare(_CALLS, self.sites)

    def values(self, term: Term, block: int) -> v.Values:
        """The values of ``term``; a parameter also gets what the module's calls pass to it."""
        found = self.model.value(term, block)
        if term.tag != "param":
            return found
        gid = self.model.gid(block, term.args[0])
        entry = self.model.functions.get(gid)
        if entry is None or term.args[1] not in entry.facts.params:
            return found
        position = entry.facts.params.index(term.args[1])
        if entry.facts.class_id is not None:
            position -= 1  # ``self`` is not passed
        evaluator = self.model.evaluator
        evaluator.touch_atom((_CALLS, gid))
        passed: list[v.Values] = [found]
        for site_block, number in self.sites.get(gid, ()):
            evaluator.touch(site_block)  # the call's arguments, also those not evaluated
            call = self.model.blocks[site_block].calls[number]
            if 0 <= position < len(call.args) and not any(a.tag == "star" for a in call.args):
                passed.append(self.model.value(call.args[position], site_block))
            for name, arg in call.kwargs:
                if name == term.args[1]:
                    passed.append(self.model.value(arg, site_block))
        return v.join(passed)


def build_saving(
    model: ModuleModel,
    previous: SavingFlow | None = None,
    mentions: tuple[Mentions, ...] = (),
) -> SavingFlow:
    """What saving does to the module's classes; ``mentions`` are each block's names read
    (:attr:`BlockSemantics.mentions`), for whether a class is used anywhere."""
    evaluator = model.evaluator
    arguments = _Arguments(model, previous)
    sites_parts = evaluator.block_parts(
        "saving-block",
        partial(_block_sites_of, model, arguments),
        _EMPTY_BLOCK,
        previous.sites if previous is not None else None,
    )
    found_blocks = sites_parts.parts
    # The names each block reads (is a class used anywhere) matter too.
    if previous is not None and _same_parts(previous.mentions, mentions):
        mentions = previous.mentions  # compared by identity next time
    if (
        previous is not None
        and model.edited is not None
        and previous.sites is not None
        and _same_parts(previous.sites.parts, found_blocks)
        and (not previous.reads_mentions or _same_parts(previous.mentions, mentions))
    ):
        return SavingFlow(
            previous.classes,
            previous.registers_by_hand,
            previous.saves,
            previous.loads,
            arguments.block_parts,
            sites_parts,
            mentions,
            arguments.sites,
            previous.reads_mentions,
        )
    saves: list[SaveSite] = []
    loads: list[LoadSite] = []
    serialized: set[str] = set()
    checkpoints: list[tuple[str | None, bool]] = []
    fits: list[tuple[tuple[int, int], frozenset[str], bool]] = []
    added: dict[v.Value, frozenset[str]] = {}
    by_hand = False
    for found in found_blocks:
        saves.extend(found.saves)
        loads.extend(found.loads)
        serialized |= found.serialized
        checkpoints.extend(found.checkpoints)
        fits.extend(found.fits_with_checkpoint)
        by_hand = by_hand or found.registers_by_hand
        for sequential, grown in found.added:
            added[sequential] = added.get(sequential, frozenset()) | grown
    if added:
        # Values carry no identity: every Sequential that starts out alike shares what is
        # added to any of them (a module rarely builds two and saves only the plain one).
        saves = [
            replace(
                s, contents=s.contents.union(*(added.get(x, frozenset()) for x in s.sequentials))
            )
            for s in saves
        ]
    # ``fit(callbacks=[ModelCheckpoint(...)])`` saves the model in the checkpoint's format.
    checkpoint_formats = [fmt for fmt, weights_only in checkpoints if not weights_only]
    for order, contents, in_function in fits:
        for fmt in checkpoint_formats or [None]:
            saves.append(SaveSite(order, contents, fmt, None, in_function))
    classes: dict[str, ClassSaving] = {}
    outside = [load for load in loads if _from_outside(load, saves)]
    used = _used_elsewhere(model, mentions) if outside else {}
    for gid in model.classes:
        inside = [s for s in saves if gid in s.contents]
        kept = [s for s in inside if s.format in ("keras", "h5", None)]
        name = model.classes[gid].facts.name
        loaded = any(_meets(s, load, name) for s in kept for load in loads) or (
            # A class the module defines and never uses is there for the file it loads.
            not used.get(name, True) and any(_unaided(load, name) for load in outside)
        )
        covered = any(_meets(s, load, name, given=True) for s in kept for load in loads)
        is_serialized = gid in serialized
        if kept or loaded or is_serialized:
            formats = tuple(s.format for s in kept)
            classes[gid] = ClassSaving(formats, loaded, is_serialized, covered)
    # Unregistered Keras classes imported from the workspace: saved and met by a load here.
    for gid in sorted({c for s in saves for c in s.contents if c.startswith(IMPORTED)}):
        name = gid.rpartition(".")[2]
        kept = [s for s in saves if gid in s.contents and s.format in ("keras", "h5", None)]
        loaded = any(_meets(s, load, name) for s in kept for load in loads)
        covered = any(_meets(s, load, name, given=True) for s in kept for load in loads)
        if kept:
            classes[gid] = ClassSaving(tuple(s.format for s in kept), loaded, False, covered)
    return SavingFlow(
        classes,
        by_hand,
        tuple(saves),
        tuple(loads),
        arguments.block_parts,
        sites_parts,
        mentions,
        arguments.sites,
        bool(outside),
    )


def _same_parts(before: tuple[object, ...], now: tuple[object, ...]) -> bool:
    # Tuple equality tests identity before equality item by item, in C.
    return before is now or before == now


def _block_sites_of(model: ModuleModel, arguments: _Arguments, block: int) -> BlockSaving:
    return _block_sites(model, block, arguments)


def _meets(save: SaveSite, load: LoadSite, name: str, *, given: bool = False) -> bool:
    """Can ``load`` read what ``save`` wrote, without (``given``: with) the class given?"""
    is_given = load.covers is None or name in load.covers
    if is_given != given:
        return False
    if load.format == "other":
        return False
    if not (save.in_function or load.in_function or save.order < load.order):
        return False
    return save.path is None or load.path is None or save.path == load.path


def _from_outside(load: LoadSite, saves: list[SaveSite]) -> bool:
    """A Keras load of a file no save of this module can have written."""
    if load.format == "other":
        return False
    return not any(s.path is None or load.path is None or s.path == load.path for s in saves)


def _unaided(load: LoadSite, name: str) -> bool:
    return load.covers is not None and name not in load.covers


def _used_elsewhere(model: ModuleModel, blocks: tuple[Mentions, ...]) -> dict[str, bool]:
    """Local class name -> is it read anywhere but inside its own class."""
    mentions: dict[str, set[str]] = {}
    for block in blocks:
        for owner, names in block:
            mentions.setdefault(owner, set()).update(names)
    out: dict[str, bool] = {}
    for entry in model.classes.values():
        name = entry.facts.name
        out[name] = any(name in names for owner, names in mentions.items() if owner != name)
    return out


def _last_name(func: Term) -> str | None:
    if func.tag == "attr":
        return str(func.args[1])
    if func.tag in ("entry", "global", "import"):
        return str(func.args[0]).rpartition(".")[2]
    return None


def _block_sites(model: ModuleModel, block: int, arguments: _Arguments) -> BlockSaving:
    model.evaluator.touch(block)
    facts = model.blocks[block]
    saves: list[SaveSite] = []
    loads: list[LoadSite] = []
    serialized: set[str] = set()
    checkpoints: list[tuple[str | None, bool]] = []
    fits: list[tuple[tuple[int, int], frozenset[str], bool]] = []
    by_hand = False
    added: list[tuple[v.Value, frozenset[str]]] = []
    for position, call in enumerate(facts.calls):
        last = _last_name(call.func)
        plain_name = call.func.tag in ("entry", "global", "import")
        if last not in _NAMES and not plain_name:
            continue
        order = (block, position)
        in_function = call.scope is not None
        func = call.func
        if func.tag == "attr" and last == "add":
            if call.args:
                receiver = model.value(func.args[0], block)
                grows = [x for x in receiver if _is_sequential(x)]
                classes = v.contents_of(model.value(call.args[0], block))
                if grows and classes:
                    added.extend((x, classes) for x in grows)
            continue
        if func.tag == "attr" and last in ("save", "fit", "get_config", "to_json"):
            receiver = arguments.values(func.args[0], block)
            if not _models_only(receiver):
                if last in ("get_config", "to_json") and v.any_of(receiver, _is_keras_object):
                    serialized |= v.contents_of(receiver)
                continue
            contents = v.contents_of(receiver)
            if last == "save":
                target_path = _argument(call, 0, "filepath")
                site = _save(model, block, call, contents, target_path, in_function, order)
                sequentials = tuple(x for x in receiver if _is_sequential(x))
                saves.append(replace(site, sequentials=sequentials) if sequentials else site)
            elif last == "fit":
                if _has_checkpoint(model, block, call):
                    fits.append((order, contents, in_function))
            else:
                serialized |= contents
            continue
        name = qualname_of(model.value(func, block))
        if name is None:
            continue
        if name in SAVE_FUNCTIONS:
            target = _argument(call, 0, "model")
            if target is not None:
                held = v.contents_of(model.value(target, block))
                target_path = _argument(call, 1, "filepath")
                saves.append(_save(model, block, call, held, target_path, in_function, order))
        elif name in LOAD_FUNCTIONS:
            path_term = _argument(call, 0, "filepath")
            path = _text(model, block, path_term) if name == "keras.saving.load_model" else None
            covers = _covers(model, block, call)
            fmt = path_format(path) if name == "keras.saving.load_model" else "json"
            loads.append(LoadSite(order, path, fmt, covers, in_function))
        elif name in SERIALIZERS:
            target = _argument(call, 0, "model")
            if target is not None:
                serialized |= v.contents_of(model.value(target, block))
        elif name == CHECKPOINT:
            path = _text(model, block, _argument(call, 0, "filepath"))
            weights = _keyword(call, "save_weights_only")
            weights_only = weights is not None and v.all_of(
                model.value(weights, block), lambda x: x.const is True
            )
            checkpoints.append((path_format(path) if path is not None else None, weights_only))
        elif name.startswith("keras.") and name.endswith(".get_custom_objects"):
            by_hand = True
    if not (saves or loads or serialized or checkpoints or fits or by_hand or added):
        return _EMPTY_BLOCK
    return BlockSaving(
        tuple(saves),
        tuple(loads),
        frozenset(serialized),
        tuple(checkpoints),
        tuple(fits),
        by_hand,
        tuple(added),
    )


def _save(
    model: ModuleModel,
    block: int,
    call: CallSem,
    contents: frozenset[str],
    path_term: Term | None,
    in_function: bool,
    order: tuple[int, int],
) -> SaveSite:
    text = _text(model, block, path_term)
    end = _end(model, block, path_term)
    fmt = path_format(end)
    save_format = _keyword(call, "save_format")
    if save_format is not None:
        chosen = _text(model, block, save_format)
        fmt = {"h5": "h5", "keras": "keras", "tf": "other"}.get(chosen or "")
    return SaveSite(order, contents, fmt, text, in_function)


def _is_sequential(value: v.Value) -> bool:
    return value.kind == v.INSTANCE and value.ref == "keras.Sequential"


def _is_model(value: v.Value) -> bool:
    return value.kind == v.INSTANCE and value.base == v.MODEL


def _models_only(values: v.Values) -> bool:
    """Keras models, possibly with what a parameter receives from outside the module."""
    known = [x for x in values if x is not v.UNKNOWN]
    return bool(known) and all(_is_model(x) for x in known)


def _is_keras_object(value: v.Value) -> bool:
    return value.kind == v.INSTANCE and value.base in (v.MODEL, v.LAYER)


def _has_checkpoint(model: ModuleModel, block: int, call: CallSem) -> bool:
    callbacks = _keyword(call, "callbacks")
    if callbacks is None:
        return False
    items = callbacks.args[0] if callbacks.tag in ("list", "tuple") else (callbacks,)
    for item in items:
        for value in model.value(item, block):
            if value.kind == v.INSTANCE and value.ref == CHECKPOINT:
                return True
            if (
                value.kind in (v.LIST, v.TUPLE)
                and isinstance(value.const, tuple)
                and any(x.ref == CHECKPOINT for part in value.const for x in part)
            ):
                return True
    return False


def _argument(call: CallSem, position: int, keyword: str) -> Term | None:
    if len(call.args) > position:
        return call.args[position]
    return _keyword(call, keyword)


def _keyword(call: CallSem, name: str) -> Term | None:
    for key, term in call.kwargs:
        if key == name:
            return term
    return None


def _text(model: ModuleModel, block: int, term: Term | None) -> str | None:
    if term is None:
        return None
    found: str | None = None
    for value in model.value(term, block):
        if value.kind not in (v.STR, v.PATH) or not isinstance(value.const, str):
            return None
        if found is not None and value.const != found:
            return None
        found = value.const
    return found


def _end(model: ModuleModel, block: int, term: Term | None) -> str | None:
    if term is None:
        return None
    found: str | None = None
    for value in model.value(term, block):
        if value.kind not in (v.STR, v.PATH):
            return None
        text = value.const if isinstance(value.const, str) else value.base
        if not text or (found is not None and text != found):
            return None
        found = text
    return found


def _covers(model: ModuleModel, block: int, call: CallSem) -> frozenset[str] | None:
    """Class names a load is given (custom_objects, enclosing custom_object_scope); None when
    they are given in a way we cannot read."""
    names: set[str] = set()
    given = [_keyword(call, "custom_objects")]
    if len(call.args) > 1:
        given.append(call.args[1])
    for with_term in call.withs:
        if with_term.tag == "call" and qualname_of(model.value(with_term.args[0], block)) in SCOPES:
            given.extend(with_term.args[1][:1] or [None])
            if not with_term.args[1]:
                return None
    for term in given:
        if term is None:
            continue
        if term.tag != "dict":
            return None if not _is_none(model, block, term) else frozenset(names)
        for key, value in zip(term.args[0], term.args[1], strict=True):
            text = _text(model, block, key)
            if text is None:
                return None  # ``{**objects}`` or a computed key
            names.add(text.rpartition(">")[2])
            for x in model.value(value, block):
                if x.kind == v.CLASS and x.is_local:
                    entry = model.classes.get(x.local_id)
                    if entry is not None:
                        names.add(entry.facts.name)
    return frozenset(names)


def _is_none(model: ModuleModel, block: int, term: Term) -> bool:
    return v.all_of(model.value(term, block), lambda x: x.kind == v.NONE)
