"""Real code for the benchmarks: one module made of the top-level statements of real files.

The files come from ``../shared/corpus`` (code nobody on the team wrote; ``TFLSP_SHARED``
overrides the location).  They are taken in a fixed order (by a hash of their path, which
mixes the repositories) and each one's top-level statements -- decorators, bodies and the
comments inside them -- are appended until the module has the lines asked for.  Statements
that cannot sit in the middle of one module are left out (``from __future__`` imports), files
that do not parse on this Python are skipped, and the result is checked to parse as one module.

The text is built at run time and never stored in the project: a user's clone has no
``../shared``, and :func:`real_module` then returns None with the reason, so the benchmarks
fall back to the generated module (``benchmarks/generate.py``).

Usage: ``python benchmarks/realcode.py [--lines 5000] > module.py``
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import os
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def corpus_dir() -> Path:
    return Path(os.environ.get("TFLSP_SHARED") or ROOT.parent / "shared") / "corpus"


def corpus_files(corpus: Path | None = None) -> list[Path]:
    """Every ``.py`` file of the corpus, sorted by path (the order ``tflsp check`` sees)."""
    folder = corpus or corpus_dir()
    return sorted(folder.rglob("*.py")) if folder.is_dir() else []


def missing_corpus_message(consequence: str = "measuring the generated module only") -> str:
    return (
        f"{corpus_dir()} is absent: the real-code figures need ../shared/corpus (set "
        f"TFLSP_SHARED to the folder that has corpus/); {consequence}"
    )


def _statement_spans(tree: ast.Module) -> list[tuple[int, int]]:
    """1-based inclusive line spans of the top-level statements, decorators included.

    Statements sharing a line (``a = 1; b = 2``) are merged into one span.
    """
    spans: list[tuple[int, int]] = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            continue
        start = node.lineno
        for decorator in getattr(node, "decorator_list", ()):
            start = min(start, decorator.lineno)
        end = node.end_lineno or node.lineno
        if spans and start <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(end, spans[-1][1]))
        else:
            spans.append((start, end))
    return spans


def _statements(path: Path) -> list[str] | None:
    """The file's top-level statements, each with the comment and blank lines just above it."""
    try:
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return None
    lines = text.splitlines()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            for number in range(node.lineno, (node.end_lineno or node.lineno) + 1):
                lines[number - 1] = ""
    out = []
    previous_end = 0
    for start, end in _statement_spans(tree):
        # The lines between two statements stay as the author wrote them; those above the
        # first one (a licence header, a shebang) do not.
        gap_start = previous_end if out else start - 1
        out.append("\n".join(lines[gap_start:end]).rstrip() + "\n")
        previous_end = end
    # The file's statements must still parse together without what was left out (a future
    # import, a trailing line): otherwise skip the file.
    try:
        ast.parse("".join(out))
    except SyntaxError:
        return None
    return out


@dataclass(frozen=True)
class RealModule:
    text: str
    files: tuple[str, ...]  # corpus-relative paths, in module order
    statements: int


def _order_key(relative: str) -> str:
    return hashlib.sha1(relative.encode()).hexdigest()


def real_module(lines: int, corpus: Path | None = None) -> RealModule | None:
    """A module of about ``lines`` lines (never fewer, unless the corpus runs out)."""
    folder = corpus or corpus_dir()
    files = corpus_files(folder)
    if not files:
        return None
    ordered = sorted(files, key=lambda p: _order_key(p.relative_to(folder).as_posix()))
    parts: list[str] = []
    used: list[str] = []
    count = statements = 0
    for path in ordered:
        if count >= lines:
            break
        found = _statements(path)
        if not found:
            continue
        used.append(path.relative_to(folder).as_posix())
        if parts:
            parts.append("\n\n")  # two blank lines between files
            count += 2
        for statement in found:
            if count >= lines:
                break
            parts.append(statement)
            count += statement.count("\n")
            statements += 1
    text = "".join(parts)
    ast.parse(text)  # a module that does not parse would measure the wrong thing
    return RealModule(text, tuple(used), statements)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--lines", type=int, default=5000)
    args = parser.parse_args()
    module = real_module(args.lines)
    if module is None:
        sys.exit(missing_corpus_message("no module to print"))
    print(
        f"# {module.text.count(chr(10))} lines, {module.statements} statements "
        f"from {len(module.files)} files",
        file=sys.stderr,
    )
    sys.stdout.write(module.text)


if __name__ == "__main__":
    main()
