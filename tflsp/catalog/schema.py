"""Typed view of a catalog entry, and the fixed vocabulary the loader validates against."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

Lang = Literal["en", "ja"]
LANGUAGES: tuple[Lang, ...] = ("en", "ja")

SEVERITIES = ("error", "warning", "info", "hint")
STATUSES = ("stable", "preview", "deprecated")
KERAS_VERSIONS = ("keras3", "keras2")
FIX_AVAILABILITY = ("always", "sometimes", "none")
FIX_SAFETY = ("safe", "unsafe")

# Family id -> (code prefix, English title, Japanese title).  The code's hundreds digit is the
# family, so a code alone tells a reader where to look.
FAMILIES: dict[str, tuple[str, str, str]] = {
    "graph": ("TFL1", "Graph and eager execution", "グラフ実行と eager 実行"),
    "data": ("TFL2", "tf.data pipelines", "tf.data パイプライン"),
    "tracking": ("TFL3", "Weight tracking", "重みの追跡"),
    "saving": ("TFL4", "Saving and loading", "保存と読み込み"),
    "gradients": ("TFL5", "Gradients and optimizers", "勾配とオプティマイザ"),
    "migration": ("TFL6", "TF1 to TF2 and Keras 3 migration", "TF1→TF2・Keras 3 への移行"),
    "practice": ("TFL7", "Training practice", "学習の作法"),
    # How the model, its loss, the labels, the metrics and the callbacks fit together.
    "model": ("TFL8", "Model, loss and training set-up", "モデル・損失・学習の設定"),
}

# Explanation sections, in the order they must appear, with their headings per language.
SECTIONS = ("what", "why", "fix", "versions", "references")
SECTION_HEADINGS: dict[str, dict[str, str]] = {
    "en": {
        "what": "What it does",
        "why": "Why is this bad?",
        "fix": "How to fix",
        "versions": "Version notes",
        "references": "References",
    },
    "ja": {
        "what": "何が起きるか",
        "why": "なぜ問題か",
        "fix": "直し方",
        "versions": "バージョンによる違い",
        "references": "参考資料",
    },
}


@dataclass(frozen=True)
class Reference:
    title: str
    url: str | None = None
    note: str | None = None


@dataclass(frozen=True)
class FixInfo:
    """Fix availability and fix safety are separate facts (as in ruff)."""

    availability: str  # always | sometimes | none
    safety: str | None  # safe | unsafe, None when availability is none
    title: Mapping[str, str] = field(default_factory=dict)

    @property
    def available(self) -> bool:
        return self.availability != "none"

    @property
    def safe(self) -> bool:
        return self.safety == "safe"


@dataclass(frozen=True)
class Explanation:
    """One language's explanation, split into the fixed sections (Markdown bodies)."""

    lang: str
    sections: Mapping[str, str]

    def __getitem__(self, section: str) -> str:
        return self.sections[section]

    def to_markdown(self, *, heading_level: int = 2) -> str:
        marks = "#" * heading_level
        parts = []
        for key in SECTIONS:
            parts.append(f"{marks} {SECTION_HEADINGS[self.lang][key]}\n\n{self.sections[key]}")
        return "\n\n".join(parts) + "\n"


@dataclass(frozen=True)
class Pattern:
    code: str
    name: str
    family: str
    severity: str
    status: str
    default_enabled: bool
    keras: tuple[str, ...]
    tensorflow: str
    since: str
    title: Mapping[str, str]
    messages: Mapping[str, Mapping[str, str]]  # variant -> lang -> template
    fix: FixInfo
    references: tuple[Reference, ...]
    explanations: Mapping[str, Explanation]
    apis: tuple[str, ...]
    symptoms: tuple[str, ...]
    runtime: Mapping[str, Any]
    folder: Path

    @property
    def bad_path(self) -> Path:
        return self.folder / "bad.py"

    @property
    def good_path(self) -> Path:
        return self.folder / "good.py"

    @property
    def slug(self) -> str:
        """Stable page name used in docs URLs: ``TFL101-print-in-graph``."""
        return f"{self.code}-{self.name}"

    def applies_to(self, keras_version: int) -> bool:
        return f"keras{keras_version}" in self.keras

    def message(self, variant: str, lang: str, args: Mapping[str, object]) -> str:
        templates = self.messages.get(variant) or self.messages["default"]
        template = templates.get(lang) or templates["en"]
        try:
            return template.format_map(dict(args))
        except (KeyError, IndexError, ValueError):
            # A detector passing the wrong arguments must not take the linter down; the
            # catalog test catches it, users still get a readable (unformatted) message.
            return template

    def title_in(self, lang: str) -> str:
        return self.title.get(lang) or self.title["en"]

    def fix_title(self, lang: str, args: Mapping[str, object] | None = None) -> str:
        template = self.fix.title.get(lang) or self.fix.title.get("en") or "Apply fix"
        try:
            return template.format_map(dict(args or {}))
        except (KeyError, IndexError, ValueError):
            return template

    def explanation(self, lang: str) -> Explanation:
        return self.explanations.get(lang) or self.explanations["en"]


@dataclass(frozen=True)
class Catalog:
    patterns: Mapping[str, Pattern]  # code -> pattern, sorted by code

    def __iter__(self) -> Iterator[Pattern]:
        return iter(self.patterns.values())

    def __len__(self) -> int:
        return len(self.patterns)

    def __contains__(self, code: object) -> bool:
        return code in self.patterns

    def get(self, code_or_name: str) -> Pattern | None:
        """Look a pattern up by code (``TFL101``, any case) or by name (``print-in-graph``)."""
        key = code_or_name.strip()
        found = self.patterns.get(key.upper())
        if found is not None:
            return found
        for pattern in self.patterns.values():
            if pattern.name == key.lower() or pattern.slug.lower() == key.lower():
                return pattern
        return None

    def __getitem__(self, code: str) -> Pattern:
        return self.patterns[code]

    def codes(self) -> list[str]:
        return list(self.patterns)

    def by_family(self) -> dict[str, list[Pattern]]:
        out: dict[str, list[Pattern]] = {family: [] for family in FAMILIES}
        for pattern in self.patterns.values():
            out[pattern.family].append(pattern)
        return {family: items for family, items in out.items() if items}

    def related_to_api(self, qualname: str) -> list[Pattern]:
        return [p for p in self.patterns.values() if qualname in p.apis]
