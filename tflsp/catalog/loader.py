"""Reads pattern folders and refuses malformed entries loudly.

A folder ``patterns/TFL101-print-in-graph/`` holds ``pattern.toml``, ``explanation.en.md``,
``explanation.ja.md``, ``bad.py`` and ``good.py``.  Every problem found is collected and raised
together, so a contributor sees all of them at once.
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from tflsp.catalog.cache import cached_catalog
from tflsp.catalog.markers import parse_markers
from tflsp.catalog.schema import (
    FAMILIES,
    FIX_AVAILABILITY,
    FIX_SAFETY,
    KERAS_VERSIONS,
    LANGUAGES,
    SECTION_HEADINGS,
    SECTIONS,
    SEVERITIES,
    STATUSES,
    Catalog,
    Explanation,
    FixInfo,
    Pattern,
    Reference,
)

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

PATTERNS_DIR = Path(__file__).resolve().parent / "patterns"

CODE_RE = re.compile(r"^TFL\d{3}$")
NAME_RE = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
TOP_LEVEL_KEYS = {
    "code",
    "name",
    "family",
    "severity",
    "status",
    "default",
    "keras",
    "tensorflow",
    "since",
    "apis",
    "title",
    "message",
    "messages",
    "fix",
    "references",
    "symptoms",
    "runtime",
}
REQUIRED_KEYS = {"code", "name", "family", "severity", "keras", "title", "message", "fix"}


class CatalogError(ValueError):
    """A catalog entry is malformed.  The message lists every problem found."""


def _bilingual(value: Any, where: str, problems: list[str]) -> dict[str, str]:
    if not isinstance(value, Mapping):
        problems.append(f"{where} must be a table with 'en' and 'ja' strings")
        return {}
    out: dict[str, str] = {}
    for lang in LANGUAGES:
        text = value.get(lang)
        if not isinstance(text, str) or not text.strip():
            problems.append(f"{where}.{lang} is missing or empty")
        else:
            out[lang] = text.strip()
    extra = set(value) - set(LANGUAGES)
    if extra:
        problems.append(f"{where} has unknown languages {sorted(extra)}")
    return out


def parse_explanation(text: str, lang: str, where: str, problems: list[str]) -> Explanation:
    """Split Markdown into the fixed sections; headings must match exactly and in order."""
    headings = SECTION_HEADINGS[lang]
    wanted = [headings[key] for key in SECTIONS]
    found: list[tuple[str, list[str]]] = []
    preamble: list[str] = []
    for line in text.splitlines():
        if line.startswith("## "):
            found.append((line[3:].strip(), []))
        elif found:
            found[-1][1].append(line)
        else:
            preamble.append(line)
    if any(line.strip() for line in preamble):
        problems.append(f"{where}: text before the first '## ' heading")
    titles = [title for title, _ in found]
    if titles != wanted:
        problems.append(f"{where}: sections must be exactly {wanted}, found {titles}")
    sections: dict[str, str] = {}
    by_title = {title: "\n".join(body).strip() for title, body in found}
    for key in SECTIONS:
        body = by_title.get(headings[key], "")
        if headings[key] in by_title and not body:
            problems.append(f"{where}: section '{headings[key]}' is empty")
        sections[key] = body
    return Explanation(lang=lang, sections=sections)


def _references(raw: Any, problems: list[str]) -> tuple[Reference, ...]:
    if raw is None:
        problems.append("references: at least one reference is required")
        return ()
    if not isinstance(raw, list) or not raw:
        problems.append("references must be a non-empty array of tables")
        return ()
    refs = []
    for i, item in enumerate(raw):
        if not isinstance(item, Mapping) or not isinstance(item.get("title"), str):
            problems.append(f"references[{i}] needs a 'title' string")
            continue
        unknown = set(item) - {"title", "url", "note"}
        if unknown:
            problems.append(f"references[{i}] has unknown keys {sorted(unknown)}")
        url = item.get("url")
        if url is not None and not (isinstance(url, str) and url.startswith("https://")):
            problems.append(f"references[{i}].url must be an https:// URL")
        refs.append(Reference(title=item["title"], url=url, note=item.get("note")))
    return tuple(refs)


def _fix(raw: Any, problems: list[str]) -> FixInfo:
    if not isinstance(raw, Mapping):
        problems.append("fix must be a table")
        return FixInfo("none", None)
    availability = raw.get("availability")
    if availability not in FIX_AVAILABILITY:
        problems.append(f"fix.availability must be one of {FIX_AVAILABILITY}")
        availability = "none"
    safety = raw.get("safety")
    title: dict[str, str] = {}
    if availability == "none":
        if safety is not None or "title" in raw:
            problems.append("fix.safety/title make no sense when fix.availability is 'none'")
        safety = None
    else:
        if safety not in FIX_SAFETY:
            problems.append(f"fix.safety must be one of {FIX_SAFETY}")
        title = _bilingual(raw.get("title"), "fix.title", problems)
    unknown = set(raw) - {"availability", "safety", "title"}
    if unknown:
        problems.append(f"fix has unknown keys {sorted(unknown)}")
    return FixInfo(availability=str(availability), safety=safety, title=title)


def _string_list(raw: Any, where: str, problems: list[str]) -> tuple[str, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        problems.append(f"{where} must be an array of strings")
        return ()
    return tuple(raw)


def load_pattern(folder: Path, *, check_examples: bool = False) -> Pattern:
    """Load and validate one pattern folder; raise :class:`CatalogError` listing all problems.

    ``check_examples`` also compiles ``bad.py``/``good.py``.  The tests, the docs build and
    ``tflsp verify --validate`` do; everyday loading skips it, since it would be most of the
    catalog's start-up cost.
    """
    problems: list[str] = []
    meta_path = folder / "pattern.toml"
    try:
        meta = tomllib.loads(meta_path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise CatalogError(f"{folder.name}: cannot read pattern.toml: {exc}") from exc

    missing = REQUIRED_KEYS - set(meta)
    if missing:
        problems.append(f"missing keys {sorted(missing)}")
    unknown = set(meta) - TOP_LEVEL_KEYS
    if unknown:
        problems.append(f"unknown keys {sorted(unknown)}")

    code = str(meta.get("code", ""))
    name = str(meta.get("name", ""))
    if not CODE_RE.match(code):
        problems.append(f"code {code!r} is not of the form TFL123")
    if not NAME_RE.match(name):
        problems.append(f"name {name!r} must be kebab-case")
    if folder.name != f"{code}-{name}":
        problems.append(f"folder must be named {code}-{name}")
    family = meta.get("family")
    if family not in FAMILIES:
        problems.append(f"family {family!r} must be one of {sorted(FAMILIES)}")
    elif not code.startswith(FAMILIES[family][0]):
        problems.append(f"code {code} does not belong to family {family} ({FAMILIES[family][0]}xx)")
    severity = meta.get("severity")
    if severity not in SEVERITIES:
        problems.append(f"severity must be one of {SEVERITIES}")
    status = meta.get("status", "stable")
    if status not in STATUSES:
        problems.append(f"status must be one of {STATUSES}")
    default_enabled = meta.get("default", True)
    if not isinstance(default_enabled, bool):
        problems.append("default must be true or false")
    keras = _string_list(meta.get("keras"), "keras", problems)
    if not keras or any(k not in KERAS_VERSIONS for k in keras):
        problems.append(f"keras must list some of {KERAS_VERSIONS}")

    title = _bilingual(meta.get("title"), "title", problems)
    messages: dict[str, dict[str, str]] = {
        "default": _bilingual(meta.get("message"), "message", problems)
    }
    extra_messages = meta.get("messages", {})
    if not isinstance(extra_messages, Mapping):
        problems.append("messages must be a table of variants")
    else:
        for variant, texts in extra_messages.items():
            messages[variant] = _bilingual(texts, f"messages.{variant}", problems)

    runtime = meta.get("runtime", {})
    if not isinstance(runtime, Mapping):
        problems.append("runtime must be a table")
        runtime = {}

    explanations: dict[str, Explanation] = {}
    for lang in LANGUAGES:
        path = folder / f"explanation.{lang}.md"
        try:
            text = path.read_text(encoding="utf-8")
        except OSError:
            problems.append(f"{path.name} is missing")
            continue
        explanations[lang] = parse_explanation(text, lang, path.name, problems)

    for example in ("bad.py", "good.py"):
        path = folder / example
        try:
            source = path.read_text(encoding="utf-8")
        except OSError:
            problems.append(f"{example} is missing")
            continue
        if check_examples:
            try:
                compile(source, str(path), "exec", dont_inherit=True)
            except (SyntaxError, ValueError) as exc:
                problems.append(f"{example} is not valid Python: {exc}")
        markers = parse_markers(source)
        if example == "bad.py" and not markers:
            problems.append("bad.py has no '# [TFLxxx]' markers")
        if example == "good.py" and markers:
            problems.append("good.py must not contain markers")

    fix = _fix(meta.get("fix"), problems)
    references = _references(meta.get("references"), problems)
    apis = _string_list(meta.get("apis"), "apis", problems)
    symptoms = _string_list(meta.get("symptoms"), "symptoms", problems)
    if problems:
        raise CatalogError(f"{folder.name}: " + "; ".join(problems))

    return Pattern(
        code=code,
        name=name,
        family=str(family),
        severity=str(severity),
        status=str(status),
        default_enabled=bool(default_enabled),
        keras=keras,
        tensorflow=str(meta.get("tensorflow", ">=2.0")),
        since=str(meta.get("since", "0.1.0")),
        title=title,
        messages=messages,
        fix=fix,
        references=references,
        explanations=explanations,
        apis=apis,
        symptoms=symptoms,
        runtime=dict(runtime),
        folder=folder,
    )


def _load_all(folders: Iterable[Path], check_examples: bool = False) -> Catalog:
    patterns: dict[str, Pattern] = {}
    names: dict[str, str] = {}
    errors: list[str] = []
    for folder in sorted(folders):
        try:
            pattern = load_pattern(folder, check_examples=check_examples)
        except CatalogError as exc:
            errors.append(str(exc))
            continue
        if pattern.code in patterns:
            errors.append(f"{folder.name}: code {pattern.code} is used twice")
        if pattern.name in names:
            errors.append(f"{folder.name}: name {pattern.name} is used by {names[pattern.name]}")
        patterns[pattern.code] = pattern
        names[pattern.name] = pattern.code
    if errors:
        raise CatalogError("malformed catalog entries:\n  " + "\n  ".join(errors))
    return Catalog(patterns=dict(sorted(patterns.items())))


def load_catalog(directory: Path | None = None, *, check_examples: bool = False) -> Catalog:
    """Load every pattern folder.  The default catalog is loaded once per process.

    ``check_examples`` compiles every example too (see :func:`load_pattern`).
    """
    if directory is None and not check_examples:
        return _default_catalog()
    folders = (directory or PATTERNS_DIR).iterdir()
    return _load_all(
        (p for p in folders if p.is_dir() and not p.name.startswith("_")), check_examples
    )


@functools.lru_cache(maxsize=1)
def _default_catalog() -> Catalog:
    return cached_catalog(PATTERNS_DIR, lambda: load_catalog(PATTERNS_DIR))
