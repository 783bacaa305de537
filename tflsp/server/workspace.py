"""Open documents and notebooks, each with its own analyzer and last result.

Everything here is synchronous and free of pygls, so it can be driven directly in unit tests;
:mod:`tflsp.server.server` decides when to call it and what to send.
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from tflsp.analysis.engine import Analyzer, LintConfig, ModuleResult
from tflsp.catalog import Catalog, load_catalog
from tflsp.server.config import SettingsStore
from tflsp.server.documents import (
    Cell,
    LineMap,
    NotebookState,
    TextBuffer,
    TextDocumentState,
    uri_to_path,
)
from tflsp.server.imports import ImportTracker
from tflsp.server.positions import UTF16, from_client_column
from tflsp.server.render import DiagnosticRenderer, Rendered
from tflsp.settings import Settings, SettingsError

log = logging.getLogger(__name__)

Position = tuple[int, int]  # 0-based line, column in client units
# Language ids editors use for Python files ("" when a client sends none).
PYTHON_LANGUAGE_IDS = frozenset({"python", "python3", "py", ""})
Change = tuple[Position | None, Position | None, str]  # (start, end, text); no range = full


@dataclass
class Target:
    """One analysed unit: a text document, or a notebook whose cells form one module."""

    key: str
    text: TextDocumentState | None = None
    notebook: NotebookState | None = None
    revision: int = 0  # bumped on every content change
    analysed_revision: int = -1
    analysed_generation: int = -1
    analyzer: Analyzer | None = None
    config: LintConfig | None = None
    settings: Settings | None = None
    renderer: DiagnosticRenderer | None = None
    result: ModuleResult | None = None
    rendered: list[Rendered] = field(default_factory=list)
    line_map: LineMap | None = None
    source: str = ""
    lang: str = "en"
    notice: str | None = None  # why the last analysis was skipped
    published: list[str] = field(default_factory=list)  # URIs diagnostics were pushed for

    @property
    def version(self) -> int | None:
        if self.text is not None:
            return self.text.version
        return self.notebook.version if self.notebook is not None else None

    @property
    def path(self) -> Path | None:
        return uri_to_path(self.key)

    @property
    def fresh(self) -> bool:
        return self.analysed_revision == self.revision

    def uris(self) -> list[str]:
        """The document URIs diagnostics are published for."""
        if self.notebook is not None:
            return [cell.uri for cell in self.notebook.cells if cell.is_python]
        return [self.key]

    def version_of(self, uri: str) -> int | None:
        if self.notebook is not None:
            cell = self.notebook.cell(uri)
            return cell.version if cell is not None else None
        return self.version

    # -- positions ---------------------------------------------------------------------------
    def lines_of(self, uri: str) -> list[str] | None:
        if self.text is not None:
            return self.text.buffer.lines if uri == self.key else None
        cell = self.notebook.cell(uri) if self.notebook is not None else None
        return cell.buffer.lines if cell is not None else None

    def locate(self, module_line: int) -> tuple[str, int, str] | None:
        """Module line (1-based) -> (uri, 0-based line, line text)."""
        if self.text is not None:
            lines = self.text.buffer.lines
            if 1 <= module_line <= len(lines):
                return self.key, module_line - 1, lines[module_line - 1]
            return None
        if self.line_map is None or self.notebook is None:
            return None
        found = self.line_map.locate(module_line)
        if found is None:
            return None
        uri, line = found
        cell = self.notebook.cell(uri)
        if cell is None:
            return None
        return uri, line, cell.buffer.line(line)

    def to_module(self, uri: str, line: int, character: int, encoding: str) -> Position | None:
        """LSP position -> (1-based module line, code-point column)."""
        lines = self.lines_of(uri)
        if lines is None or not 0 <= line < len(lines):
            return None
        column = from_client_column(lines[line], character, encoding)
        if self.text is not None:
            return line + 1, column
        module_line = self.line_map.module_line(uri, line) if self.line_map else None
        return (module_line, column) if module_line is not None else None

    @property
    def newline(self) -> str:
        """The line break fixes should write: the document's (a notebook's first cell's)."""
        if self.text is not None:
            return self.text.buffer.newline
        for cell in self.notebook.cells if self.notebook is not None else ():
            if cell.buffer.breaks is not None:
                return cell.buffer.newline
        return "\n"

    def rendered_for(self, uri: str) -> list[Rendered]:
        return [r for r in self.rendered if r.uri == uri]


class Workspace:
    def __init__(self, settings: SettingsStore | None = None, encoding: str = UTF16) -> None:
        self.settings = settings or SettingsStore()
        self.encoding = encoding
        self.targets: dict[str, Target] = {}
        self.cell_owner: dict[str, str] = {}
        self._catalog: Catalog | None = None
        self.imports = ImportTracker(self._open_text, self._open_revision)

    @property
    def catalog(self) -> Catalog:
        if self._catalog is None:
            self._catalog = load_catalog()
        return self._catalog

    def _open_document(self, path: Path) -> Target | None:
        for target in self.targets.values():
            if target.text is not None and target.path == path:
                return target
        return None

    def _open_text(self, path: Path) -> str | None:
        target = self._open_document(path)
        return target.text.buffer.text if target is not None and target.text is not None else None

    def _open_revision(self, path: Path) -> int | None:
        target = self._open_document(path)
        return target.revision if target is not None else None

    def target_for(self, uri: str) -> Target | None:
        target = self.targets.get(uri)
        if target is None and uri in self.cell_owner:
            target = self.targets.get(self.cell_owner[uri])
        return target

    # -- text documents ------------------------------------------------------------------------
    def open_text(self, uri: str, version: int | None, text: str, language_id: str) -> Target:
        state = TextDocumentState(uri, version, TextBuffer(text), language_id)
        target = Target(uri, text=state)
        self.targets[uri] = target
        return target

    def change_text(
        self, uri: str, version: int | None, changes: Iterable[Change]
    ) -> Target | None:
        target = self.targets.get(uri)
        if target is None or target.text is None:
            log.warning("change for a document that is not open: %s", uri)
            return None
        _apply(target.text.buffer, changes, self.encoding)
        target.text.version = version
        target.revision += 1
        return target

    def close(self, uri: str) -> Target | None:
        target = self.targets.pop(uri, None)
        self.imports.forget(uri)
        if target is not None and target.notebook is not None:
            for cell in target.notebook.cells:
                self.cell_owner.pop(cell.uri, None)
        return target

    # -- notebooks -----------------------------------------------------------------------------
    def open_notebook(self, uri: str, version: int | None, cells: list[Cell]) -> Target:
        target = Target(uri, notebook=NotebookState(uri, version, cells))
        self.targets[uri] = target
        for cell in cells:
            self.cell_owner[cell.uri] = uri
        return target

    def change_notebook(
        self,
        uri: str,
        version: int | None,
        structure: tuple[int, int, list[Cell]] | None,
        cell_kinds: dict[str, int],
        text_changes: dict[str, tuple[int | None, list[Change]]],
        closed_cells: Iterable[str] = (),
    ) -> Target | None:
        """Apply a ``notebookDocument/didChange``: cell array splice, kinds, then texts.

        ``closed_cells``: the cell text documents the change closes.  A cell taken out of the
        array without being closed is kept aside (:attr:`NotebookState.detached`): a client may
        move a cell as a removal and an insertion in two notifications.
        """
        target = self.targets.get(uri)
        if target is None or target.notebook is None:
            log.warning("change for a notebook that is not open: %s", uri)
            return None
        notebook = target.notebook
        if structure is not None:
            start, delete_count, new_cells = structure
            for removed in notebook.cells[start : start + delete_count]:
                self.cell_owner.pop(removed.uri, None)
                notebook.detached[removed.uri] = removed
            notebook.cells[start : start + delete_count] = new_cells
            for cell in new_cells:
                self.cell_owner[cell.uri] = uri
                notebook.detached.pop(cell.uri, None)
        for cell_uri in closed_cells:
            notebook.detached.pop(cell_uri, None)
        for cell_uri, kind in cell_kinds.items():
            found = notebook.cell(cell_uri)
            if found is not None:
                found.kind = kind
        for cell_uri, (cell_version, changes) in text_changes.items():
            found = notebook.cell(cell_uri)
            if found is None:
                continue
            _apply(found.buffer, changes, self.encoding)
            found.version = cell_version
        notebook.version = version
        target.revision += 1
        return target

    # -- analysis ------------------------------------------------------------------------------
    def invalidate_settings(self) -> None:
        self.settings.invalidate()

    def analyse(self, target: Target) -> bool:
        """Bring ``target``'s result up to date; True when it was re-analysed."""
        generation = self.settings.generation
        if target.fresh and target.analysed_generation == generation:
            return False
        if target.analysed_generation != generation:
            self._configure(target)
        target.analysed_revision = target.revision
        target.analysed_generation = generation
        settings = target.settings or Settings()
        source, line_map, size = self._source(target)
        with _collector_paused():
            if target.text is not None and target.text.language_id not in PYTHON_LANGUAGE_IDS:
                target.result = ModuleResult([], None)  # another language: nothing to say
            elif size > settings.max_file_size:
                reason = (
                    f"{size:,} characters; the limit is {settings.max_file_size:,} (max-file-size)"
                )
                target.result = ModuleResult([], None, skipped=reason)
            else:
                target.result = self._run(target, source)
            target.source = source
            target.line_map = line_map
            target.notice = target.result.skipped
            assert target.renderer is not None
            target.rendered = target.renderer.render_all(
                target.result.diagnostics, target.locate, target.newline
            )
        return True

    def _source(self, target: Target) -> tuple[str, LineMap | None, int]:
        if target.text is not None:
            buffer = target.text.buffer
            if len(buffer) > (target.settings or Settings()).max_file_size:
                return "", None, len(buffer)
            return buffer.text, None, len(buffer)
        assert target.notebook is not None
        source, line_map = target.notebook.module()
        if target.line_map != line_map and target.renderer is not None:
            target.renderer.forget()  # cells moved: cached positions are wrong
        return source, line_map, len(source)

    def _run(self, target: Target, source: str) -> ModuleResult:
        if target.analyzer is None:
            assert target.config is not None
            target.analyzer = Analyzer(target.config, self.catalog)
        try:
            path = target.path
            if target.text is not None and path is not None:
                imported = self.imports.imported_for(target.key, path, source)
                target.analyzer.set_imported(imported)
            return target.analyzer.analyze(source)
        except Exception as exc:  # a bug in the analyzer must not take the server down
            log.exception("analysis of %s failed", target.key)
            target.analyzer = None  # its caches may be inconsistent now
            return ModuleResult([], None, skipped=f"internal error: {type(exc).__name__}: {exc}")

    def _configure(self, target: Target) -> None:
        path = target.path
        settings = self.settings.for_path(path)
        try:
            config = settings.lint_config(self.catalog, path)
        except SettingsError as exc:
            self.settings.problems.append(f"tflsp: invalid settings, using the defaults: {exc}")
            settings = Settings()
            config = settings.lint_config(self.catalog, path)
        if config != target.config:
            target.config = config
            target.analyzer = None
        target.settings = settings
        target.lang = self.settings.lang(settings)
        renderer = target.renderer
        if renderer is None or not renderer.matches(
            target.lang, settings.docs_base_url, self.encoding
        ):
            target.renderer = DiagnosticRenderer(
                self.catalog, target.lang, settings.docs_base_url, self.encoding
            )
        elif target.analyzer is None:
            renderer.forget()


@contextmanager
def _collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while analysing.

    Analysis allocates many long-lived objects (trees, indexes) and almost no cycles, which is
    the worst case for the generational collector: its full passes rescan the whole heap and
    made a cold analysis of a 5,000-line module about twice as slow.  Reference counting still
    frees everything as usual.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _apply(buffer: TextBuffer, changes: Iterable[Change], encoding: str) -> None:
    for start, end, text in changes:
        if start is None or end is None:
            buffer.replace_all(text)
        else:
            buffer.apply(start, end, text, encoding)
