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
        "en": "The TensorFlow verifier is not available in this server ({reason}); "
        "run `tflsp verify` from a terminal instead.",
        "ja": "この言語サーバーでは TensorFlow 検証器を使えません（{reason}）。"
        "ターミナルで `tflsp verify` を実行してください。",
    },
    "verifier_disabled": {
        "en": "The TensorFlow verifier is turned off (verifier-enabled is false), so tflsp did "
        "not run your code. In VS Code it stays off until you trust the workspace.",
        "ja": "TensorFlow 検証器が無効（verifier-enabled が false）なので、コードは実行していません。"
        "VS Code ではワークスペースを信頼するまで無効のままです。",
    },
    "verifier_failed": {
        "en": "tflsp verifier: {message}",
        "ja": "tflsp 検証器: {message}",
    },
    "verify_cancelled": {
        "en": "Verification of {name} was cancelled; the worker running it was stopped.",
        "ja": "{name} の検証を取り消しました。実行中のワーカーは停止しました。",
    },
    "verify_progress": {
        "en": "Verifying {name} with TensorFlow",
        "ja": "{name} を TensorFlow で検証中",
    },
    "verify_catalog_progress": {
        "en": "Verifying the tflsp catalog with TensorFlow",
        "ja": "tflsp のカタログを TensorFlow で検証中",
    },
    "verify_passed": {
        "en": "Verified with TensorFlow {tensorflow} (Keras {keras}): {probes} passed.",
        "ja": "TensorFlow {tensorflow}（Keras {keras}）で検証しました: {probes} は問題ありません。",
    },
    "verify_could_not_run": {
        "en": "{probe} could not run: {error}",
        "ja": "{probe} を実行できませんでした: {error}",
    },
    "verify_related": {
        "en": "found here by the {probe} probe",
        "ja": "{probe} プローブがここで検出",
    },
    "verify_report_at": {
        "en": "{summary} Report: {path}",
        "ja": "{summary} レポート: {path}",
    },
    "verifier_restarted": {
        "en": "tflsp verifier restarted ({detail}).",
        "ja": "tflsp 検証器を再起動しました（{detail}）。",
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
