"""Line breaks and a byte order mark, as the editor has them: ``\\r\\n``, lone ``\\r`` and ``\\n``
all end a line (LSP, Python); a leading BOM is not Python but counts in the client's columns.

The server's text must stay the editor's whatever the edits, its positions must be the
editor's, and what it reports must be what ``tflsp check`` reports for the same file.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.raw import ROOT, RawServer
from tflsp.server.documents import TextBuffer
from tflsp.server.positions import UTF8, UTF16, UTF32, from_client_column

pytestmark = pytest.mark.timeout(120)

PRINT_LINES = [
    "import tensorflow as tf",
    "",
    "@tf.function",
    "def f(x):",
    "    print(x)",
    "    return x",
    "",
]
CRLF = "\r\n".join(PRINT_LINES)
LONE_CR = "\r".join(PRINT_LINES)
MIXED = "import tensorflow as tf\r\r@tf.function\ndef f(x):\r    print(x)\n    return x\n"
TFL101_AT_4 = ("TFL101", 4, 4, 4, 12)


def summary(diagnostics: list[dict[str, Any]]) -> list[tuple[str, int, int, int, int]]:
    out = []
    for d in diagnostics:
        r = d["range"]
        out.append(
            (
                d["code"],
                r["start"]["line"],
                r["start"]["character"],
                r["end"]["line"],
                r["end"]["character"],
            )
        )
    return sorted(out)


def cli_check(tmp_path: Path, data: bytes, name: str = "case.py") -> list[dict[str, Any]]:
    path = tmp_path / name
    path.write_bytes(data)
    out = subprocess.run(
        [sys.executable, "-m", "tflsp", "check", "--format", "json", "--exit-zero", str(path)],
        capture_output=True,
        text=True,
        check=True,
        cwd=str(ROOT),
    ).stdout
    return json.loads(out)  # type: ignore[no-any-return]


def change(server: RawServer, uri: str, version: int, start: Any, end: Any, text: str) -> None:
    server.notify(
        "textDocument/didChange",
        {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [
                {
                    "range": {
                        "start": {"line": start[0], "character": start[1]},
                        "end": {"line": end[0], "character": end[1]},
                    },
                    "text": text,
                }
            ],
        },
    )


@pytest.fixture(scope="module")
def server() -> Iterator[RawServer]:
    raw = RawServer()
    raw.initialize({"workspace": {"workspaceEdit": {"documentChanges": False}}})
    yield raw
    assert raw.shutdown() == 0, raw.stderr_tail()


# -- the text buffer against an exact model of the editor's text ------------------------------
def lsp_lines(text: str) -> tuple[list[str], list[str]]:
    """Lines and their breaks as an LSP client splits them."""
    parts = re.split("(\r\n|\r|\n)", text)
    return parts[0::2], [*parts[1::2], ""]


def lsp_offset(text: str, line: int, character: int, encoding: str) -> int:
    """Offset in ``text`` of an LSP position (lines split at any break; past the end of a line
    means its end, before the break)."""
    lines, ends = lsp_lines(text)
    if line < 0:
        return 0
    if line >= len(lines):
        return len(text)
    before = sum(len(x) + len(b) for x, b in zip(lines[:line], ends[:line], strict=True))
    return before + from_client_column(lines[line], character, encoding)


@pytest.mark.parametrize("seed", range(4))
def test_buffer_follows_the_editor_text_through_random_edits(seed: int) -> None:
    rng = random.Random(seed)
    pieces = ["a", "bc", "\r", "\n", "\r\n", "é", "😀", " ", "\t", "\ufeff", "x = 1"]
    for _ in range(300):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 10)))
        buffer = TextBuffer(text)
        for _ in range(12):
            encoding = rng.choice([UTF8, UTF16, UTF32])
            count = len(buffer.lines)
            start = (rng.randint(-1, count), rng.randint(0, 8))
            end = (rng.randint(-1, count), rng.randint(0, 8))
            new = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 3)))
            a, b = sorted((lsp_offset(text, *start, encoding), lsp_offset(text, *end, encoding)))
            text = text[:a] + new + text[b:]
            buffer.apply(start, end, new, encoding)
            assert buffer.lines == lsp_lines(text)[0]
            assert buffer.document() == text
            assert len(buffer) == len(text)
            python = text.replace("\r\n", "\n").replace("\r", "\n")
            if python.startswith("\ufeff"):
                python = "\f" + python[1:]
            assert buffer.text == python


def test_a_cr_and_a_lf_that_meet_become_one_line_break() -> None:
    buffer = TextBuffer("a\rb\nc")
    buffer.apply((1, 0), (1, 1), "")  # "a\r" + "\nc": one CRLF
    assert buffer.lines == ["a", "c"] and buffer.document() == "a\r\nc"
    buffer = TextBuffer("a\rb")
    buffer.apply((1, 0), (1, 0), "\n")
    assert buffer.lines == ["a", "b"] and buffer.document() == "a\r\nb"


# -- over LSP -----------------------------------------------------------------------------
def test_crlf_past_the_line_end_is_clamped_before_the_break(server: RawServer) -> None:
    """lsp-audit bug 3: the insertion went after the "\\r" and the texts diverged."""
    uri = "file:///crlf_clamp.py"
    server.open(uri, CRLF)
    assert summary(server.diagnostics(uri, 1)) == [TFL101_AT_4]
    change(server, uri, 2, (4, 999), (4, 999), "; print(x)")
    assert summary(server.diagnostics(uri, 2)) == [TFL101_AT_4, ("TFL101", 4, 14, 4, 22)]


def test_crlf_fix_all_writes_no_stray_cr(server: RawServer) -> None:
    """lsp-audit bug 2: the edit ended at 4:13 (after the "\\r") and its text ended in "\\r"."""
    uri = "file:///crlf_fix_all.py"
    server.open(uri, CRLF)
    server.diagnostics(uri, 1)
    answer = server.request(
        "textDocument/codeAction",
        {
            "textDocument": {"uri": uri},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
            "context": {"diagnostics": [], "only": ["source.fixAll"]},
        },
    )
    (action,) = answer["result"]
    (edit,) = action["edit"]["changes"][uri]
    assert edit == {
        "range": {"start": {"line": 4, "character": 0}, "end": {"line": 4, "character": 12}},
        "newText": "    tf.print(x)",
    }


@pytest.mark.parametrize(("name", "text"), [("lone_cr", LONE_CR), ("mixed", MIXED)])
def test_lone_cr_and_mixed_breaks_end_lines(
    server: RawServer, tmp_path: Path, name: str, text: str
) -> None:
    """lsp-audit bug 4: nothing was published for lone CR; mixed breaks gave a false TFL000
    (in the CLI too)."""
    uri = f"file:///{name}.py"
    server.open(uri, text)
    assert summary(server.diagnostics(uri, 1)) == [TFL101_AT_4]
    found = cli_check(tmp_path, text.encode())
    assert [(d["code"], d["line"], d["column"]) for d in found] == [("TFL101", 5, 5)]


def test_crlf_quick_fixes_write_crlf(server: RawServer, tmp_path: Path) -> None:
    """A fix that inserts a line writes the document's line break, as ``check --fix`` does."""
    bad = (ROOT / "tflsp/catalog/patterns/TFL305-missing-super-init/bad.py").read_text()
    text = bad.replace("\n", "\r\n")
    uri = "file:///crlf_quick_fix.py"
    server.open(uri, text)
    fixes = [
        d["data"]["fix"]
        for d in server.diagnostics(uri, 1)
        if d["code"] == "TFL305" and "fix" in d.get("data", {})
    ]
    assert fixes
    for fix in fixes:
        for edit in fix["edits"]:
            assert "\n" not in edit["newText"].replace("\r\n", "")
    path = tmp_path / "bad.py"
    path.write_bytes(text.encode())
    subprocess.run(
        [sys.executable, "-m", "tflsp", "check", "--fix", "--exit-zero", str(path)],
        capture_output=True,
        check=True,
        cwd=str(ROOT),
    )
    fixed = path.read_bytes().decode()
    assert "\r\n" in fixed and "\n" not in fixed.replace("\r\n", "")


# -- a byte order mark ------------------------------------------------------------------------
BOM_SOURCE = "\ufeff" + "\n".join(PRINT_LINES)


@pytest.fixture(scope="module", params=[UTF16, UTF8, UTF32])
def encoded(request: pytest.FixtureRequest) -> Iterator[tuple[RawServer, str]]:
    raw = RawServer()
    result = raw.initialize({"general": {"positionEncodings": [request.param]}})
    assert result["result"]["capabilities"].get("positionEncoding", UTF16) == request.param
    yield raw, request.param
    assert raw.shutdown() == 0, raw.stderr_tail()


def test_a_leading_bom_is_not_a_syntax_error(encoded: tuple[RawServer, str]) -> None:
    """lsp-audit bug 9: one TFL000 at 0:0 hid every diagnostic."""
    server, _ = encoded
    uri = "file:///bom.py"
    server.open(uri, BOM_SOURCE)
    assert summary(server.diagnostics(uri, 1)) == [TFL101_AT_4]


def test_columns_on_the_bom_line_count_the_bom(encoded: tuple[RawServer, str]) -> None:
    server, encoding = encoded
    width = {UTF8: 3, UTF16: 1, UTF32: 1}[encoding]
    uri = "file:///bom_line.py"
    server.open(uri, "\ufeffx = )\n")
    (diagnostic,) = server.diagnostics(uri, 1)
    # Without the BOM the stray ")" is at column 4.
    assert diagnostic["code"] == "TFL000"
    assert diagnostic["range"]["start"] == {"line": 0, "character": 4 + width}
    # Typing at the end of the first line: positions in client units, BOM included.
    change(server, uri, 2, (0, 4 + width), (0, 5 + width), "1")
    assert server.diagnostics(uri, 2) == []


def test_fix_all_keeps_the_bom(server: RawServer) -> None:
    uri = "file:///bom_fix_all.py"
    text = "\ufeffimport tensorflow as tf\n@tf.function\ndef f(x):\n    print(x)\n"
    server.open(uri, text)
    server.diagnostics(uri, 1)
    answer = server.request(
        "textDocument/codeAction",
        {
            "textDocument": {"uri": uri},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
            "context": {"diagnostics": [], "only": ["source.fixAll"]},
        },
    )
    (action,) = answer["result"]
    (edit,) = action["edit"]["changes"][uri]
    assert "\f" not in edit["newText"]
    assert edit["range"]["start"]["line"] == 3
    assert edit["newText"] == "    tf.print(x)"


def test_a_range_past_the_line_end_is_sent_clamped(server: RawServer) -> None:
    """The analyzer points one past the end of a line that stops too early.  LSP reads such a
    position as the line's end; the server sends the line's end itself, as the CLI's range
    means, so every position it sends exists in the client's text."""
    uri = "file:///eol_error.py"
    server.open(uri, "def f(x):\n")
    (diagnostic,) = server.diagnostics(uri, 1)
    assert diagnostic["range"] == {
        "start": {"line": 0, "character": 9},
        "end": {"line": 0, "character": 9},
    }
