"""A hostile but realistic editor for ``tflsp serve``, checked against ``tflsp check``.

The client keeps its own exact copy of every document (lines split at ``\\r\\n``, ``\\r`` and
``\\n``, positions in the negotiated encoding, a column past the end of a line meaning its end,
as LSP says) and edits it the way people do: typing snippets character by character (Japanese,
emoji, astral characters), Enter with indentation, backspace across line breaks, pasting
lines from another file, deleting a function, adding a ``tf.function`` with a ``print``,
indenting and commenting regions (several changes in one message), multi-cursor typing,
moving lines, undo, and whole-text replacements, with hovers and code actions sent right
behind the edits and a malformed frame now and then.

Now and then it waits for the diagnostics of the current version (a "checkpoint"), and at the
end puts the document back to its original text.  Every checkpoint text is written to a file,
and one ``tflsp check --format json`` run over all of them gives what the server should have
said: code, range (converted to the client's encoding) and message must match.  On a text that
does not parse, the server may differ from the CLI by design (a block with a syntax error keeps
the facts of its last parsable version); such a difference counts as "history" when a fresh
``didOpen`` of the same text agrees with the CLI, and as a mismatch otherwise.

Notebooks are edited the same way inside their cells, and their cell structure changes: cells
inserted, deleted, moved (in one change, and as a removal then an insertion in two), turned
into Markdown and back.  They are checked with pull diagnostics against ``tflsp check`` on the
equivalent ``.ipynb``.

Documents come from real code (``--corpus``, by default ``../shared/corpus`` when present),
from a generated module and from the catalog's bad examples, in LF, CRLF, lone-CR and BOM
variants, over UTF-16 (push), UTF-8 (pull) and UTF-32 (push) servers.
``tests/server/test_hostile_client.py`` runs a short seeded version in the test suite.

Usage: ``python benchmarks/hostile_client.py [--seed 1] [--files 20] [--ops 150]
[--notebooks 3] [--corpus DIR] [--json OUT]``
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from generate import generate  # noqa: E402
from lsp_latency import Client  # noqa: E402

DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus"
BREAK_RE = re.compile(r"\r\n|\r|\n")
ENCODINGS = ("utf-16", "utf-8", "utf-32")
SNIPPETS = (
    "x = 1",
    "print(x)",
    "損失 = tf.reduce_sum(x)",
    "label = '😀 ok'",
    "tf.print(value)",
    "𝛼 = x * 2",
    "return x",
    "values = [i for i in range(3)]",
    "call(",
    "1)",
    "if x:",
    "\t# tab",
    "s = 'é'",
)
BAD_FRAMES = (
    b"Content-Type: application/json\r\n\r\n{}",
    b"Content-Length: abc\r\n\r\n{}",
    b"Content-Length: 400\r\n\r\n{}",
    b"Content-Length: 2\r\n\r\n{}}}",
    b'Content-Length: 32\r\n\r\n{"jsonrpc":"2.0","id":"x","y":1}',  # no method: -32600
    b'Content-Length: 45\r\n\r\n{"jsonrpc":"2.0","id":"y","method":"no/such"}',  # -32601
)


# Another checkout whose tflsp (server and CLI) is tested instead (--server-root).
TFLSP_ROOT: str | None = None


def tflsp_command(*args: str) -> list[str]:
    if TFLSP_ROOT is None:
        return [sys.executable, "-m", "tflsp", *args]
    boot = (
        f"import runpy, sys; sys.path.insert(0, {TFLSP_ROOT!r}); "
        "runpy.run_module('tflsp', run_name='__main__')"
    )
    return [sys.executable, "-c", boot, *args]


# -- the client's own copy of a document ----------------------------------------------------------
def units(text: str, encoding: str) -> int:
    if encoding == "utf-32":
        return len(text)
    if encoding == "utf-8":
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def from_units(line: str, count: int, encoding: str) -> int:
    """Code points of ``line`` covered by ``count`` client units (clamped to the line)."""
    total = 0
    for index, char in enumerate(line):
        step = units(char, encoding)
        if total + step > count:
            return index
        total += step
    return len(line)


@dataclass
class Doc:
    """A document as the client has it."""

    text: str
    encoding: str

    def lines(self) -> list[tuple[int, int]]:
        """(start, end) offsets of each line's content (LSP split, breaks excluded)."""
        spans = []
        start = 0
        for match in BREAK_RE.finditer(self.text):
            spans.append((start, match.start()))
            start = match.end()
        spans.append((start, len(self.text)))
        return spans

    def line_text(self, index: int) -> str:
        start, end = self.lines()[index]
        return self.text[start:end]

    def position(self, offset: int) -> dict[str, int]:
        """The LSP position of ``offset`` (one inside a CR LF counts as before it)."""
        offset = self.snap(offset)
        for number, (start, end) in enumerate(self.lines()):
            if start <= offset <= end:
                return {"line": number, "character": units(self.text[start:offset], self.encoding)}
        raise ValueError(f"offset {offset} is inside a line break")

    def snap(self, offset: int) -> int:
        """An offset between the CR and the LF of a CR LF has no LSP position: use the CR's."""
        offset = max(0, min(offset, len(self.text)))
        if 0 < offset < len(self.text) and self.text[offset - 1 : offset + 1] == "\r\n":
            return offset - 1
        return offset

    def offset(self, line: int, character: int) -> int:
        spans = self.lines()
        if line >= len(spans):
            return len(self.text)
        start, end = spans[line]
        return start + from_units(self.text[start:end], character, self.encoding)

    def change(self, start: int, end: int, new: str) -> dict[str, Any]:
        """Replace ``text[start:end]``; the LSP change event for it."""
        start, end = self.snap(start), self.snap(end)
        event = {"range": {"start": self.position(start), "end": self.position(end)}, "text": new}
        self.text = self.text[:start] + new + self.text[end:]
        return event

    @property
    def newline(self) -> str:
        match = BREAK_RE.search(self.text)
        return match.group() if match else "\n"

    def python(self) -> str:
        """The text as Python reads it."""
        text = self.text.replace("\r\n", "\n").replace("\r", "\n")
        return text[1:] if text.startswith("\ufeff") else text


def parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    return True


# -- edits ----------------------------------------------------------------------------------------
# An operation is a list of messages; a message is a list of (start, end, text) applied in
# order, each against the text the previous one left (LSP semantics).
Message = list[tuple[int, int, str]]


class Editor:
    def __init__(self, rng: random.Random, paste_pool: list[str]) -> None:
        self.rng = rng
        self.paste_pool = paste_pool
        self.counter = 0

    def indent_of(self, doc: Doc, line: int) -> str:
        text = doc.line_text(line)
        return text[: len(text) - len(text.lstrip(" \t"))]

    def operations(self, doc: Doc) -> Iterator[Message]:
        """One random operation as its messages (generated lazily: each sees the last)."""
        choice = self.rng.random()
        rng = self.rng
        spans = doc.lines()
        line = rng.randrange(len(spans))
        start, end = spans[line]
        nl = doc.newline
        if choice < 0.30:  # type a snippet at the end of a line, or at a random column
            at = end if rng.random() < 0.7 else rng.randint(start, end)
            snippet = rng.choice(SNIPPETS)
            if rng.random() < 0.5:
                yield [(at, at, nl + self.indent_of(doc, line))]
                at += len(nl) + len(self.indent_of(doc, line))
            for char in snippet:
                yield [(at, at, char)]
                at += len(char)
        elif choice < 0.40:  # backspace, across line breaks too
            at = rng.randint(start, end)
            for _ in range(rng.randint(1, 6)):
                if at == 0:
                    break
                before = doc.text[at - 2 : at]
                width = 2 if before == "\r\n" else 1
                yield [(at - width, at, "")]
                at -= width
        elif choice < 0.47:  # delete lines
            count = rng.randint(1, 4)
            last = min(len(spans) - 1, line + count)
            stop = spans[last][0] if last > line else spans[line][1]
            yield [(start, stop, "")]
        elif choice < 0.55:  # paste lines from another file
            source = rng.choice(self.paste_pool).splitlines()
            if source:
                first = rng.randrange(len(source))
                block = source[first : first + rng.randint(3, 40)]
                yield [(start, start, nl.join(block) + nl)]
        elif choice < 0.60:  # delete a function
            defs = [
                i for i, (s, e) in enumerate(spans) if doc.text[s:e].lstrip().startswith("def ")
            ]
            if defs:
                first = rng.choice(defs)
                indent = len(self.indent_of(doc, first))
                last = first + 1
                while last < len(spans):
                    text = doc.text[spans[last][0] : spans[last][1]]
                    if text.strip() and len(text) - len(text.lstrip()) <= indent:
                        break
                    last += 1
                stop = spans[last][0] if last < len(spans) else len(doc.text)
                yield [(spans[first][0], stop, "")]
        elif choice < 0.66:  # a tf.function, then a print typed into it
            top = [i for i, (s, e) in enumerate(spans) if doc.text[s:e][:1].isalpha()]
            if top:
                self.counter += 1
                at = spans[rng.choice(top)][0]
                body = [
                    "@tf.function",
                    f"def hostile_{self.counter}(x):",
                    "    y = x",
                    "    return y",
                ]
                yield [(at, at, nl.join(body) + nl + nl)]
                # Then "print(x)" typed on a new line after "    y = x".
                at += len(nl.join(body[:3]))
                yield [(at, at, nl + "    ")]
                at += len(nl) + 4
                for char in "print(x)":
                    yield [(at, at, char)]
                    at += 1
        elif choice < 0.72:  # indent / dedent / comment a region (descending, one message)
            count = rng.randint(2, 6)
            lines = list(range(line, min(len(spans), line + count)))
            mode = rng.choice(["indent", "dedent", "comment", "uncomment"])
            message: Message = []
            for number in reversed(lines):
                s, e = spans[number]
                text = doc.text[s:e]
                if mode == "indent":
                    message.append((s, s, "    "))
                elif mode == "comment":
                    message.append((s, s, "# "))
                elif mode == "dedent":
                    width = len(text) - len(text.lstrip(" "))
                    message.append((s, s + min(4, width), ""))
                elif text.startswith("# "):
                    message.append((s, s + 2, ""))
            if message:
                yield message
        elif choice < 0.77:  # multi-cursor: the same text at several places, last first
            places = sorted(
                {doc.lines()[rng.randrange(len(spans))][1] for _ in range(rng.randint(2, 4))},
                reverse=True,
            )
            for char in rng.choice(SNIPPETS)[:6]:
                message = [(at, at, char) for at in places]
                yield message
                # Later places moved by one character per earlier insertion.
                places = [at + len(char) * (len(places) - i) for i, at in enumerate(places)]
        elif choice < 0.82:  # move a line (two changes in one message)
            if len(spans) > 3:
                target = rng.randrange(len(spans) - 1)
                if target != line:
                    text = doc.text[start:end]
                    stop = spans[line + 1][0] if line + 1 < len(spans) else end
                    moved = text + nl
                    dest = spans[target][0]
                    if dest > start:
                        yield [(dest, dest, moved), (start, stop, "")]
                    else:
                        yield [(start, stop, ""), (dest, dest, moved)]
        elif choice < 0.87:  # replace a selection
            a = rng.randint(start, end)
            b = rng.randint(a, end)
            yield [(a, b, rng.choice(SNIPPETS))]
        elif choice < 0.90:  # Enter in the middle of a line
            at = rng.randint(start, end)
            yield [(at, at, nl + self.indent_of(doc, line))]
        else:  # break brackets: an opening bracket now, closed a few keystrokes later
            at = end
            for char in "f(1, [2":
                yield [(at, at, char)]
                at += 1
            for char in "])":
                yield [(at, at, char)]
                at += 1


# -- results --------------------------------------------------------------------------------------
@dataclass
class Totals:
    documents: int = 0
    notebooks: int = 0
    operations: int = 0
    messages: int = 0  # didChange / notebookDocument/didChange notifications
    checkpoints: int = 0
    valid_checkpoints: int = 0
    requests: int = 0
    bad_frames: int = 0
    history: int = 0  # differences on unparsable text that a fresh didOpen does not show
    mismatches: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def add(self, other: Totals) -> None:
        for name in (
            "documents",
            "notebooks",
            "operations",
            "messages",
            "checkpoints",
            "valid_checkpoints",
            "requests",
            "bad_frames",
            "history",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.mismatches.extend(other.mismatches)
        self.errors.extend(other.errors)

    def summary(self) -> dict[str, Any]:
        return {
            "documents": self.documents,
            "notebooks": self.notebooks,
            "operations": self.operations,
            "edits (didChange messages)": self.messages,
            "checkpoints": self.checkpoints,
            "checkpoints on parsable text": self.valid_checkpoints,
            "requests": self.requests,
            "malformed frames": self.bad_frames,
            "history differences (unparsable text)": self.history,
            "mismatches": len(self.mismatches),
            "errors": len(self.errors),
        }


Key = tuple[str, int, int, int, int, str]


def lsp_key(diagnostic: dict[str, Any]) -> Key:
    r = diagnostic["range"]
    return (
        str(diagnostic.get("code")),
        r["start"]["line"],
        r["start"]["character"],
        r["end"]["line"],
        r["end"]["character"],
        diagnostic["message"],
    )


def cli_key(record: dict[str, Any], doc: Doc) -> Key:
    """A CLI record (1-based lines, 1-based code-point columns) in the client's terms."""
    spans = doc.lines()
    bom = 1 if doc.text.startswith("\ufeff") else 0

    def point(line: int, column: int) -> tuple[int, int]:
        index = line - 1
        if index >= len(spans):
            index = len(spans) - 1
            column = 10**9
        start, end = spans[index]
        text = doc.text[start:end]
        cp = column - 1 + (bom if index == 0 else 0)
        cp = max(0, min(cp, len(text)))
        return index, units(text[:cp], doc.encoding)

    sl, sc = point(record["line"], record["column"])
    el, ec = point(record["end_line"], record["end_column"])
    return (record["code"], sl, sc, el, ec, record["message"])


# -- a server session -------------------------------------------------------------------------------
class Session:
    def __init__(self, encoding: str, pull: bool, work: Path, notebooks: bool = False) -> None:
        self.encoding = encoding
        self.pull = pull
        self.work = work
        self.stderr = (work / "server.stderr").open("w+b")
        self.client = Client(
            tflsp_command("serve", "--log-level", os.environ.get("HOSTILE_LOG", "WARNING")),
            stderr=self.stderr,
        )
        capabilities: dict[str, Any] = {
            "general": {"positionEncodings": [encoding]},
            "window": {"showDocument": {"support": False}},
            "textDocument": {"codeAction": {"resolveSupport": {"properties": ["edit"]}}},
        }
        if pull:
            capabilities["textDocument"]["diagnostic"] = {}
        if notebooks:
            capabilities["notebookDocument"] = {"synchronization": {}}
        msg_id = self.client.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": work.as_uri(),
                "capabilities": capabilities,
                "locale": "en",
            },
        )
        answer = self.client.response(msg_id)
        negotiated = answer["result"]["capabilities"].get("positionEncoding", "utf-16")
        assert negotiated == encoding, negotiated
        self.client.notify("initialized", {})
        self.ids = 0

    def request(self, method: str, params: Any, totals: Totals) -> dict[str, Any]:
        totals.requests += 1
        answer = self.client.response(self.client.request(method, params))
        error = answer.get("error")
        if error is not None and error.get("code") != -32800:
            totals.errors.append(f"{method}: {error}")
        return answer

    def diagnostics(self, uri: str, version: int, totals: Totals) -> list[dict[str, Any]]:
        if self.pull:
            answer = self.request("textDocument/diagnostic", {"textDocument": {"uri": uri}}, totals)
            return answer.get("result", {}).get("items", [])  # type: ignore[no-any-return]
        message = self.client.diagnostics(uri, version)
        return message["params"]["diagnostics"]  # type: ignore[no-any-return]

    def bad_frame(self, rng: random.Random, totals: Totals) -> None:
        frame = rng.choice(BAD_FRAMES)
        assert self.client.process.stdin is not None
        self.client.process.stdin.write(frame)
        self.client.process.stdin.flush()
        totals.bad_frames += 1

    def stderr_tail(self) -> str:
        self.stderr.flush()
        self.stderr.seek(0)
        return self.stderr.read().decode("utf-8", "replace")[-3000:]

    def close(self) -> None:
        self.client.close()
        self.stderr.close()


@dataclass
class Checkpoint:
    path: Path
    doc: Doc
    server: list[Key]
    cell: int | None = None  # notebooks: 1-based cell number
    cells: list[tuple[str, Doc]] | None = None


def drive_text(
    session: Session,
    name: str,
    text: str,
    ops: int,
    rng: random.Random,
    pool: list[str],
    totals: Totals,
    checkpoints: list[Checkpoint],
    wait_p: float = 0.25,
) -> None:
    """Open ``text``, edit it ``ops`` times, come back to it; checkpoints go to
    ``checkpoints`` as they are reached (a server that stops answering keeps the earlier)."""
    doc = Doc(text, session.encoding)
    uri = (session.work / f"{name}.py").as_uri()
    session.client.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}},
    )
    totals.documents += 1
    version = 1
    editor = Editor(rng, pool)
    history = [text]

    checked = [-1]  # the version of the last checkpoint: a version is published once

    def checkpoint() -> None:
        if checked[0] == version:
            return
        checked[0] = version
        found = session.diagnostics(uri, version, totals)
        path = session.work / f"ckpt_{name}_{len(checkpoints)}.py"
        path.write_bytes(doc.text.encode("utf-8", "surrogatepass"))
        checkpoints.append(
            Checkpoint(path, Doc(doc.text, doc.encoding), [lsp_key(d) for d in found])
        )

    def send(message: Message | None, full: str | None = None) -> None:
        nonlocal version
        version += 1
        if full is not None:
            doc.text = full
            changes: list[dict[str, Any]] = [{"text": full}]
        else:
            assert message is not None
            changes = [doc.change(a, b, new) for a, b, new in message]
        session.client.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": changes},
        )
        totals.messages += 1

    checkpoint()
    for _ in range(ops):
        totals.operations += 1
        roll = rng.random()
        if roll < 0.12 and len(history) > 1:  # undo, often back to the last text that parsed
            parsable = [h for h in history[:-1] if parses(Doc(h, doc.encoding).python())]
            target = parsable[-1] if parsable and roll < 0.09 else rng.choice(history[:-1])
            prefix = 0
            limit = min(len(target), len(doc.text))
            while prefix < limit and target[prefix] == doc.text[prefix]:
                prefix += 1
            suffix = 0
            while suffix < limit - prefix and target[-1 - suffix] == doc.text[-1 - suffix]:
                suffix += 1
            # Never split a CR LF pair between the kept and the replaced part.
            while prefix and doc.text[prefix - 1] == "\r":
                prefix -= 1
            send([(prefix, len(doc.text) - suffix, target[prefix : len(target) - suffix])])
            if doc.text == target and parsable and target == parsable[-1]:
                checkpoint()  # repaired: a checkpoint on parsable text
        elif roll < 0.15:  # the whole text at once, with two lines swapped
            lines = BREAK_RE.split(doc.text)
            if len(lines) > 2:
                i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
                lines[i], lines[j] = lines[j], lines[i]
            send(None, full=doc.newline.join(lines))
        else:
            for message in editor.operations(doc):
                send(message)
        history.append(doc.text)
        if rng.random() < 0.15:
            spot = rng.randrange(len(doc.text) + 1)
            position = doc.position(spot)
            session.request(
                "textDocument/hover", {"textDocument": {"uri": uri}, "position": position}, totals
            )
            session.request(
                "textDocument/codeAction",
                {
                    "textDocument": {"uri": uri},
                    "range": {"start": position, "end": position},
                    "context": {"diagnostics": []},
                },
                totals,
            )
        if rng.random() < 0.03:
            session.bad_frame(rng, totals)
        if rng.random() < wait_p:
            checkpoint()
    if rng.random() < 0.5:
        send(None, full=text)
    else:
        send([(0, len(doc.text), text)])
    checkpoint()
    session.client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})


def compare(session: Session, checkpoints: list[Checkpoint], totals: Totals, label: str) -> None:
    """One CLI run over every checkpoint file; differences classified and counted."""
    if not checkpoints:
        return
    paths = sorted({str(c.path) for c in checkpoints})
    records: dict[str, list[dict[str, Any]]] = {p: [] for p in paths}
    for start in range(0, len(paths), 200):
        out = subprocess.run(
            [
                *tflsp_command("check"),
                "--format",
                "json",
                "--exit-zero",
                "--lang",
                "en",
                *paths[start : start + 200],
            ],
            capture_output=True,
            text=True,
            cwd=str(session.work),
            env={**os.environ, "LANG": "C.UTF-8"},
        )
        if out.returncode != 0:
            totals.errors.append(f"tflsp check failed: {out.stderr[-500:]}")
            return
        for record in json.loads(out.stdout):
            records.setdefault(str(Path(record["path"])), []).append(record)
    for number, point in enumerate(checkpoints):
        totals.checkpoints += 1
        valid = (
            parses(point.doc.python())
            if point.cells is None
            else all(parses(doc.python()) for kind, doc in point.cells if kind == "code")
        )
        totals.valid_checkpoints += valid
        found = records.get(str(point.path), [])
        if point.cell is not None:
            found = [r for r in found if r.get("cell") == point.cell]
        want = sorted(cli_key(r, point.doc) for r in found)
        got = sorted(point.server)
        if want == got:
            continue
        detail = {
            "where": label,
            "file": str(point.path),
            "cell": point.cell,
            "checkpoint": number,
            "parses": valid,
            "server_only": sorted(set(got) - set(want)),
            "cli_only": sorted(set(want) - set(got)),
        }
        if not valid and fresh_agrees(session, point, want, totals):
            totals.history += 1
            continue
        totals.mismatches.append(detail)


def fresh_agrees(session: Session, point: Checkpoint, want: list[Key], totals: Totals) -> bool:
    """Does a new document (notebook) with the same text give what the CLI gives?"""
    session.ids += 1
    if point.cells is not None and point.cell is not None:
        notebook = (session.work / f"fresh_{session.ids}.ipynb").as_uri()
        uris = [f"{notebook}#c{i}" for i in range(len(point.cells))]
        session.client.notify(
            "notebookDocument/didOpen",
            {
                "notebookDocument": {
                    "uri": notebook,
                    "notebookType": "jupyter-notebook",
                    "version": 1,
                    "cells": [
                        {"kind": 2 if kind == "code" else 1, "document": uri}
                        for uri, (kind, _) in zip(uris, point.cells, strict=True)
                    ],
                },
                "cellTextDocuments": [
                    {"uri": uri, "languageId": "python", "version": 1, "text": doc.text}
                    for uri, (_, doc) in zip(uris, point.cells, strict=True)
                ],
            },
        )
        found = session.diagnostics(uris[point.cell - 1], 1, totals)
        session.client.notify(
            "notebookDocument/didClose",
            {
                "notebookDocument": {"uri": notebook},
                "cellTextDocuments": [{"uri": u} for u in uris],
            },
        )
        return sorted(lsp_key(d) for d in found) == want
    uri = (session.work / f"fresh_{session.ids}.py").as_uri()
    session.client.notify(
        "textDocument/didOpen",
        {
            "textDocument": {
                "uri": uri,
                "languageId": "python",
                "version": 1,
                "text": point.doc.text,
            }
        },
    )
    found = session.diagnostics(uri, 1, totals)
    session.client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    return sorted(lsp_key(d) for d in found) == want


# -- notebooks ---------------------------------------------------------------------------------------
@dataclass
class NbCell:
    uri: str
    kind: int  # 2 code, 1 markup
    doc: Doc
    version: int = 1


def drive_notebook(
    session: Session,
    name: str,
    sources: list[str],
    ops: int,
    rng: random.Random,
    pool: list[str],
    totals: Totals,
    checkpoints: list[Checkpoint],
) -> None:
    notebook = (session.work / f"{name}.ipynb").as_uri()
    counter = 0

    def new_cell(text: str, kind: int = 2) -> NbCell:
        nonlocal counter
        counter += 1
        return NbCell(f"{notebook}#cell{counter}", kind, Doc(text, session.encoding))

    def item(cell: NbCell) -> dict[str, Any]:
        return {
            "uri": cell.uri,
            "languageId": "python",
            "version": cell.version,
            "text": cell.doc.text,
        }

    cells = [new_cell(text) for text in sources]
    version = 1
    session.client.notify(
        "notebookDocument/didOpen",
        {
            "notebookDocument": {
                "uri": notebook,
                "notebookType": "jupyter-notebook",
                "version": version,
                "cells": [{"kind": c.kind, "document": c.uri} for c in cells],
            },
            "cellTextDocuments": [item(c) for c in cells],
        },
    )
    totals.notebooks += 1
    editor = Editor(rng, pool)

    def change(payload: dict[str, Any]) -> None:
        nonlocal version
        version += 1
        session.client.notify(
            "notebookDocument/didChange",
            {
                "notebookDocument": {"uri": notebook, "version": version},
                "change": {"cells": payload},
            },
        )
        totals.messages += 1

    def checkpoint() -> None:
        path = session.work / f"ckpt_{name}_{len(checkpoints)}.ipynb"
        write_ipynb(path, [("code" if c.kind == 2 else "markdown", c.doc.text) for c in cells])
        snapshot = [
            ("code" if c.kind == 2 else "markdown", Doc(c.doc.text, c.doc.encoding)) for c in cells
        ]
        for number, cell in enumerate(cells, start=1):
            if cell.kind != 2:
                continue
            found = session.diagnostics(cell.uri, cell.version, totals)
            checkpoints.append(
                Checkpoint(
                    path, snapshot[number - 1][1], [lsp_key(d) for d in found], number, snapshot
                )
            )

    checkpoint()
    for _ in range(ops):
        totals.operations += 1
        roll = rng.random()
        if roll < 0.55 or len(cells) < 2:  # edit inside a code cell
            code = [c for c in cells if c.kind == 2]
            if not code:
                continue
            cell = rng.choice(code)
            for message in editor.operations(cell.doc):
                cell.version += 1
                events = [cell.doc.change(a, b, new) for a, b, new in message]
                change(
                    {
                        "textContent": [
                            {
                                "document": {"uri": cell.uri, "version": cell.version},
                                "changes": events,
                            }
                        ]
                    }
                )
        elif roll < 0.65:  # insert a cell
            at = rng.randint(0, len(cells))
            cell = new_cell(rng.choice([*sources, "x = 1\n", "print(x)\n"]))
            cells.insert(at, cell)
            change(
                {
                    "structure": {
                        "array": {
                            "start": at,
                            "deleteCount": 0,
                            "cells": [{"kind": 2, "document": cell.uri}],
                        },
                        "didOpen": [item(cell)],
                    }
                }
            )
        elif roll < 0.72:  # delete a cell
            at = rng.randrange(len(cells))
            cell = cells.pop(at)
            change(
                {
                    "structure": {
                        "array": {"start": at, "deleteCount": 1},
                        "didClose": [{"uri": cell.uri}],
                    }
                }
            )
        elif roll < 0.80:  # move a cell in one change (one splice over the span)
            a, b = sorted(rng.sample(range(len(cells)), 2))
            span = cells[a : b + 1]
            moved = span[1:] + span[:1]
            cells[a : b + 1] = moved
            change(
                {
                    "structure": {
                        "array": {
                            "start": a,
                            "deleteCount": len(span),
                            "cells": [{"kind": c.kind, "document": c.uri} for c in moved],
                        }
                    }
                }
            )
        elif roll < 0.88:  # move in two notifications: out, then back in elsewhere
            at = rng.randrange(len(cells))
            cell = cells.pop(at)
            change({"structure": {"array": {"start": at, "deleteCount": 1}}})
            to = rng.randint(0, len(cells))
            cells.insert(to, cell)
            change(
                {
                    "structure": {
                        "array": {
                            "start": to,
                            "deleteCount": 0,
                            "cells": [{"kind": cell.kind, "document": cell.uri}],
                        }
                    }
                }
            )
        else:  # code <-> markdown
            cell = rng.choice(cells)
            cell.kind = 1 if cell.kind == 2 else 2
            change({"data": [{"kind": cell.kind, "document": cell.uri}]})
        if rng.random() < 0.3:
            checkpoint()
    checkpoint()
    session.client.notify(
        "notebookDocument/didClose",
        {
            "notebookDocument": {"uri": notebook},
            "cellTextDocuments": [{"uri": c.uri} for c in cells],
        },
    )


def write_ipynb(path: Path, cells: list[tuple[str, str]]) -> None:
    def cell(kind: str, text: str, number: int) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": f"c{number}",
            "cell_type": kind,
            "metadata": {},
            "source": text.splitlines(keepends=True),
        }
        if kind == "code":
            out.update(execution_count=None, outputs=[])
        return out

    document = {
        "cells": [cell(kind, text, i) for i, (kind, text) in enumerate(cells)],
        "metadata": {"language_info": {"name": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")


# -- the run -------------------------------------------------------------------------------------
def corpus_files(corpus: Path | None, count: int, rng: random.Random, max_lines: int) -> list[Path]:
    if corpus is None or not corpus.is_dir() or count <= 0:
        return []
    files = sorted(p for p in corpus.rglob("*.py") if p.is_file())
    suitable = []
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        if 15 <= text.count("\n") <= max_lines and "\r" not in text and "\x00" not in text:
            suitable.append(path)
    rng.shuffle(suitable)
    return suitable[:count]


def variants(text: str, index: int) -> tuple[str, str]:
    """The index-th line-break variant of ``text``: LF, CRLF, lone CR, or LF with a BOM."""
    kind = ("lf", "crlf", "cr", "bom")[index % 4]
    if kind == "crlf":
        return kind, text.replace("\n", "\r\n")
    if kind == "cr":
        return kind, text.replace("\n", "\r")
    if kind == "bom":
        return kind, "\ufeff" + text
    return kind, text


def run(
    seed: int,
    files: int,
    ops: int,
    notebooks: int,
    corpus: Path | None,
    generated: int,
    notebook_ops: int,
    max_lines: int = 900,
    echo: bool = False,
) -> Totals:
    rng = random.Random(seed)
    catalog = sorted((ROOT / "tflsp" / "catalog" / "patterns").glob("*/bad.py"))
    pool = [p.read_text(encoding="utf-8") for p in catalog]
    texts: list[tuple[str, str]] = []
    if generated > 0:
        texts.append(("generated", generate(300)))
    for path in rng.sample(catalog, min(len(catalog), max(0, generated - 1))):
        texts.append((path.parent.name, path.read_text(encoding="utf-8")))
    for path in corpus_files(corpus, files, rng, max_lines):
        text = path.read_text(encoding="utf-8")
        texts.append((path.stem, text))
        pool.append(text)
    totals = Totals()
    with tempfile.TemporaryDirectory(prefix="tflsp-hostile-") as tmp:
        work = Path(tmp)
        by_encoding: dict[str, list[tuple[str, str]]] = {e: [] for e in ENCODINGS}
        for index, (name, text) in enumerate(texts):
            kind, variant = variants(text, index)
            label = re.sub(r"\W", "_", name)[:30]
            by_encoding[ENCODINGS[index % 3]].append((f"d{index}_{kind}_{label}", variant))
        for encoding, docs in by_encoding.items():
            pull = encoding == "utf-8"
            (work / encoding).mkdir()
            session = Session(encoding, pull, work / encoding)
            part = Totals()
            checkpoints: list[Checkpoint] = []
            try:
                for name, text in docs:
                    began = time.monotonic()
                    drive_text(session, name, text, ops, rng, pool, part, checkpoints)
                    if echo:
                        print(f"  {encoding} {name}: {time.monotonic() - began:.1f} s", flush=True)
                compare(session, checkpoints, part, encoding)
            except (TimeoutError, EOFError, OSError) as exc:
                part.errors.append(f"{encoding} server stopped answering: {exc!r}")
            finally:
                session.close()
            totals.add(part)
        for number in range(notebooks):
            encoding = ENCODINGS[number % 3]
            folder = work / f"nb{number}"
            folder.mkdir()
            session = Session(encoding, True, folder, notebooks=True)
            part = Totals()
            points: list[Checkpoint] = []
            try:
                sources = [
                    "import tensorflow as tf\n",
                    *(p.read_text(encoding="utf-8") for p in rng.sample(catalog, 3)),
                ]
                drive_notebook(
                    session, f"nb{number}", sources, notebook_ops, rng, pool, part, points
                )
                compare(session, points, part, f"notebook {encoding}")
            except (TimeoutError, EOFError, OSError) as exc:
                part.errors.append(f"notebook {encoding} server stopped answering: {exc!r}")
            finally:
                session.close()
            totals.add(part)
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--files", type=int, default=20, help="corpus files")
    parser.add_argument("--ops", type=int, default=150, help="operations per document")
    parser.add_argument(
        "--generated", type=int, default=6, help="generated module + catalog examples"
    )
    parser.add_argument("--notebooks", type=int, default=3)
    parser.add_argument("--notebook-ops", type=int, default=80)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--json", type=Path, help="write totals and mismatches here")
    parser.add_argument("--server-root", help="test the tflsp of this checkout instead")
    args = parser.parse_args()
    global TFLSP_ROOT
    TFLSP_ROOT = args.server_root
    corpus = args.corpus if args.corpus.is_dir() else None
    if corpus is None:
        print(f"note: {args.corpus} is absent; generated documents only", flush=True)
    began = time.monotonic()
    totals = run(
        args.seed,
        args.files,
        args.ops,
        args.notebooks,
        corpus,
        args.generated,
        args.notebook_ops,
        echo=True,
    )
    summary = totals.summary()
    summary["seconds"] = round(time.monotonic() - began, 1)
    for key, value in summary.items():
        print(f"{key:40s} {value}")
    for mismatch in totals.mismatches[:10]:
        print(json.dumps(mismatch, ensure_ascii=False)[:600])
    for error in totals.errors[:10]:
        print("error:", error[:300])
    if args.json:
        args.json.write_text(
            json.dumps(
                {"totals": summary, "mismatches": totals.mismatches, "errors": totals.errors},
                indent=2,
                ensure_ascii=False,
            )
        )


if __name__ == "__main__":
    main()
