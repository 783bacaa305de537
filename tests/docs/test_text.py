"""Text helpers of the generator: Markdown escaping, Japanese line joining, expectations."""

from __future__ import annotations

import pytest

from tflsp.sphinxext import markdown as md
from tflsp.sphinxext.labels import missing_keys
from tflsp.sphinxext.observed import describe_expectation, plain


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("x", "`x`"),
        ("a`b", "``a`b``"),
        ("`edge", "`` `edge ``"),
        ("two  spaces\nnewline", "`two  spaces newline`"),
        ("^x = ", "`^x = `"),
        (" padded ", "`  padded  `"),
    ],
)
def test_code_spans_survive_backticks(text: str, expected: str) -> None:
    assert md.code(text) == expected


def test_fences_are_longer_than_any_backtick_run_inside() -> None:
    block = md.fenced("before\n````\nafter", "text")
    assert block.startswith("`````text\n") and block.endswith("\n`````\n")


def test_inline_keeps_code_and_escapes_the_rest() -> None:
    assert md.inline("use `a|b` not *x*") == "use `a|b` not \\*x\\*"
    assert md.cell(md.inline("use `a|b` or c|d")) == "use `a\\|b` or c\\|d"


def test_japanese_soft_line_breaks_are_joined_outside_code_and_blocks() -> None:
    text = (
        "トレースされま\nす。English\nwords stay.\n- 項目\n- 次の項目\n"
        "```\nコード\nの行\n```\n最後の\n  行"
    )
    assert md.join_cjk_lines(text) == (
        "トレースされます。English\nwords stay.\n- 項目\n- 次の項目\n"
        "```\nコード\nの行\n```\n最後の行"
    )


def test_every_label_exists_in_japanese() -> None:
    assert missing_keys() == {"ja": set()}


def test_runtime_expectations_read_as_sentences() -> None:
    spec = {"raises": "AttributeError", "match": "no attribute 'numpy'", "count": {"^x = ": 1}}
    assert describe_expectation(spec, "en") == [
        "raises `AttributeError` matching `no attribute 'numpy'`",
        "1 stdout line(s) match `^x = `",
    ]
    assert describe_expectation({"stdout": ["^ok"], "stderr_count": {"^x": 3}}, "ja") == [
        "例外なく終了する",
        "標準出力に `^ok` に一致する行がある",
        "`^x` に一致する標準エラー出力の行が 3 行",
    ]
    probe = {"probe": {"kind": "tracking", "target": "Counter", "expect": {"untracked": ">= 1"}}}
    assert describe_expectation(probe, "en") == [
        "finishes without an exception",
        "the `tracking` probe on `Counter` observes `untracked >= 1`",
    ]
    assert describe_expectation({"novel": [1]}, "en")[1] == "novel: `- 1`"


def test_observed_values_become_plain_text_without_terminal_escapes() -> None:
    value = {"exception": {"type": "ValueError", "message": "\x1b[1mbold\x1b[0m"}, "lines": [1, 2]}
    assert plain(value) == "exception:\n  type: ValueError\n  message: bold\nlines:\n  - 1\n  - 2"
    long = "\n".join(str(i) for i in range(100))
    assert plain(long).splitlines()[-1] == "… (60 more lines)"
