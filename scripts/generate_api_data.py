"""Generate tflsp's TensorFlow/Keras API data from the installed libraries.

    python scripts/generate_api_data.py            # writes tflsp/analysis/apidata/data/
    python scripts/generate_api_data.py --check    # exits 1 when the committed data differs

Needs TensorFlow 2.21, Keras 3.15 and tf-keras 2.21 installed (``pip install -e ".[tf]"``) and
downloads the pinned ``types-tensorflow`` stubs once into ``build/apidata/``.  Each flavour is
introspected in a fresh interpreter by ``scripts/apidata_collect.py``; this process never
imports TensorFlow.  The output is sorted JSON, so regenerating on the same versions gives
identical bytes.  See CONTRIBUTING.md ("API data") for when to run it.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import json
import os
import subprocess
import sys
import zipfile
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tflsp.analysis.apidata import SHARDS, shard_for  # noqa: E402
from tflsp.analysis.apidata.signatures import (  # noqa: E402
    POSITIONAL_ONLY,
    POSITIONAL_OR_KEYWORD,
    VAR_KEYWORD,
    VAR_POSITIONAL,
    parse_signature,
)

DATA = ROOT / "tflsp" / "analysis" / "apidata" / "data"
CACHE = ROOT / "build" / "apidata"
COLLECT = Path(__file__).with_name("apidata_collect.py")
STUBS = "types-tensorflow==2.18.0.20261009"
KIND_CODES = {"module": "m", "class": "c", "function": "f", "other": "o"}

Universe = dict[str, Any]  # {"meta", "names", "objects"} as the collector prints it


# -- collecting -----------------------------------------------------------------------------


def collect(flavor: str, *extra: str, stdin: str | None = None) -> Any:
    env = {k: v for k, v in os.environ.items() if k != "TF_USE_LEGACY_KERAS"}
    env["TF_CPP_MIN_LOG_LEVEL"] = "3"
    done = subprocess.run(
        [sys.executable, str(COLLECT), flavor, *extra],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"collecting {flavor} failed:\n{done.stderr[-4000:]}")
    return json.loads(done.stdout)


# -- types-tensorflow stubs: return kinds ----------------------------------------------------


def stub_wheel() -> Path:
    CACHE.mkdir(parents=True, exist_ok=True)
    name, _, version = STUBS.partition("==")
    found = sorted(CACHE.glob(f"{name.replace('-', '_')}-{version}-*.whl"))
    if not found:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "-q", "--no-deps", STUBS, "-d", str(CACHE)],
            check=True,
        )
        found = sorted(CACHE.glob(f"{name.replace('-', '_')}-{version}-*.whl"))
    return found[0]


def stub_returns(tf: Universe) -> dict[str, str]:
    """Public TensorFlow name -> return kind, from the stubs' return annotations."""
    names, objects = tf["names"], tf["objects"]
    out: dict[str, set[str | None]] = defaultdict(set)
    with zipfile.ZipFile(stub_wheel()) as wheel:
        for member in sorted(wheel.namelist()):
            if not member.startswith("tensorflow-stubs/") or not member.endswith(".pyi"):
                continue
            parts = member[len("tensorflow-stubs/") : -len(".pyi")].split("/")
            if parts[-1] == "__init__":
                parts = parts[:-1]
            module = ".".join(["tensorflow", *parts])
            tree = ast.parse(wheel.read(member).decode())
            scope = _stub_scope(tree, module)
            for node in tree.body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    _stub_function(node, f"{module}.{node.name}", None, scope, tf, out)
                elif isinstance(node, ast.ClassDef):
                    cls = f"{module}.{node.name}"
                    for item in node.body:
                        if isinstance(item, ast.FunctionDef) and not item.name.startswith("_"):
                            _stub_function(item, f"{cls}.{item.name}", cls, scope, tf, out)
    result: dict[str, str] = {}
    for name, kinds in out.items():
        if len(kinds) == 1 and None not in kinds:
            result[name] = next(iter(kinds))  # type: ignore[arg-type]
    del names, objects
    return result


def _stub_scope(tree: ast.Module, module: str) -> dict[str, str]:
    scope: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                scope[alias.asname or alias.name.split(".")[0]] = (
                    alias.name if alias.asname else alias.name.split(".")[0]
                )
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                scope[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.ClassDef):
            scope[node.name] = f"{module}.{node.name}"
    return scope


def _stub_function(
    node: ast.FunctionDef | ast.AsyncFunctionDef,
    name: str,
    cls: str | None,
    scope: dict[str, str],
    tf: Universe,
    out: dict[str, set[str | None]],
) -> None:
    if node.returns is None:
        return
    decorators = {ast.unparse(d) for d in node.decorator_list}
    if "property" in decorators or any(d.endswith(".setter") for d in decorators):
        return
    real = _real_signature(name, tf)
    if real is None:
        return
    target, signature = real
    if not target.startswith("tensorflow."):
        return  # the stubs' tf.keras describes Keras 2; tf.keras is Keras 3 on 2.21
    stub_params = [a.arg for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]]
    if cls is not None and "staticmethod" not in decorators and stub_params:
        stub_params = stub_params[1:]
    # A stub written for another TensorFlow version is trusted only where its parameters match.
    if not set(stub_params) <= set(signature.names()) and not signature.var_keyword:
        return
    out[target].add(_annotation_kind(node.returns, scope, cls, tf))


def _real_signature(name: str, tf: Universe) -> tuple[str, Any] | None:
    """(the key its return kind is stored under, its installed signature) for a stub name."""
    names, objects = tf["names"], tf["objects"]
    if name in names:
        canon = names[name][1]
        record = objects.get(canon)
        if record is None or record.get("kind") != "function" or "signature" not in record:
            return None
        return canon, parse_signature(record["signature"])
    owner, _, member = name.rpartition(".")
    if owner not in names or names[owner][0] != "class":
        return None
    cls = names[owner][1]
    for klass in [cls, *objects.get(cls, {}).get("bases", [])]:
        rec = objects.get(klass, {}).get("members", {}).get(member)
        if rec is not None:
            if rec[0] != "function" or rec[1] is None:
                return None
            return f"{klass}.{member}", parse_signature(rec[1])
    return None


def _annotation_kind(node: ast.expr, scope: dict[str, str], cls: str | None, tf: Universe) -> Any:
    if isinstance(node, ast.Constant) and node.value is None:
        return "none"
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left = _annotation_kind(node.left, scope, cls, tf)
        return left if left == _annotation_kind(node.right, scope, cls, tf) else None
    if isinstance(node, ast.Subscript):
        head = _dotted(node.value, scope)
        if head in ("numpy.typing.NDArray", "numpy.ndarray"):
            return "ndarray"
        if head is None or not head.startswith("tensorflow."):
            return None  # list[...], tuple[...], dict[...]: containers
        node = node.value
    text = _dotted(node, scope)
    if text is None:
        return None
    if text in ("bool", "int", "float", "str", "builtins.bool", "builtins.int"):
        return text.rpartition(".")[2]
    if text in ("numpy.ndarray", "numpy.typing.NDArray"):
        return "ndarray"
    if text in ("typing_extensions.Self", "typing.Self", "Self") and cls is not None:
        text = cls
    names, objects = tf["names"], tf["objects"]
    entry = names.get(text)
    if entry is None or entry[0] != "class":
        return None
    return objects.get(entry[1], {}).get("returns")


def _dotted(node: ast.expr, scope: dict[str, str]) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    head = scope.get(node.id, node.id)
    return ".".join([head, *reversed(parts)])


# -- TF1 -> TF2: tf_upgrade_v2's tables -------------------------------------------------------


def upgrade_tables() -> dict[str, Any]:
    spec = importlib.util.find_spec("tensorflow")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("TensorFlow is not installed")
    folder = Path(next(iter(spec.submodule_search_locations))) / "tools" / "compatibility"

    def literal(file: str, target: str) -> Any:
        tree = ast.parse((folder / file).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                t = node.targets[0]
                name = t.id if isinstance(t, ast.Name) else getattr(t, "attr", None)
                if name == target and not isinstance(node.value, ast.Name):
                    try:
                        return ast.literal_eval(node.value)
                    except ValueError:
                        if isinstance(node.value, ast.Dict):  # keys only (values are code)
                            return {ast.literal_eval(k): None for k in node.value.keys if k}
                        raise
        raise SystemExit(f"{file}: no {target} table")

    renames = dict(literal("renames_v2.py", "renames"))
    renames.update(literal("all_renames_v2.py", "manual_symbol_renames"))
    reorders = dict(literal("reorders_v2.py", "reorders"))
    reorders.update(literal("tf_upgrade_v2.py", "manual_function_reorders"))
    keywords = literal("tf_upgrade_v2.py", "function_keyword_renames")
    modules = sorted(literal("module_deprecations_v2.py", "MODULE_DEPRECATIONS"))
    return {"renames": renames, "reorders": reorders, "keywords": keywords, "modules": modules}


def _tf(name: str) -> str:
    return "tensorflow" + name[2:] if name == "tf" or name.startswith("tf.") else name


def tf1_facts(tf: Universe, legacy_names: dict[str, Any]) -> dict[str, Any]:
    """Every TF1 name that 2.21 lacks, with its compat.v1 form and its replacement.

    ``legacy_names``: the ``tensorflow.*`` names that only ``TF_USE_LEGACY_KERAS=1`` has.
    Such a name is TensorFlow 2 (``tf.losses.mean_squared_error`` is tf-keras's loss
    function, which Keras 3's ``tf.losses`` lacks), not a TF1 name that is gone.
    """
    tables = upgrade_tables()
    names, objects = tf["names"], tf["objects"]

    def exists(name: str) -> bool:
        return lookup(name, names, objects) is not None or name in legacy_names

    sources: dict[str, set[str]] = defaultdict(set)
    for table in ("renames", "reorders", "keywords"):
        for old in tables[table]:
            sources[_tf(old)].add(table)
    for old in tables["modules"]:
        sources[_tf(old)].add("module_deprecations")
    for new in tables["renames"].values():
        if new.startswith("tf.compat.v1."):
            sources[_tf(new)].add("renames")
    # TF1 had every tf.<name> as tf.compat.v1.<name> too; some of those are gone as well.
    for old, tags in list(sources.items()):
        if not old.startswith("tensorflow.compat."):
            sources["tensorflow.compat.v1." + old[len("tensorflow.") :]].update(tags)
    # TF1's API lives on as tf.compat.v1: each of its names that the TF2 namespace lacks.
    v1 = "tensorflow.compat.v1."
    for name in names:
        if name.startswith(v1) and name.count(".") == 3:
            sources["tensorflow." + name[len(v1) :]].add("compat.v1")
    removed: dict[str, Any] = {}
    for name in sorted(sources):
        if exists(name) or _removed_parent(name, removed):
            continue
        info: dict[str, Any] = {"sources": sorted(sources[name])}
        if name.startswith(v1):
            info["compat"] = False
        else:
            compat = v1 + name[len("tensorflow.") :]
            found = lookup(compat, names, objects)
            info["compat"] = found is not None
            new = tables["renames"].get("tf." + name[len("tensorflow.") :])
            new = _tf(new) if new else None
            if found is not None and found.startswith("tensorflow.") and v1 not in found:
                # tf.compat.v1.<name> is the very object a TF2 name holds: a safe rename.
                info["replacement"] = found
                info["same_object"] = True
            elif new and new != compat and exists(new):
                info["replacement"] = new
        removed[name] = info
    renames = {_tf(k): _tf(v) for k, v in sorted(tables["renames"].items())}
    return {
        "removed": removed,
        "renames": renames,
        "reorders": {_tf(k): v for k, v in sorted(tables["reorders"].items())},
        "keyword_renames": {_tf(k): v for k, v in sorted(tables["keywords"].items())},
        "module_deprecations": [_tf(m) for m in tables["modules"]],
    }


def _removed_parent(name: str, removed: dict[str, Any]) -> bool:
    parts = name.split(".")
    return any(".".join(parts[:i]) in removed for i in range(2, len(parts)))


def lookup(name: str, names: dict[str, Any], objects: dict[str, Any]) -> str | None:
    """The canonical name ``name`` reaches in one universe (members too), or None."""
    for _ in range(8):
        if name in names:
            return names[name][1]
        parts = name.split(".")
        for i in range(len(parts) - 1, 0, -1):
            prefix = ".".join(parts[:i])
            if prefix not in names:
                continue
            kind, canon = names[prefix]
            rest = parts[i:]
            if kind == "module" and canon != prefix:
                name = ".".join([canon, *rest])
                break
            if kind == "class" and len(rest) == 1:
                for klass in [canon, *objects.get(canon, {}).get("bases", [])]:
                    if rest[0] in objects.get(klass, {}).get("members", {}):
                        return f"{klass}.{rest[0]}"
            return None
        else:
            return None
    return None


# -- Keras 2 -> Keras 3 ------------------------------------------------------------------------


def _callable_signature(name: str, uni: Universe) -> tuple[str, Any] | None:
    canon = lookup(name, uni["names"], uni["objects"])
    if canon is None:
        return None
    record = uni["objects"].get(canon)
    if record is not None:
        sig = record.get("signature")
        return (canon, parse_signature(sig)) if sig else None
    owner, _, member = canon.rpartition(".")
    rec = uni["objects"].get(owner, {}).get("members", {}).get(member)
    if rec and rec[0] == "function" and rec[1] is not None:
        return canon, parse_signature(rec[1])
    return None


def param_changes(old: Any, new: Any) -> dict[str, Any] | None:
    """Removed, renamed and moved parameters between two signatures (None: no change)."""
    old_names = [p.name for p in old.parameters if p.kind not in (VAR_POSITIONAL, VAR_KEYWORD)]
    new_names = [p.name for p in new.parameters if p.kind not in (VAR_POSITIONAL, VAR_KEYWORD)]
    removed = [n for n in old_names if n not in new_names]
    added = [n for n in new_names if n not in old_names]
    renamed: dict[str, str] = {}
    for name in removed:
        i = old_names.index(name)
        if (
            i < len(new_names)
            and new_names[i] in added
            and new_names[i] not in renamed.values()
            and old.get(name).default == new.get(new_names[i]).default
        ):
            renamed[name] = new_names[i]
    positional_kinds = (POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD)
    old_pos = [p.name for p in old.parameters if p.kind in positional_kinds]
    new_pos = [p.name for p in new.parameters if p.kind in positional_kinds]
    moved: dict[str, list[int | None]] = {}
    for i, name in enumerate(old_pos):
        target = renamed.get(name, name)
        if target in new_pos:
            if new_pos.index(target) != i:
                moved[name] = [i, new_pos.index(target)]
        elif target in new_names:
            moved[name] = [i, None]  # keyword-only now
    removed = [n for n in removed if n not in renamed]
    if not (removed or renamed or moved):
        return None
    out: dict[str, Any] = {}
    if removed:
        out["removed"] = removed
    if renamed:
        out["renamed"] = renamed
    if moved:
        out["moved"] = moved
    out["kwargs"] = new.var_keyword
    return out


def _compatible(old_name: str, new_name: str, k2: Universe, k3: Universe) -> bool:
    """A namesake replaces a callable only if a positional call keeps its meaning.

    (``keras.backend.switch(condition, ...)`` and ``keras.ops.switch(index, ...)`` share a
    name, not a meaning; ``in_top_k`` swapped its first two parameters.)  The old required
    positional parameters must open the new signature in the same order.
    """
    old = _callable_signature(old_name, k2)
    new = _callable_signature(new_name, k3)
    if old is None or new is None:
        return old is None and new is None
    required = [p.name for p in old[1].parameters if p.positional and not p.has_default]
    return list(new[1].positional()[: len(required)]) == required


def keras3_facts(k3: Universe, k2: Universe) -> dict[str, Any]:
    names3, objects3 = k3["names"], k3["objects"]
    names2, objects2 = k2["names"], k2["objects"]
    by_last: dict[tuple[str, str], set[str]] = defaultdict(set)
    for name, (kind, canon) in names3.items():
        if name.startswith("keras."):
            by_last[(kind, name.rpartition(".")[2])].add(canon)
    removed: dict[str, Any] = {}
    for name, (kind, _canon) in sorted(names2.items()):
        if lookup(name, names3, objects3) is not None:
            continue
        info: dict[str, Any] = {"kind": kind}
        candidates = by_last.get((kind, name.rpartition(".")[2]), set())
        if len(candidates) == 1 and _compatible(name, next(iter(candidates)), k2, k3):
            info["replacement"] = next(iter(candidates))
        removed[name] = info
    # Members (methods, properties) each Keras 2 class defines and its Keras 3 namesake lacks.
    members: dict[str, Any] = {}
    changes: dict[str, Any] = {}
    for name, (kind, canon) in sorted(names2.items()):
        if kind == "class" and canon == name and lookup(name, names3, objects3) is not None:
            for member, rec in sorted(objects2.get(name, {}).get("members", {}).items()):
                if lookup(f"{name}.{member}", names3, objects3) is None:
                    members[f"{name}.{member}"] = {"kind": rec[0]}
    # Signatures of every callable both have: functions, constructors and methods.
    callables: list[str] = []
    for name, (kind, canon) in sorted(names2.items()):
        if canon != name or kind not in ("class", "function"):
            continue
        callables.append(name)
        if kind == "class":
            callables += [f"{name}.{m}" for m in objects2.get(name, {}).get("members", {})]
    for name in callables:
        old = _callable_signature(name, k2)
        new = _callable_signature(name, k3)
        if old is None or new is None:
            continue
        change = param_changes(old[1], new[1])
        if change is not None:
            change["keras3"] = new[0]
            changes[name] = change
    attributes: dict[str, list[str]] = defaultdict(list)
    for key, info in members.items():
        if info["kind"] == "other":
            owner, _, attr = key.rpartition(".")
            canon = lookup(owner, names3, objects3)
            if canon is not None:
                attributes[canon].append(attr)
    # Keras 3 classes whose constructor takes **kwargs: which names it reads from there.
    takes_kwargs = sorted(
        name
        for name, (kind, canon) in names3.items()
        if name.startswith("keras.")
        and kind == "class"
        and canon == name
        and objects3.get(name, {}).get("signature")
        and parse_signature(objects3[name]["signature"]).var_keyword
    )
    request = {
        "params": {c["keras3"]: c["removed"] for c in changes.values() if "removed" in c},
        "attributes": attributes,
        "kwargs": takes_kwargs,
    }
    answer = collect("tensorflow", "mentions", stdin=json.dumps(request, sort_keys=True))
    for key in list(members):
        owner, _, attr = key.rpartition(".")
        if attr in answer["assigned"].get(lookup(owner, names3, objects3) or "", []):
            del members[key]  # an instance attribute of the Keras 3 class: still there
    mentioned = answer["params"]
    for change in changes.values():
        found = mentioned.get(change["keras3"])
        if found and "removed" in change:
            hits = [p for p in change["removed"] if p in found]
            if hits:
                change["mentioned"] = hits
    return {
        "removed": removed,
        "removed_members": members,
        "param_changes": changes,
        "constructor_kwargs": answer["kwargs"],
    }


# -- writing --------------------------------------------------------------------------------


def compact_object(record: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"k": KIND_CODES[record["kind"]]}
    if record.get("bases"):
        out["b"] = record["bases"]
    if record.get("signature") is not None:
        out["s"] = record["signature"]
    if record.get("returns"):
        out["r"] = record["returns"]
    members = record.get("members")
    if members:
        out["m"] = {
            name: _trim([KIND_CODES[m[0]], m[1], m[2]]) for name, m in sorted(members.items())
        }
    return out


def _trim(values: list[Any]) -> Any:
    while len(values) > 1 and values[-1] is None:
        values.pop()
    return values[0] if len(values) == 1 else values


def shards_of(uni: Universe, flavor: str) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for name, (kind, canon) in uni["names"].items():
        shard = out.setdefault(shard_for(name, flavor), {"names": {}, "objects": {}})
        code = KIND_CODES[kind]
        shard["names"][name] = code if canon == name else f"{code} {canon}"
    for name, record in uni["objects"].items():
        shard = out.setdefault(shard_for(name, flavor), {"names": {}, "objects": {}})
        shard["objects"][name] = compact_object(record)
    return out


def dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"


def build() -> dict[str, str]:
    tf = collect("tensorflow")
    k2 = collect("tf_keras")
    for key, kind in stub_returns(tf).items():
        owner, _, member = key.rpartition(".")
        if key in tf["objects"]:
            record = tf["objects"][key]
            if record.get("returns_from") == "probe":
                continue
            if record.get("returns") not in (None, kind):
                record.pop("returns")  # the source and the stubs disagree: unknown
            else:
                record["returns"] = kind
        elif member in tf["objects"].get(owner, {}).get("members", {}):
            rec = tf["objects"][owner]["members"][member]
            rec[2] = kind if rec[2] in (None, kind) else None
    files: dict[str, str] = {}
    for flavor, uni in (("tensorflow", tf), ("tf_keras", k2)):
        for shard, content in shards_of(uni, flavor).items():
            files[f"{SHARDS[flavor][shard]}.json"] = dump(content)
    # tf_keras's answers for tensorflow.* names that only TF_USE_LEGACY_KERAS=1 has.
    overlay = {
        name: KIND_CODES[kind] if canon == name else f"{KIND_CODES[kind]} {canon}"
        for name, (kind, canon) in k2["tensorflow_names"].items()
        if not name.startswith("tensorflow.keras")
        and lookup(name, tf["names"], tf["objects"]) is None
    }
    files["tf_keras.tensorflow.json"] = dump({"names": overlay})
    files["tf1.json"] = dump(tf1_facts(tf, k2["tensorflow_names"]))
    files["keras3_migration.json"] = dump(keras3_facts(tf, k2))
    meta = {
        "tensorflow": tf["meta"]["tensorflow"],
        "keras": tf["meta"]["keras"],
        "tf_keras": k2["meta"]["keras"],
        "types_tensorflow": STUBS.partition("==")[2],
        "python": tf["meta"]["python"],
        "tf_use_legacy_keras_gives_tf_keras": k2["meta"]["tf.keras is tf_keras"],
    }
    files["meta.json"] = dump(meta)
    return files


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    parser.add_argument("--out", type=Path, default=DATA)
    args = parser.parse_args()
    files = build()
    if args.check:
        stale = [
            name
            for name, text in files.items()
            if not (args.out / name).is_file() or (args.out / name).read_text() != text
        ]
        extra = sorted({p.name for p in args.out.glob("*.json")} - set(files))
        for name in [*stale, *extra]:
            print(f"stale: {name}")
        return 1 if stale or extra else 0
    args.out.mkdir(parents=True, exist_ok=True)
    for old in args.out.glob("*.json"):
        if old.name not in files:
            old.unlink()
    for name, text in sorted(files.items()):
        (args.out / name).write_text(text)
        print(f"{name}: {len(text.encode()) / 1024:.0f} KiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
