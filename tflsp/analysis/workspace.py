"""The workspace import graph: facts a module takes from other files of the user's package.

A file's own model cannot know that ``from .layers import MyLayer`` is a Keras layer, nor that
``from pkg.steps import train_step`` is a tf.function.  :class:`Workspace` resolves a file's
imports to files of its package (package folders with ``__init__.py``, the file's folder, the
project root and its ``src/``; never ``site-packages``), summarises each imported file from
its own semantic model (:func:`module_exports`, cached by content hash) and hands the answers
to the importing file's model as :class:`WorkspaceImports`
(:class:`tflsp.analysis.semantic.imports.ImportedNames`).

One level only: an imported file is summarised alone, so what it takes from its own imports
is unknown there (a cycle of imports needs no guard).  What is exported, per top-level name:

- classes whose TF/Keras base kind is known (layer, model, ...), and whether they are
  registered (``register_keras_serializable``, or the module registers by hand);
- functions that run as a graph (``@tf.function``, ``step = tf.function(f)``);
- library modules held by a name (``tf = try_import_tensorflow()``: ``tensorflow``);
- functions and classes that register what they decorate (an export decorator wrapping
  ``register_keras_serializable``, :mod:`tflsp.analysis.semantic.registration`);
- the imported modules themselves (``from . import layers`` then ``layers.MyLayer``);
- functions and methods whose answer says whether code is traced (:mod:`.semantic.traced`):
  for these alone an imported file is given the facts of its own imports, one level more.

Anything else stays unknown, as without the workspace.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from tflsp.analysis.engine import Analyzer, LintConfig
from tflsp.analysis.semantic import values as v
from tflsp.analysis.semantic.evaluate import FIXED
from tflsp.analysis.semantic.model import ModuleModel, qualname_of
from tflsp.analysis.semantic.registration import registering_names
from tflsp.analysis.semantic.saving import REGISTER
from tflsp.analysis.semantic.terms import Term
from tflsp.analysis.semantic.traced import function_facts

# Installed packages are libraries, not the user's code.
_LIBRARY_FOLDERS = frozenset({"site-packages", "dist-packages"})
# Libraries the API knowledge describes: never read from the workspace.
_LIBRARIES = frozenset({"tensorflow", "keras", "tf_keras", "numpy"})
_ROOT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")
_MAX_UP = 12  # folders climbed looking for a project root
_MAX_BYTES = 2_000_000  # larger imported files are not summarised (as the analyzer skips them)
_MAX_CACHED = 1024  # exports kept, by content hash
# What a helper must ask for its answer to say whether code is traced (semantic.traced).
_TRACE_WORDS = re.compile(r"executing_eagerly|inside_function")

# Import statements, found without parsing the whole file (it may not parse while typed).
_IMPORT_RE = re.compile(
    r"^[ \t]*(?:from[ \t]+\.*[\w.]*[ \t]+import[ \t]*(?:\([^)]*\)|[^\n;#]*)|import[ \t]+[^\n;#]+)",
    re.MULTILINE,
)


# Export kinds the API answers give as kinds (the others are told through values or not at all).
_API_KINDS = frozenset({"class", "function", "module"})


@dataclass(frozen=True, slots=True)
class Export:
    kind: str  # class | function | module | alias | registrar
    base: str = ""  # class: its TF/Keras base kind
    registered: bool = False  # class: registered for Keras deserialisation
    fixed: bool = False  # function (a tf.function): input_signature given
    target: str = ""  # alias: the library module the name holds (``tf = try_import_tf()``)
    # function: what calling it says about being traced (semantic.traced facts); class: the
    # same for its methods, (name, facts).
    trace: frozenset[str] = frozenset()
    traces: tuple[tuple[str, frozenset[str]], ...] = ()


def module_exports(source: str, imported: WorkspaceImports | None = None) -> dict[str, Export]:
    """What a module's top-level names hold, for the modules importing it (``imported``: what
    it imports from the workspace itself, when known)."""
    analyzer = Analyzer(LintConfig(frozenset()))
    analyzer.set_imported(imported)
    summary = analyzer.module_summary(source)
    model = summary.model
    if model is None:
        return {}
    flow = summary.saving_flow
    by_hand = flow is not None and flow.registers_by_hand
    names: dict[str, None] = {}
    for facts in model.blocks:
        for name, _term, _definite in facts.exports:
            names.setdefault(name, None)
    graph = summary.graph_map
    registrars = registering_names(model, graph) if graph is not None else frozenset()
    out: dict[str, Export] = {}
    for name in names:
        if name in registrars:
            out[name] = Export("registrar")
            continue
        values = model.final(name)
        library = _library_module(model, values)
        if library is not None:
            out[name] = Export("alias", target=library)
            continue
        if len(values) != 1:
            continue  # several possible values (or none): unknown to importers
        (value,) = values
        if value.kind == v.CLASS and value.is_local:
            gid = value.local_id
            base = model.class_base(gid)
            entry = model.classes.get(gid)
            traces = _method_traces(model, gid)
            if base and entry is not None:
                registered = by_hand or any(
                    _is_register(model.value(_callee(d), entry.block))
                    for d in entry.facts.decorators
                )
                out[name] = Export("class", base, registered, traces=traces)
            elif traces:
                out[name] = Export("class", traces=traces)
        elif value.kind == v.FUNCTION and value.const == v.TF_FUNCTION:
            out[name] = Export("function", fixed=value.base == FIXED)
        elif value.kind == v.FUNCTION and value.is_local:
            trace = function_facts(model, value.local_id)
            if trace:
                out[name] = Export("function", trace=trace)
    return out


def _method_traces(model: ModuleModel, gid: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """The class's own methods that answer "am I traced?" (``_use_tf_workflow``)."""
    out = []
    for method, method_gid in sorted(model.evaluator.methods(gid).items()):
        facts = function_facts(model, method_gid)
        if facts:
            out.append((method, facts))
    return tuple(out)


def _library_module(model: ModuleModel, values: v.Values) -> str | None:
    """The library module a name holds (``None`` aside: a guarded optional import), e.g.
    ``tensorflow`` for ``tf = try_import_tensorflow()``; None for anything else."""
    name = qualname_of(frozenset(x for x in values if x.kind != v.NONE))
    if name is None or model.api.kind(name, model.flavor_of(name)) != "module":
        return None
    return name


def _callee(term: Term) -> Term:
    return term.args[0] if term.tag == "call" else term


def _is_register(values: v.Values) -> bool:
    return qualname_of(values) == REGISTER


@dataclass(frozen=True)
class WorkspaceImports:
    """What one file imports from the workspace (an
    :class:`~tflsp.analysis.semantic.imports.ImportedNames`)."""

    package: tuple[str, ...]  # the importing file's package, for relative imports
    exports: dict[str, Export]  # qualified name -> what it is
    files: tuple[tuple[str, str], ...]  # (path, content hash) of the imported files
    fingerprint: str

    def absolute(self, level: int, module: str, name: str) -> str | None:
        if level - 1 > len(self.package):
            return None
        base = self.package[: len(self.package) - (level - 1)]
        parts = [*base, *(module.split(".") if module else ()), name]
        return ".".join(parts) if parts else None

    def value(self, qualname: str) -> v.Values | None:
        found = self.exports.get(qualname)
        if found is None or found.kind == "registrar":
            return None
        if found.kind == "alias":
            return v.one(v.NAME, found.target)
        if found.kind == "function" and not found.trace:
            return v.one(v.FUNCTION, qualname, FIXED if found.fixed else "", v.TF_FUNCTION)
        return v.one(v.NAME, qualname)  # the API answers below say what it is

    def trace_test(self, qualname: str) -> frozenset[str] | None:
        found = self.exports.get(qualname)
        if found is not None:
            return found.trace or None
        owner, _, method = qualname.rpartition(".")
        found = self.exports.get(owner)
        if found is None:
            return None
        return dict(found.traces).get(method)

    def kind(self, name: str, flavor: str) -> str | None:
        found = self.exports.get(name)
        if found is None or found.kind not in _API_KINDS or _trace_only(found):
            return None
        return found.kind

    def returns(self, name: str, flavor: str) -> str | None:
        return None

    def method_returns(self, cls: str, method: str, flavor: str) -> str | None:
        return None

    def base_kind(self, name: str, flavor: str) -> str | None:
        found = self.exports.get(name)
        return found.base or None if found is not None else None

    def registered(self, qualname: str) -> bool | None:
        found = self.exports.get(qualname)
        if found is None or found.kind != "class" or _trace_only(found):
            return None
        return found.registered

    def registers(self, qualname: str) -> bool:
        found = self.exports.get(qualname)
        return found is not None and found.kind == "registrar"


def _trace_only(found: Export) -> bool:
    """Exported only for what its calls say about being traced: a plain function, or a class
    that is no TF/Keras class (to everything else, as unknown as before)."""
    return bool(found.trace) or (found.kind == "class" and not found.base)


def import_texts(source: str) -> tuple[str, ...]:
    """The import statements of ``source`` as written (module level or not), found without
    parsing it (it may not parse while typed) and fast enough for every keystroke: the text
    is searched for the word ``import`` and only the lines holding it are matched."""
    out: list[str] = []
    at = source.find("import")
    while at >= 0:
        start = source.rfind("\n", 0, at) + 1
        found = _IMPORT_RE.match(source, start)
        end = source.find("\n", at)
        if found is not None and found.end() > at:
            out.append(found.group(0).strip())
            end = max(end, found.end())
        if end < 0:
            break
        at = source.find("import", end)
    return tuple(out)


def import_statements(source: str) -> Iterator[ast.Import | ast.ImportFrom]:
    texts = import_texts(source)
    # One parse for all of them (a warm cached run over the corpus parsed 4,000 one by one);
    # ``__future__`` imports first, where they are allowed.  A text that does not parse
    # alone (a line of a string that looks like an import) sends them back one by one.
    ordered = sorted(texts, key=lambda text: not text.startswith("from __future__"))
    try:
        trees = [ast.parse("\n".join(ordered))]
    except (SyntaxError, ValueError):
        trees = []
        for text in texts:
            try:
                trees.append(ast.parse(text))
            except (SyntaxError, ValueError):
                continue
    for tree in trees:
        for node in tree.body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                yield node


def module_path(path: Path) -> tuple[str, ...]:
    """The dotted module name of a file, from the package folders (``__init__.py``) above it."""
    parts = [] if path.name == "__init__.py" else [path.stem]
    folder = path.parent
    while (folder / "__init__.py").is_file() and folder.name.isidentifier():
        parts.insert(0, folder.name)
        if folder.parent == folder:
            break
        folder = folder.parent
    return tuple(parts)


def _exists(path: Path) -> bool:
    return path.exists()


def _is_file(path: Path) -> bool:
    return path.is_file()


def _project_root(start: Path, exists: Callable[[Path], bool] = _exists) -> Path | None:
    folder = start
    for _ in range(_MAX_UP):
        if any(exists(folder / marker) for marker in _ROOT_MARKERS):
            return folder
        if folder.parent == folder:
            return None
        folder = folder.parent
    return None


def _roots(
    path: Path,
    module: tuple[str, ...],
    exists: Callable[[Path], bool] = _exists,
    project_root: Callable[[Path], Path | None] | None = None,
) -> list[Path]:
    depth = len(module) - (0 if path.name == "__init__.py" else 1)
    top = path.parent
    for _ in range(depth):
        top = top.parent
    roots = [top, path.parent]
    project = (
        project_root(path.parent)
        if project_root is not None
        else _project_root(path.parent, exists)
    )
    if project is not None:
        roots.extend([project, project / "src"])
    out: list[Path] = []
    for root in roots:
        if root not in out and not _LIBRARY_FOLDERS.intersection(root.parts):
            out.append(root)
    return out


def _find(
    roots: Iterable[Path], module: tuple[str, ...], is_file: Callable[[Path], bool] = _is_file
) -> Path | None:
    if not module or not all(part.isidentifier() for part in module):
        return None
    if module[0] in _LIBRARIES:
        return None  # what the API knowledge says, even in a checkout of the library itself
    for root in roots:
        base = root.joinpath(*module)
        for candidate in (base.with_suffix(".py"), base / "__init__.py"):
            if is_file(candidate):
                return candidate
    return None


def imported_modules(
    path: Path,
    source: str,
    exists: Callable[[Path], bool] = _exists,
    is_file: Callable[[Path], bool] = _is_file,
    project_root: Callable[[Path], Path | None] | None = None,
    find: Callable[[tuple[Path, ...], tuple[str, ...]], Path | None] | None = None,
) -> dict[tuple[str, ...], Path]:
    """The workspace files ``source`` (the text of ``path``) imports, by module name.

    ``exists``/``is_file`` probe the disk, ``project_root`` finds the project folder above a
    folder and ``find`` a module's file under some roots; a batch run passes memoised ones
    (see :class:`Workspace`)."""
    module = module_path(path)
    package = module if path.name == "__init__.py" else module[:-1]
    roots = tuple(_roots(path, module, exists, project_root))
    wanted: list[tuple[str, ...]] = []
    for node in import_statements(source):
        if isinstance(node, ast.Import):
            wanted.extend(tuple(alias.name.split(".")) for alias in node.names)
            continue
        if node.level:
            if node.level - 1 > len(package):
                continue
            base = package[: len(package) - (node.level - 1)]
        else:
            base = ()
        target = (*base, *(node.module.split(".") if node.module else ()))
        wanted.append(target)
        wanted.extend((*target, alias.name) for alias in node.names if alias.name != "*")
    found: dict[tuple[str, ...], Path] = {}
    me = path.resolve() if path.exists() else path
    for name in wanted:
        if name in found:
            continue
        file = find(roots, name) if find is not None else _find(roots, name, is_file)
        if file is not None and file.resolve() != me:
            found[name] = file
    return found


class Workspace:
    """Summaries of workspace files, cached by content hash: one per CLI run or server.

    ``read_open`` gives the text of a file open in an editor (it wins over the disk).
    """

    def __init__(
        self,
        read_open: Callable[[Path], str | None] | None = None,
        remember_paths: bool = False,
    ) -> None:
        self.read_open = read_open
        self._exports: dict[str, dict[str, Export]] = {}
        # A batch run (the CLI) asks the same questions of the disk for every file of a folder
        # (where is the project root, is there a pkg/x.py): remembered, a warm cached run over
        # the corpus no longer spends 0.45 s probing.  The server's files come and go: it asks.
        self._exists: Callable[[Path], bool] = _exists
        self._is_file: Callable[[Path], bool] = _is_file
        self._project_root: Callable[[Path], Path | None] | None = None
        self._find: Callable[[tuple[Path, ...], tuple[str, ...]], Path | None] | None = None
        # A batch run also remembers each file's imported files and the trace facts they give
        # it (the files do not change during the run).
        self._remember = remember_paths
        self._traces: dict[tuple[str, str], WorkspaceImports | None] = {}
        self._files: dict[tuple[str, str], list[tuple[tuple[str, ...], Path, str, str]]] = {}
        self._reads: dict[Path, tuple[str, str]] = {}
        if remember_paths:
            self._exists = functools.lru_cache(maxsize=65536)(_exists)
            self._is_file = functools.lru_cache(maxsize=65536)(_is_file)
            # Even with the probes remembered, climbing from each file's folder and making
            # the paths of every marker was a quarter of a warm cached run: once per folder.
            self._project_root = functools.lru_cache(maxsize=4096)(
                functools.partial(_project_root, exists=self._exists)
            )
            self._find = functools.lru_cache(maxsize=65536)(
                functools.partial(_find, is_file=self._is_file)
            )

    def _read(self, file: Path) -> tuple[str, str] | None:
        """(content hash, text) of a file, None when it cannot be read."""
        text = self.read_open(file) if self.read_open is not None else None
        if text is not None:
            return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(), text
        try:
            data = file.read_bytes()
        except OSError:
            return None
        if len(data) > _MAX_BYTES:
            return None
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            return None
        return hashlib.sha256(data).hexdigest(), text

    def exports_of(
        self, digest: str, text: str, imported: WorkspaceImports | None = None
    ) -> dict[str, Export]:
        key = digest if imported is None else f"{digest}:{imported.fingerprint}"
        found = self._exports.get(key)
        if found is None:
            try:
                found = module_exports(text, imported)
            except RecursionError:
                found = {}
            if len(self._exports) >= _MAX_CACHED:
                self._exports.clear()
            self._exports[key] = found
        return found

    def files(self, path: Path, source: str) -> list[tuple[tuple[str, ...], Path, str, str]]:
        """(module name, file, content hash, text) of each workspace file ``path`` imports."""
        key = (str(path), source)
        if self._remember and key in self._files:
            return self._files[key]
        out = []
        found = imported_modules(
            path, source, self._exists, self._is_file, self._project_root, self._find
        )
        for name, file in sorted(found.items()):
            read = self._reads.get(file) if self._remember else None
            if read is None:
                read = self._read(file)
                if self._remember and read is not None:
                    self._reads[file] = read  # one copy of each text, however often imported
            if read is not None:
                out.append((name, file, *read))
        if self._remember:
            self._files[key] = out
        return out

    def dependency_digest(self, path: Path, source: str) -> str:
        """A digest of the content hashes of the workspace files ``path`` imports, and of
        the files they import (their trace facts reach it: :meth:`imports_for`); "" none."""
        direct = self.files(path, source)
        files = {(str(file), digest) for _, file, digest, _ in direct}
        for _, file, _, text in direct:
            files.update((str(f), digest) for _, f, digest, _ in self.files(file, text))
        return _digest(files) if files else ""

    def imports_for(self, path: Path, source: str) -> WorkspaceImports | None:
        """What ``path`` imports from the workspace; None when it imports nothing of it.

        An imported file is summarised alone, except for its "am I traced?" helpers: those
        may call helpers of the files it imports in turn (keras-hub's layers ask a base
        class method, which asks a function of a utility module), so each imported file is
        given the trace facts of its own imports (:meth:`_trace_imports`), one level more.
        """
        files = self.files(path, source)
        if not files:
            return None
        module = module_path(path)
        package = module if path.name == "__init__.py" else module[:-1]
        exports: dict[str, Export] = {}
        listed = [(str(file), digest) for _, file, digest, _ in files]
        for name, file, digest, text in files:
            qualname = ".".join(name)
            exports[qualname] = Export("module")
            nested = self._trace_imports(file, text)
            if nested is not None:
                listed.extend(nested.files)
            for member, export in self.exports_of(digest, text, nested).items():
                exports[f"{qualname}.{member}"] = export
        unique = tuple(sorted(set(listed)))
        return WorkspaceImports(package, exports, unique, _digest(unique))

    def _trace_imports(self, path: Path, source: str) -> WorkspaceImports | None:
        """Only the trace facts of what ``path`` imports and its text names (None: none), so
        that nothing else an imported file knows changes from one level to two, and a file
        that asks no such helper is summarised once, as before."""
        key = (str(path), source)
        if self._remember and key in self._traces:
            return self._traces[key]
        files = self.files(path, source)
        exports: dict[str, Export] = {}
        listed = []
        for name, file, digest, text in files:
            if not _TRACE_WORDS.search(text):
                continue  # summarised alone, a file that asks TensorFlow nothing has no facts
            qualname = ".".join(name)
            found = False
            for member, export in self.exports_of(digest, text).items():
                if (export.trace or export.traces) and member in source:
                    kind = "class" if export.traces else export.kind
                    exports[f"{qualname}.{member}"] = Export(
                        kind, trace=export.trace, traces=export.traces
                    )
                    found = True
            if found:
                exports[qualname] = Export("module")
                listed.append((str(file), digest))
        result = None
        if exports:
            module = module_path(path)
            package = module if path.name == "__init__.py" else module[:-1]
            result = WorkspaceImports(package, exports, tuple(listed), _digest(listed))
        if self._remember:
            self._traces[key] = result
        return result


def _digest(files: Iterable[tuple[str, str]]) -> str:
    return hashlib.sha256(repr(sorted(files)).encode()).hexdigest()
