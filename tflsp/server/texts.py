"""The server's own user-facing strings (pattern texts come from the catalog), in English and
Japanese."""

from __future__ import annotations

_TEXTS: dict[str, dict[str, str]] = {
    "ignore_line": {
        "en": "Ignore {code} on this line",
        "ja": "この行の {code} を無視する",
    },
    "open_docs": {
        "en": "Open the documentation for {code}",
        "ja": "{code} の解説を開く",
    },
    "fix_all": {
        "en": "Fix all safe tflsp problems",
        "ja": "安全に直せる tflsp の問題をすべて修正",
    },
    "unsafe_suffix": {
        "en": " (unsafe: check the result)",
        "ja": "（安全でない修正: 結果を確認してください）",
    },
    "verify_class": {
        "en": "Verify {name} with TensorFlow",
        "ja": "{name} を TensorFlow で検証",
    },
    "verify_function": {
        "en": "Verify {name} with TensorFlow",
        "ja": "{name} を TensorFlow で検証",
    },
    "related_patterns": {
        "en": "tflsp patterns about `{api}`",
        "ja": "`{api}` に関する tflsp のパターン",
    },
    "read_more": {
        "en": "Full explanation",
        "ja": "詳しい解説",
    },
    "skipped": {
        "en": "tflsp did not analyse {name}: {reason}",
        "ja": "tflsp は {name} を解析しませんでした: {reason}",
    },
    "verifier_unavailable": {
        "en": "The TensorFlow verifier is not available yet in this server; "
        "run `tflsp verify` from a terminal instead.",
        "ja": "この言語サーバーではまだ TensorFlow 検証器を使えません。"
        "ターミナルで `tflsp verify` を実行してください。",
    },
    "docs_link": {
        "en": "Documentation for {code}: {url}",
        "ja": "{code} の解説: {url}",
    },
    "fix_label": {
        "en": "Fix",
        "ja": "修正",
    },
}


def text(key: str, lang: str, **args: object) -> str:
    entry = _TEXTS[key]
    template = entry.get(lang) or entry["en"]
    return template.format(**args) if args else template
