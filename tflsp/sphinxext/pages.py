"""One MyST Markdown page per pattern, in one language."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from tflsp.catalog import FAMILIES, SECTION_HEADINGS, SECTIONS, Catalog, Pattern
from tflsp.catalog.markers import parse_markers
from tflsp.sphinxext import markdown as md
from tflsp.sphinxext.labels import keras_name, label, severity, status
from tflsp.sphinxext.observed import Problem, render_observed
from tflsp.sphinxext.quickfix import quick_fix_diffs
from tflsp.sphinxext.record import VerificationRecord

PATTERNS_DIR = "patterns"
_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")


class PageError(ValueError):
    """A catalog entry cannot be turned into a page (the build must stop)."""


@dataclass
class PageContext:
    """What every pattern page of one build shares."""

    catalog: Catalog
    lang: str
    srcdir: Path
    record: VerificationRecord | None
    record_name: str
    refresh_command: str
    problems: dict[str, list[Problem]] = field(default_factory=dict)


def docname(pattern: Pattern) -> str:
    """The page's docname; its HTML file is what ``tflsp.cli.links.docs_url`` links to."""
    return f"{PATTERNS_DIR}/{pattern.slug}"


def family_label(family: str) -> str:
    return f"family-{family}"


def family_title(family: str, lang: str) -> str:
    _, english, japanese = FAMILIES[family]
    return japanese if lang == "ja" else english


def check_sections(pattern: Pattern, lang: str) -> None:
    """Refuse an explanation with a missing or empty section, or with a top-level heading."""
    explanation = pattern.explanations.get(lang)
    if explanation is None:
        raise PageError(f"{pattern.code}: no {lang} explanation")
    for key in SECTIONS:
        body = explanation.sections.get(key, "")
        heading = SECTION_HEADINGS[lang][key]
        if not body.strip():
            raise PageError(f"{pattern.code}: explanation.{lang}.md lacks section '{heading}'")
        for line in _outside_fences(body):
            if line.startswith("# ") or line.startswith("## "):
                raise PageError(
                    f"{pattern.code}: explanation.{lang}.md section '{heading}' contains a "
                    f"level-1 or level-2 heading ({line.strip()!r}); use ### and below"
                )


def _outside_fences(text: str) -> list[str]:
    lines: list[str] = []
    fence: str | None = None
    for line in text.splitlines():
        match = _FENCE.match(line)
        if match:
            mark = match.group(1)
            if fence is None:
                fence = mark
            elif mark[0] == fence[0] and len(mark) >= len(fence):
                fence = None
            continue
        if fence is None:
            lines.append(line)
    return lines


def render_pattern_page(pattern: Pattern, ctx: PageContext) -> str:
    lang = ctx.lang
    check_sections(pattern, lang)
    explanation = pattern.explanation(lang)
    page_dir = ctx.srcdir / PATTERNS_DIR
    source = _display_path(pattern.folder)
    out = [
        f"% {label(lang, 'generated_note', source=source)}\n",
        f"({pattern.code})=",
        f"# {pattern.code} {pattern.name}\n",
        f"**{md.inline(pattern.title_in(lang))}**\n",
        _metadata_table(pattern, lang),
        f"## {SECTION_HEADINGS[lang]['what']}\n",
        explanation["what"] + "\n",
        f"## {SECTION_HEADINGS[lang]['why']}\n",
        explanation["why"] + "\n",
        _example(pattern, ctx, page_dir),
    ]
    observed, problems = render_observed(
        pattern, lang, ctx.record, ctx.record_name, ctx.refresh_command
    )
    ctx.problems[pattern.code] = problems
    out += [
        observed,
        f"## {SECTION_HEADINGS[lang]['fix']}\n",
        explanation["fix"] + "\n",
        f"## {SECTION_HEADINGS[lang]['versions']}\n",
        explanation["versions"] + "\n",
        f"## {SECTION_HEADINGS[lang]['references']}\n",
        explanation["references"] + "\n",
    ]
    links = [ref for ref in pattern.references if ref.url]
    if links:
        out.append(f"### {label(lang, 'links')}\n")
        for ref in links:
            note = f" ({md.escape(ref.note)})" if ref.note else ""
            out.append(f"- [{md.escape(ref.title)}](<{ref.url}>){note}")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def _display_path(folder: Path) -> str:
    parts = folder.parts
    if "tflsp" in parts:
        return "/".join(parts[len(parts) - 1 - parts[::-1].index("tflsp") :]) + "/"
    return folder.name + "/"


def _metadata_table(pattern: Pattern, lang: str) -> str:
    fix = pattern.fix
    if fix.available:
        fix_text = (
            f"{label(lang, 'fix_' + fix.availability)}; {label(lang, 'fix_' + str(fix.safety))}"
        )
    else:
        fix_text = label(lang, "fix_none")
    rows = [
        (label(lang, "code"), md.code(pattern.code)),
        (label(lang, "name"), md.code(pattern.name)),
        (
            label(lang, "family"),
            md.ref_link(family_label(pattern.family), family_title(pattern.family, lang)),
        ),
        (label(lang, "severity"), severity(lang, pattern.severity)),
        (label(lang, "fix"), fix_text),
        (label(lang, "keras"), ", ".join(keras_name(lang, k) for k in pattern.keras)),
        (
            label(lang, "default"),
            label(lang, "yes") if pattern.default_enabled else label(lang, "no"),
        ),
        (label(lang, "status"), status(lang, pattern.status)),
        (label(lang, "tensorflow"), md.code(pattern.tensorflow)),
        (label(lang, "since"), md.escape(pattern.since)),
    ]
    if pattern.apis:
        rows.append((label(lang, "apis"), ", ".join(md.code(api) for api in pattern.apis)))
    message = pattern.messages["default"].get(lang) or pattern.messages["default"]["en"]
    rows.append((label(lang, "message"), md.inline(message)))
    lines = [
        "```{list-table}",
        ":class: tflsp-meta",
        ":widths: 1 4",
        "",
    ]
    for name, value in rows:
        lines.append(f"* - {name}")
        lines.append(f"  - {value}")
    lines.append("```\n")
    return "\n".join(lines)


def _example(pattern: Pattern, ctx: PageContext, page_dir: Path) -> str:
    lang = ctx.lang
    bad_lines = sorted(
        {
            line
            for line, code in parse_markers(pattern.bad_path.read_text(encoding="utf-8"))
            if code == pattern.code
        }
    )
    out = [
        f"## {label(lang, 'example')}\n",
        _include(pattern.bad_path, page_dir, label(lang, "bad_caption"), bad_lines),
        _include(pattern.good_path, page_dir, label(lang, "good_caption"), []),
    ]
    diffs = quick_fix_diffs(pattern, ctx.catalog)
    if diffs:
        out.append(f"### {label(lang, 'quick_fix')}\n")
        out.append(label(lang, "quick_fix_intro", title=md.inline(pattern.fix_title(lang))) + "\n")
        for variant, diff in diffs:
            if len(diffs) > 1:
                out.append(label(lang, "quick_fix_keras", version=variant[-1]) + "\n")
            out.append(md.fenced(diff, "diff"))
    return "\n".join(out)


def _include(path: Path, page_dir: Path, caption: str, emphasize: list[int]) -> str:
    # A relative path keeps the page independent of where the checkout lives, and
    # literalinclude makes Sphinx re-read the page when the example file changes.
    relative = Path(os.path.relpath(path, page_dir)).as_posix()
    lines = [
        f"```{{tflsp-example}} {relative}",
        ":language: python",
        ":linenos:",
        ":strip-markers:",
        f":caption: {caption}",
    ]
    if emphasize:
        lines.append(":emphasize-lines: " + ",".join(str(n) for n in emphasize))
    lines.append("```\n")
    return "\n".join(lines)
