"""Pages and fragments built from the whole catalog or from the settings definitions.

- ``patterns/index``: every pattern by family, with severity, fix and status;
- ``patterns/symptoms``: what a user sees (a message or a behaviour) -> the pattern;
- ``_generated/settings.md``: the configuration reference, included by a guide page;
- ``_generated/keras3.md``: every pattern's version notes, included by a guide page.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Iterable
from typing import Any

from tflsp.catalog import SECTION_HEADINGS, Catalog, Pattern
from tflsp.settings import SETTINGS, SettingSpec
from tflsp.sphinxext import markdown as md
from tflsp.sphinxext.labels import label, severity, status
from tflsp.sphinxext.pages import docname, family_label, family_title

_ERROR_LIKE = re.compile(
    r"^\s*(?:[\w.]*(?:Error|Exception|Warning|Exit)\b|WARNING\b|ERROR\b|W\d{4}\b|E\d{4}\b)"
)


def pattern_link(pattern: Pattern) -> str:
    return md.doc_link(docname(pattern), f"{pattern.code} {pattern.name}")


def _fix_cell(pattern: Pattern, lang: str) -> str:
    if not pattern.fix.available:
        return label(lang, "fix_none")
    safety = "safe" if pattern.fix.safe else "unsafe"
    words = {"en": {"safe": "safe", "unsafe": "unsafe"}, "ja": {"safe": "安全", "unsafe": "要確認"}}
    return (
        f"{label(lang, 'fix_' + pattern.fix.availability)}, {words.get(lang, words['en'])[safety]}"
    )


def render_pattern_index(catalog: Catalog, lang: str) -> str:
    families = catalog.by_family()
    out = [
        f"% {label(lang, 'generated_note', source='tflsp/catalog/patterns/')}\n",
        "(pattern-index)=",
        f"# {label(lang, 'index_title')}\n",
        label(lang, "index_intro", count=len(catalog), families=len(families)) + "\n",
        label(lang, "index_legend") + "\n",
    ]
    header = [
        label(lang, "code"),
        label(lang, "title"),
        label(lang, "severity"),
        label(lang, "fix"),
        label(lang, "keras"),
        label(lang, "status"),
    ]
    for family, patterns in families.items():
        prefix = patterns[0].code[:4]
        out.append(f"({family_label(family)})=")
        out.append(f"## {family_title(family, lang)} ({prefix}xx)\n")
        out.append("| " + " | ".join(header) + " |")
        out.append("|" + "---|" * len(header))
        for pattern in patterns:
            state = status(lang, pattern.status)
            if not pattern.default_enabled:
                state += ", " + label(lang, "off_by_default")
            cells = [
                pattern_link(pattern),
                md.inline(pattern.title_in(lang)),
                severity(lang, pattern.severity),
                _fix_cell(pattern, lang),
                ", ".join(k.removeprefix("keras") for k in pattern.keras),
                state,
            ]
            out.append("| " + " | ".join(md.cell(c) for c in cells) + " |")
        out.append("")
    out.append("```{toctree}\n:hidden:\n")
    out.extend(pattern.slug for pattern in catalog)
    out.append("```")
    return "\n".join(out) + "\n"


def render_symptoms(catalog: Catalog, lang: str) -> str:
    by_symptom: dict[str, list[Pattern]] = {}
    for pattern in catalog:
        for symptom in pattern.symptoms:
            key = " ".join(symptom.split())
            if key:
                by_symptom.setdefault(key, []).append(pattern)
    errors = sorted((s for s in by_symptom if _ERROR_LIKE.match(s)), key=str.casefold)
    behaviours = sorted((s for s in by_symptom if not _ERROR_LIKE.match(s)), key=str.casefold)
    out = [
        f"% {label(lang, 'generated_note', source='tflsp/catalog/patterns/*/pattern.toml')}\n",
        "(symptoms)=",
        f"# {label(lang, 'symptoms_title')}\n",
        label(lang, "symptoms_intro") + "\n",
    ]
    for title_key, symptoms, as_code in (
        ("symptoms_errors", errors, True),
        ("symptoms_behaviour", behaviours, False),
    ):
        out.append(f"## {label(lang, title_key)}\n")
        if not symptoms:
            out.append(label(lang, "symptoms_none") + "\n")
            continue
        out.append(f"| {label(lang, 'symptom')} | {label(lang, 'pattern')} |")
        out.append("|---|---|")
        for symptom in symptoms:
            # Verbatim either way: people paste what they saw into the search box.
            shown = md.code(symptom) if as_code else md.escape(symptom)
            links = ", ".join(pattern_link(p) for p in by_symptom[symptom])
            out.append(f"| {md.cell(shown)} | {md.cell(links)} |")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def cli_flags() -> dict[str, str]:
    """Setting key -> the ``tflsp check`` flag that sets it (read from the real parser)."""
    from tflsp.cli import check

    parser = argparse.ArgumentParser(prog="tflsp")
    check.register(parser.add_subparsers())
    flags: dict[str, str] = {}
    for action in _subparser(parser, "check")._actions:
        for option in action.option_strings:
            if option.startswith("--"):
                flags[option[2:]] = option
    return {spec.key: flags[spec.key] for spec in SETTINGS if spec.key in flags}


def _subparser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found = action.choices.get(name)
            if isinstance(found, argparse.ArgumentParser):
                return found
    raise LookupError(name)


def toml_value(value: Any) -> str:
    """A default value as it would be written in ``[tool.tflsp]``."""
    return (
        json.dumps(value, ensure_ascii=False) if not isinstance(value, bool) else str(value).lower()
    )


def render_settings(lang: str, settings: Iterable[SettingSpec] = SETTINGS) -> str:
    flags = cli_flags()
    out = [f"% {label(lang, 'generated_note', source='tflsp/settings.py (SETTINGS)')}\n"]
    for spec in settings:
        description = spec.description_ja if lang == "ja" else spec.description_en
        default = (
            label(lang, "not_set") if spec.default is None else md.code(toml_value(spec.default))
        )
        flag = flags.get(spec.key)
        out += [
            f"(setting-{spec.key})=",
            f"### {md.code(spec.key)}\n",
            f"{description}\n",
            f"- {label(lang, 'setting_type')}: {md.inline(spec.type)}",
            f"- {label(lang, 'setting_default')}: {default}",
            f"- {label(lang, 'setting_scope')}: {label(lang, 'scope_' + spec.scope)}",
            f"- {label(lang, 'setting_flag')}: {md.code(flag) if flag else label(lang, 'no_flag')}",
            "",
        ]
        if spec.example:
            out.append(f"{label(lang, 'setting_example')}:\n")
            out.append(md.fenced(f"[tool.tflsp]\n{spec.example}\n", "toml"))
    return "\n".join(out).rstrip() + "\n"


def render_keras3_notes(catalog: Catalog, lang: str) -> str:
    source = label(lang, "keras3_source", heading=SECTION_HEADINGS[lang]["versions"])
    groups = (
        ("keras3_only", [p for p in catalog if p.keras == ("keras3",)]),
        ("keras2_only", [p for p in catalog if p.keras == ("keras2",)]),
        ("both_versions", [p for p in catalog if len(p.keras) > 1]),
    )
    out = [f"% {label(lang, 'generated_note', source=source)}\n"]
    for key, patterns in groups:
        out.append(f"## {label(lang, key)}\n")
        if not patterns:
            out.append(label(lang, "none_yet") + "\n")
            continue
        for pattern in patterns:
            out.append(f"### {pattern_link(pattern)}: {md.inline(pattern.title_in(lang))}\n")
            out.append(pattern.explanation(lang)["versions"] + "\n")
    return "\n".join(out).rstrip() + "\n"
