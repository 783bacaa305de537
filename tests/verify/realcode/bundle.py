"""Cut one class or function out of real code, with what it needs, into a module of its own.

This is what a user's file looks like when it holds a layer: the imports it uses, the helper
functions, classes and constants it refers to, and the class itself.  The real code stays
where it is (``../shared/corpus`` or an unzipped wheel); the test builds the module in a
temporary folder at run time and never keeps a copy.

Names imported from the same code base (``from keras_hub.src.utils.keras_utils import
clone_initializer``) are resolved in that code base and bundled too, so library code runs
without installing its package.  A module attribute used through an internal module
(``tf_utils.get_activation``) becomes a small namespace class.  What cannot be bundled
(a name bound only by a star import, two different definitions of one name, an import of a
package that is not installed) raises :class:`BundleError`: such a target is not used.
"""

from __future__ import annotations

import ast
import builtins
import importlib.util
import symtable
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

BUILTINS = set(dir(builtins)) | {"__file__", "__name__", "__doc__"}
# Module-level code that fetches data or trains: a target whose closure needs it is not a
# layer a user would verify on its own.
HEAVY_CALLS = {
    "load_data",
    "read_csv",
    "get_file",
    "load",
    "fit",
    "download",
    "urlopen",
    "from_pretrained",
    "KerasLayer",
    "TPUClusterResolver",
    "MirroredStrategy",
    "Mesh",
}


class BundleError(Exception):
    """The target cannot be cut out of its code base."""


@dataclass
class Bundle:
    source: str
    imports: list[str] = field(default_factory=list)  # top-level packages the module imports
    files: list[str] = field(default_factory=list)  # files the code came from


@cache
def _parse(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _bound_names(node: ast.stmt) -> set[str]:
    """Names a top-level statement binds (deeply, for if/try/with blocks)."""
    names: set[str] = set()
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, ast.Import):
        for alias in node.names:
            names.add(alias.asname or alias.name.split(".")[0])
        return names
    if isinstance(node, ast.ImportFrom):
        for alias in node.names:
            names.add(alias.asname or alias.name)
        return names
    if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            for sub in [target, *getattr(target, "elts", [])]:
                if isinstance(sub, ast.Name):
                    names.add(sub.id)
        return names
    if isinstance(node, (ast.If, ast.Try, ast.With)):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.stmt):
                names |= _bound_names(child)
            elif isinstance(child, ast.ExceptHandler):
                for stmt in child.body:
                    names |= _bound_names(stmt)
        for handler in getattr(node, "handlers", []):
            for stmt in handler.body:
                names |= _bound_names(stmt)
        for stmt in getattr(node, "orelse", []) + getattr(node, "finalbody", []):
            names |= _bound_names(stmt)
        return names
    return names


def _used_names(node: ast.AST) -> tuple[set[str], set[tuple[str, str]]]:
    """Module-level names ``node`` reads (its free names, scoped properly, so a method's local
    ``x`` does not pull in a notebook's top-level ``x``) and ``(name, attribute)`` pairs of
    ``name.attr``."""
    source = ast.unparse(node)
    names: set[str] = set()

    def visit(table: symtable.SymbolTable, top: bool) -> None:
        for symbol in table.get_symbols():
            if top:
                if symbol.is_referenced() and not symbol.is_assigned() and not symbol.is_imported():
                    names.add(symbol.get_name())
            elif symbol.is_global() and symbol.is_referenced():
                names.add(symbol.get_name())
        for child in table.get_children():
            visit(child, False)

    visit(symtable.symtable(source, "<bundle>", "exec"), True)
    if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.If, ast.Try, ast.With)):
        # A top-level statement reads what it also binds elsewhere (x = x + 1): keep reads.
        names |= {
            sub.id
            for sub in ast.walk(node)
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load)
        }
    attributes = {
        (sub.value.id, sub.attr)
        for sub in ast.walk(node)
        if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name)
    }
    return names, attributes


def _is_main_guard(node: ast.stmt) -> bool:
    test = getattr(node, "test", None)
    return (
        isinstance(node, ast.If)
        and isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
    )


class _Bundler:
    def __init__(self, root: Path, entry: Path, constants: dict[str, str]) -> None:
        self.root = root
        self.entry = entry
        self.constants = constants
        self.emitted: dict[tuple[Path, int], ast.stmt] = {}
        self.order: list[tuple[Path, int]] = []
        self.names: dict[str, tuple[Path, int]] = {}
        self.external: list[str] = []
        self.namespaces: dict[str, dict[str, str]] = {}
        self.visiting: set[tuple[Path, str, int | None]] = set()

    # -- where a module lives ------------------------------------------------------------------
    def internal_file(self, module: str) -> Path | None:
        base = self.root.joinpath(*module.split("."))
        for candidate in (base.with_suffix(".py"), base / "__init__.py"):
            if candidate.is_file():
                return candidate
        return None

    def _absolute(self, path: Path, node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module or ""
        package = path.parent.relative_to(self.root).parts
        if node.level > 1:
            package = package[: len(package) - (node.level - 1)]
        return ".".join([*package, *([node.module] if node.module else [])])

    # -- bundling ------------------------------------------------------------------------------
    def need(
        self,
        path: Path,
        name: str,
        attributes: set[tuple[str, str]],
        occurrence: int = 0,
        before: int | None = None,
    ) -> None:
        """Make ``name`` (as ``path`` sees it) available in the bundle; ``occurrence`` picks
        one of several definitions (1-based; 0: the last, as at run time); ``before``: only
        bindings above that statement (``x = x[1:]`` needs the earlier ``x``)."""
        if name in self.constants and path == self.entry:
            self._constant(name)
            return
        if name in BUILTINS or (path, name, before) in self.visiting:
            return
        self.visiting.add((path, name, before))
        tree = _parse(path)
        statement = None
        seen = 0
        for index, node in enumerate(tree.body):
            if before is not None and index >= before:
                break
            if _is_main_guard(node):
                continue
            if name in _bound_names(node):
                seen += 1
                if not occurrence or seen <= occurrence:
                    statement = (index, node)
        if statement is None:
            if any(
                isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names)
                for n in tree.body
            ):
                raise BundleError(f"{name} comes from a star import in {path.name}")
            return  # a local variable seen by the crude free-name scan
        index, node = statement
        if isinstance(node, ast.ImportFrom):
            self._import_from(path, index, node, name, attributes)
            return
        if isinstance(node, ast.Import):
            self._import(path, index, node, name, attributes)
            return
        self._emit(path, index, node)

    def _emit(self, path: Path, index: int, node: ast.stmt) -> None:
        key = (path, index)
        if key in self.emitted:
            return
        self._check_heavy(node, path)
        for bound in _bound_names(node):
            previous = self.names.get(bound)
            if previous is not None and previous != key:
                other = self.emitted.get(previous)
                if other is None or ast.dump(other) != ast.dump(node):
                    raise BundleError(f"two definitions of {bound!r}")
            self.names[bound] = key
        self.emitted[key] = node
        used, attributes = _used_names(node)
        bound = _bound_names(node)
        for used_name in sorted(used):
            self.need(path, used_name, attributes, before=index if used_name in bound else None)
        self.order.append(key)

    def _constant(self, name: str) -> None:
        key = (Path(f"<constant {name}>"), 0)
        if key not in self.emitted:
            self.emitted[key] = ast.parse(f"{name} = {self.constants[name]}").body[0]
            self.order.append(key)
            self.names[name] = key

    def _check_heavy(self, node: ast.stmt, path: Path) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return
        for sub in ast.walk(node):
            if isinstance(sub, ast.Call):
                func = sub.func
                called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if called in HEAVY_CALLS:
                    raise BundleError(f"needs module-level {called}() from {path.name}")

    def _import_from(
        self,
        path: Path,
        index: int,
        node: ast.ImportFrom,
        name: str,
        attributes: set[tuple[str, str]],
    ) -> None:
        module = self._absolute(path, node)
        alias = next(a for a in node.names if (a.asname or a.name) == name)
        submodule = self.internal_file(f"{module}.{alias.name}")
        if submodule is not None:
            self._namespace(submodule, name, attributes)
            return
        source = self.internal_file(module)
        if source is None:
            if node.level:
                raise BundleError(f"relative import of {module} not found")
            self._external(module, ast.ImportFrom(module=module, names=[alias], level=0))
            return
        self.need(source, alias.name, attributes)
        if alias.asname and alias.asname != alias.name:
            self._alias(alias.asname, alias.name)

    def _import(
        self,
        path: Path,
        index: int,
        node: ast.Import,
        name: str,
        attributes: set[tuple[str, str]],
    ) -> None:
        alias = next(a for a in node.names if (a.asname or a.name.split(".")[0]) == name)
        internal = self.internal_file(alias.name)
        if internal is not None:
            if not alias.asname:
                raise BundleError(f"'import {alias.name}' of an internal package")
            self._namespace(internal, name, attributes)
            return
        self._external(alias.name, ast.Import(names=[alias]))

    def _external(self, module: str, node: ast.stmt) -> None:
        top = module.split(".")[0]
        if importlib.util.find_spec(top) is None:
            raise BundleError(f"needs {top}, which is not installed")
        text = ast.unparse(node)
        if text not in self.external:
            self.external.append(text)

    def _namespace(self, module_file: Path, name: str, attributes: set[tuple[str, str]]) -> None:
        """``name.attr`` through an internal module: bundle each attr, then bind ``name`` to a
        namespace holding them (emitted in order, before the code that uses it)."""
        members = self.namespaces.setdefault(name, {})
        new = []
        for owner, attribute in sorted(attributes):
            if owner == name and attribute not in members:
                self.need(module_file, attribute, set())
                members[attribute] = attribute
                new.append(attribute)
        if not new:
            return
        if "types" not in self.names:
            self.external.append("import types")
            self.names["types"] = (Path("<types>"), 0)
        index = len(self.order)
        if index == 0 or not any(k[0] == Path(f"<namespace {name}>") for k in self.order):
            text = f"{name} = types.SimpleNamespace(" + ", ".join(f"{a}={a}" for a in new) + ")"
        else:
            text = "\n".join(f"{name}.{a} = {a}" for a in new)
        key = (Path(f"<namespace {name}>"), index)
        self.emitted[key] = ast.parse(text)  # type: ignore[assignment]
        self.order.append(key)
        self.names.setdefault(name, key)

    def _alias(self, new: str, old: str) -> None:
        statement = ast.parse(f"{new} = {old}").body[0]
        key = (Path(f"<alias {new}>"), 0)
        if key not in self.emitted:
            self.emitted[key] = statement
            self.order.append(key)
            self.names[new] = key

    def render(self) -> str:
        lines = [*self.external, ""]
        for key in self.order:
            lines.append(ast.unparse(self.emitted[key]))
            lines.append("")
        return "\n".join(lines)

    def add_patches(self) -> None:
        """``Cls.method = function`` at the top level, after ``class Cls`` (notebooks add
        methods that way): keep them with the class."""
        for path in {k[0] for k in self.order if k[0].suffix == ".py"}:
            tree = _parse(path)
            classes = {
                node.name
                for key, node in self.emitted.items()
                if key[0] == path and isinstance(node, ast.ClassDef)
            }
            for index, node in enumerate(tree.body):
                if (
                    isinstance(node, ast.Assign)
                    and len(node.targets) == 1
                    and isinstance(node.targets[0], ast.Attribute)
                    and isinstance(node.targets[0].value, ast.Name)
                    and node.targets[0].value.id in classes
                ):
                    self._emit(path, index, node)


def bundle(
    path: Path,
    name: str,
    root: Path | None = None,
    occurrence: int = 0,
    constants: dict[str, str] | None = None,
) -> Bundle:
    """A standalone module with ``name`` from ``path`` (``root``: the code base's import root;
    ``constants``: module-level names whose value comes from data the module loads, given as
    the literal they hold - the data is not fetched)."""
    bundler = _Bundler(root or path.parent, path, dict(constants or {}))
    bundler.need(path, name, set(), occurrence)
    bundler.add_patches()
    if not any(name in _bound_names(bundler.emitted[k]) for k in bundler.order):
        raise BundleError(f"{path.name} defines no {name}")
    source = bundler.render()
    try:
        compile(source, f"<bundle {name}>", "exec")
    except SyntaxError as exc:
        raise BundleError(f"bundle does not compile: {exc}") from exc
    files = sorted({str(k[0]) for k in bundler.order if k[0].suffix == ".py"})
    imports = sorted({line.split()[1].split(".")[0] for line in bundler.external})
    return Bundle(source, imports, files)


if __name__ == "__main__":  # python -m tests.verify.realcode.bundle FILE NAME [ROOT]
    arguments = sys.argv[1:]
    print(
        bundle(
            Path(arguments[0]), arguments[1], Path(arguments[2]) if len(arguments) > 2 else None
        ).source
    )
