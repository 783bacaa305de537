"""Editor settings layered over ``[tool.tflsp]``, resolved per document.

Editor settings arrive in ``initializationOptions`` and ``workspace/didChangeConfiguration``,
either flat (``{"select": [...]}``) or under a ``tflsp`` section (``{"tflsp": {...}}``), as
VS Code and Neovim send them.  The pyproject layer is looked up once per directory and
forgotten when a ``pyproject.toml`` changes (``workspace/didChangeWatchedFiles``).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tflsp.server.commands import SECTION
from tflsp.settings import (
    SETTING_KEYS,
    SETTING_TABLES,
    Settings,
    SettingsError,
    _kebab,
    find_pyproject,
)

log = logging.getLogger(__name__)


def editor_section(data: Any) -> dict[str, Any] | None:
    """The tflsp part of a settings payload, or None when the payload has none.

    ``{"tflsp": {...}}`` and ``{"settings": {...}}`` are unwrapped; a flat mapping counts only
    when it names at least one tflsp setting, so another tool's settings are not mistaken for
    an empty tflsp configuration.
    """
    if not isinstance(data, Mapping):
        return None
    for key in (SECTION, "settings"):
        inner = data.get(key)
        if isinstance(inner, Mapping):
            nested = editor_section(inner)
            return nested if nested is not None else dict(inner)
    if any(_kebab(str(key)) in SETTING_KEYS | SETTING_TABLES for key in data):
        return dict(data)
    return None


class SettingsStore:
    """Resolves :class:`Settings` for a path: pyproject first, editor settings on top."""

    def __init__(self) -> None:
        self.editor: dict[str, Any] = {}
        self.locale: str | None = None
        self.generation = 0  # bumped on every change, part of pull-diagnostic result ids
        self._by_dir: dict[Path | None, Settings] = {}
        self.problems: list[str] = []  # messages the server should show once

    def set_editor(self, data: Mapping[str, Any]) -> None:
        self.editor = dict(data)
        self.invalidate()

    def invalidate(self) -> None:
        self._by_dir.clear()
        self.generation += 1

    def for_path(self, path: Path | None) -> Settings:
        directory = path.parent if path is not None else None
        cached = self._by_dir.get(directory)
        if cached is None:
            cached = self._resolve(directory)
            self._by_dir[directory] = cached
        return cached

    def _resolve(self, directory: Path | None) -> Settings:
        base = Settings()
        if directory is not None:
            try:
                found = find_pyproject(directory)
                if found is not None:
                    base = Settings.load(found)
            except (SettingsError, OSError) as exc:
                self.problems.append(f"tflsp: ignoring pyproject.toml settings: {exc}")
        try:
            layered = base.layered(self.editor)
        except SettingsError as exc:
            self.problems.append(f"tflsp: ignoring editor settings: {exc}")
            return base
        if layered.unknown:
            log.info("unknown tflsp settings ignored: %s", ", ".join(layered.unknown))
        return layered

    def lang(self, settings: Settings) -> str:
        """``lang`` setting first, then the client's locale, then the environment."""
        if settings.lang in ("en", "ja"):
            return settings.lang
        if self.locale:
            return "ja" if self.locale.lower().startswith("ja") else "en"
        return settings.resolved_lang()
