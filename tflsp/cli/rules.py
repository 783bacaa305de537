"""``tflsp rule CODE`` and ``tflsp rules``: the catalog on the command line."""

from __future__ import annotations

import argparse
import json
import sys

from tflsp.catalog import FAMILIES, Catalog, Pattern, load_catalog
from tflsp.settings import Settings


def register(subparsers: argparse._SubParsersAction) -> None:
    rule = subparsers.add_parser(
        "rule", help="explain one pattern", description="Explain one pattern."
    )
    rule.add_argument("code", help="a code (TFL101) or a name (print-in-graph)")
    rule.add_argument("--lang", choices=["en", "ja"])
    rule.add_argument("--format", choices=["text", "json"], default="text")
    rule.set_defaults(handler=run_rule)

    rules = subparsers.add_parser(
        "rules", help="list the catalog", description="List every pattern."
    )
    rules.add_argument("--lang", choices=["en", "ja"])
    rules.add_argument("--format", choices=["text", "json"], default="text")
    rules.set_defaults(handler=run_rules)


def _lang(args: argparse.Namespace) -> str:
    return args.lang or Settings().resolved_lang()


def fix_label(pattern: Pattern) -> str:
    if not pattern.fix.available:
        return "none"
    return f"{pattern.fix.availability}, {pattern.fix.safety}"


def explain(pattern: Pattern, lang: str) -> str:
    family = FAMILIES[pattern.family][1 if lang == "en" else 2]
    labels = (
        ("Family", "Severity", "Fix", "Keras", "Default", "Status")
        if lang == "en"
        else ("ファミリー", "重大度", "修正", "Keras", "既定", "状態")
    )
    on = ("on", "off") if lang == "en" else ("有効", "無効")
    header = [
        f"# {pattern.code} {pattern.name}: {pattern.title_in(lang)}",
        "",
        f"{labels[0]}: {family} | {labels[1]}: {pattern.severity} | {labels[2]}: {fix_label(pattern)}"
        f" | {labels[3]}: {', '.join(pattern.keras)} | {labels[4]}: {on[0] if pattern.default_enabled else on[1]}"
        f" | {labels[5]}: {pattern.status}",
        "",
    ]
    return "\n".join(header) + "\n" + pattern.explanation(lang).to_markdown()


def pattern_record(pattern: Pattern, lang: str) -> dict[str, object]:
    return {
        "code": pattern.code,
        "name": pattern.name,
        "title": pattern.title_in(lang),
        "family": pattern.family,
        "severity": pattern.severity,
        "status": pattern.status,
        "default": pattern.default_enabled,
        "keras": list(pattern.keras),
        "fix": {"availability": pattern.fix.availability, "safety": pattern.fix.safety},
    }


def run_rule(args: argparse.Namespace) -> int:
    catalog = load_catalog()
    pattern = catalog.get(args.code)
    if pattern is None:
        print(f"tflsp: error: no pattern {args.code!r}; see 'tflsp rules'", file=sys.stderr)
        return 2
    lang = _lang(args)
    if args.format == "json":
        record = pattern_record(pattern, lang)
        record["explanation"] = dict(pattern.explanation(lang).sections)
        print(json.dumps(record, ensure_ascii=False, indent=2))
    else:
        sys.stdout.write(explain(pattern, lang))
    return 0


def render_rules(catalog: Catalog, lang: str) -> str:
    rows = [("CODE", "NAME", "SEVERITY", "FIX", "DEFAULT", "TITLE")]
    for pattern in catalog:
        rows.append(
            (
                pattern.code,
                pattern.name,
                pattern.severity,
                fix_label(pattern),
                "on" if pattern.default_enabled else "off",
                pattern.title_in(lang),
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    lines = [
        "  ".join(cell.ljust(widths[i]) if i < 5 else cell for i, cell in enumerate(r))
        for r in rows
    ]
    off = sum(1 for p in catalog if not p.default_enabled)
    note = (
        f"{len(catalog)} patterns; {off} off by default (enable with --extend-select or select = [...])."
        if lang == "en"
        else f"{len(catalog)} パターン。うち {off} 件は既定で無効です（--extend-select か select = [...] で有効化）。"
    )
    return "\n".join(lines) + "\n" + note + "\n"


def run_rules(args: argparse.Namespace) -> int:
    catalog = load_catalog()
    lang = _lang(args)
    if args.format == "json":
        print(json.dumps([pattern_record(p, lang) for p in catalog], ensure_ascii=False, indent=2))
    else:
        sys.stdout.write(render_rules(catalog, lang))
    return 0
