"""``tflsp check`` on Jupyter notebooks, through the real command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.ecosystem.helpers import (
    code_cell,
    markdown_cell,
    notebook,
    run_tflsp,
    write_notebook,
)
from tflsp.analysis.diagnostics import Edit, Fix
from tflsp.cli.notebooks import cell_edits
from tflsp.ipynb import NotebookError, parse_notebook
from tflsp.notebook import build_module, mask_ipython

IMPORTS = "%matplotlib inline\nimport tensorflow as tf\n"
STEP = '@tf.function\ndef step(x):\n    print("x", x)\n    return x * 2\n'
TAPE = (
    "def slope(value):\n"
    "    x = tf.constant(value)\n"
    "    with tf.GradientTape() as tape:\n"
    "        y = x * x\n"
    "    return tape.gradient(y, x)\n"
)
SHELL = "!pip install -q tensorflow\nresult = step(tf.constant(1.0))\ntf.function?\n"


def _line_of(source: str, needle: str) -> int:
    """1-based line of the first line containing ``needle``."""
    return next(i for i, line in enumerate(source.splitlines(), 1) if needle in line)


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    cells = [
        markdown_cell("# Training\nA notebook with pitfalls.\n"),
        code_cell(IMPORTS),
        code_cell(
            STEP,
            execution_count=3,
            outputs=[{"name": "stdout", "output_type": "stream", "text": ["x 1.0\n"]}],
            metadata={"tags": ["keep-me"], "collapsed": False},
        ),
        markdown_cell("## Gradients"),
        code_cell(TAPE),
        code_cell(SHELL),
    ]
    write_notebook(tmp_path / "demo.ipynb", notebook(cells))
    return tmp_path


# -- masking IPython syntax ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "masked"),
    [
        ("%time x = f()\ny = 1\n", {0}),
        ("files = !ls -la\nprint(files)\n", {0}),
        ("a, b = %sx echo 1 2\n", {0}),
        ("tf.function?\nmodel.fit??  # help\n?tf.print\n", {0, 1, 2}),
        ("for i in range(3):\n    !echo $i\n", {1}),
        ("%config InlineBackend.figure_format = \\\n    'retina'\nx = 1\n", {0, 1}),
        # Not IPython: a string, a bracket continuation, a comment ending in "?", modulo.
        ('s = """\n%not a magic\n!nor this\n"""\n', set()),
        ("total = (a\n% b)\n", set()),
        ("x = 3  # why?\nq = '?'\n", set()),
        ("y = 10 % 3\nz = x != y\n", set()),
    ],
)
def test_mask_keeps_lines_and_parses(source: str, masked: set[int]) -> None:
    result = mask_ipython(source)
    assert set(result.masked) == masked
    assert result.text.count("\n") == source.count("\n")
    compile(result.text, "<cell>", "exec")
    original = source.split("\n")
    for index, line in enumerate(result.text.split("\n")):
        if index not in masked:
            assert line == original[index]


def test_cell_magics() -> None:
    shell = mask_ipython("%%bash\nls -la\nif [ -f x ]; then echo; fi\n")
    compile(shell.text, "<cell>", "exec")
    assert shell.masked == {0, 1, 2}
    # %%time runs Python in the user's namespace: only the magic line is masked.
    timed = mask_ipython("\n%%time\nmodel.fit(x)\n")
    assert timed.masked == {1}
    assert timed.text.split("\n")[2] == "model.fit(x)"


def test_module_maps_positions_back_to_cells() -> None:
    module = build_module([(2, IMPORTS), (3, ""), (4, STEP.rstrip("\n")), (7, SHELL)])
    assert [c.number for c in module.cells] == [2, 3, 4, 7]
    print_line = _line_of(module.text, "print(")
    point = module.locate(print_line, 4)
    assert point is not None and (point.cell, point.line, point.column) == (4, 3, 4)
    assert module.module_line(4, 3) == print_line
    # The last cell's lines follow the cell without a final newline.
    point = module.locate(_line_of(module.text, "result ="), 0)
    assert point is not None and (point.cell, point.line) == (7, 2)
    assert module.locate(module.text.count("\n") + 1, 0) is None
    # A range that runs to the start of the next cell ends at the end of its own cell.
    cell = module.cell(4)
    assert cell is not None and cell.lines == STEP.count("\n")
    last = module.locate(cell.end - 1, 0)
    assert last is not None
    end = module.locate_end(last, cell.end, 0)
    assert end is not None and (end.cell, end.line, end.column) == (4, cell.lines + 1, 0)
    assert module.locate_end(last, cell.end, 1) is None  # inside cell 7: not one cell's range


def test_fix_touching_an_ipython_line_is_not_offered() -> None:
    module = build_module([(1, "%matplotlib inline\nx = 1\n")])
    on_magic = Fix((Edit(1, 0, 1, 4, "pass"),), safe=True)
    on_code = Fix((Edit(2, 0, 2, 1, "y"),), safe=True)
    assert cell_edits(module, on_magic) is None
    edits = cell_edits(module, on_code)
    assert edits is not None and [(e.cell, e.edit.line) for e in edits] == [(1, 2)]


# -- the notebook file -----------------------------------------------------------------------


def test_rejects_what_is_not_a_notebook() -> None:
    with pytest.raises(NotebookError, match="not valid JSON"):
        parse_notebook("{ nope")
    with pytest.raises(NotebookError, match="nbformat 3"):
        parse_notebook(json.dumps({"worksheets": [], "nbformat": 3}))


def test_file_positions_account_for_escapes(tmp_path: Path) -> None:
    source = 'msg = "naïve \\"quoted\\""\nprint(msg)\n'
    for ensure_ascii in (False, True):
        text = write_notebook(
            tmp_path / "n.ipynb", notebook([code_cell(source)]), ensure_ascii=ensure_ascii
        )
        parsed = parse_notebook(text)
        position = parsed.file_position(1, 2, 0)
        assert position is not None
        file_line, column = position
        assert text.splitlines()[file_line - 1][column:].startswith("print(msg)")
        # The closing quote of the first line's string, past the escaped characters.
        file_line, column = parsed.file_position(1, 1, len("msg = ")) or (0, 0)
        assert text.splitlines()[file_line - 1][column:].startswith(
            '\\"naï' if not ensure_ascii else '\\"na\\u00ef'
        )


# -- the command line ------------------------------------------------------------------------


def test_text_output_names_the_cell(demo: Path) -> None:
    proc = run_tflsp("check", "demo.ipynb", cwd=demo)
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.splitlines()
    print_line = _line_of(STEP, "print(")
    assert lines[0].startswith(f"demo.ipynb:cell 3:{print_line}:5: TFL101 [*] [print-in-graph] ")
    gradient_line = _line_of(TAPE, "tape.gradient")
    tape_column = TAPE.splitlines()[gradient_line - 1].rindex("x)") + 1
    assert lines[1].startswith(f"demo.ipynb:cell 5:{gradient_line}:{tape_column}: TFL503 [*] ")
    assert lines[-1] == "Checked 1 file, found 2 problems. 2 fixable with --fix."
    assert proc.stderr == ""  # magics, shell escapes and help lines raise nothing


def test_json_is_cell_relative(demo: Path) -> None:
    proc = run_tflsp("check", "--format", "json", "demo.ipynb", cwd=demo)
    records = json.loads(proc.stdout)
    first = records[0]
    assert (first["cell"], first["line"], first["column"]) == (3, _line_of(STEP, "print("), 5)
    assert first["fix"]["edits"] == [
        {
            "cell": 3,
            "line": first["line"],
            "column": 5,
            "end_line": first["line"],
            "end_column": 10,
            "content": "tf.print",
        }
    ]
    # Python files keep their shape, with "cell": null.
    (demo / "plain.py").write_text(IMPORTS.split("\n", 1)[1] + STEP)
    plain = json.loads(run_tflsp("check", "--format", "json", "plain.py", cwd=demo).stdout)
    assert plain[0]["cell"] is None and "cell" not in plain[0]["fix"]["edits"][0]


def test_fix_rewrites_only_the_changed_cells(demo: Path) -> None:
    path = demo / "demo.ipynb"
    before_text = path.read_text(encoding="utf-8")
    before = json.loads(before_text)
    proc = run_tflsp("check", "--fix", "demo.ipynb", cwd=demo)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Fixed 2." in proc.stdout
    after_text = path.read_text(encoding="utf-8")
    after = json.loads(after_text)
    # Everything but the two fixed sources is identical, key order included.
    changed = {
        i for i, (a, b) in enumerate(zip(before["cells"], after["cells"], strict=True)) if a != b
    }
    assert changed == {2, 4}
    for index in changed:
        a, b = dict(before["cells"][index]), dict(after["cells"][index])
        assert list(a) == list(b)
        a.pop("source"), b.pop("source")
        assert a == b
    assert after["metadata"] == before["metadata"]
    fixed_step = "".join(after["cells"][2]["source"])
    assert 'tf.print("x", x)' in fixed_step
    fixed_tape = "".join(after["cells"][4]["source"])
    assert "        tape.watch(x)\n        y = x * x" in fixed_tape
    # The file is laid out as Jupyter wrote it: only the source lines differ.
    before_lines, after_lines = before_text.splitlines(), after_text.splitlines()
    assert after_text.endswith("}\n")
    assert len(after_lines) == len(before_lines) + 1  # the inserted tape.watch line
    differing = [line for line in after_lines if line not in before_lines]
    assert differing == ['    "    tf.print(\\"x\\", x)\\n",', '    "        tape.watch(x)\\n",']
    assert run_tflsp("check", "demo.ipynb", cwd=demo).returncode == 0


def test_fix_keeps_unusual_layouts(tmp_path: Path) -> None:
    """Indent 2, escaped non-ASCII, a source stored as one string, no final newline."""
    cells = [
        code_cell(IMPORTS),
        {**code_cell(""), "source": "# 日本語のコメント\n" + STEP},
    ]
    path = tmp_path / "odd.ipynb"
    before = write_notebook(path, notebook(cells), indent=2, ensure_ascii=True, final_newline=False)
    proc = run_tflsp("check", "--fix", str(path), cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    after = path.read_text(encoding="utf-8")
    assert after.isascii() and not after.endswith("\n")
    expected = before.replace('    print(\\"x\\", x)', '    tf.print(\\"x\\", x)')
    assert expected != before and after == expected


def test_diff_shows_cells_and_writes_nothing(demo: Path) -> None:
    path = demo / "demo.ipynb"
    before = path.read_bytes()
    proc = run_tflsp("check", "--diff", "demo.ipynb", cwd=demo)
    assert proc.returncode == 1
    assert "--- a/demo.ipynb:cell 3\n+++ b/demo.ipynb:cell 3\n" in proc.stdout
    assert '+    tf.print("x", x)' in proc.stdout
    assert "+++ b/demo.ipynb:cell 5\n" in proc.stdout
    assert path.read_bytes() == before


def test_directories_include_notebooks_but_not_checkpoints(demo: Path) -> None:
    checkpoints = demo / ".ipynb_checkpoints"
    checkpoints.mkdir()
    (checkpoints / "demo-checkpoint.ipynb").write_text((demo / "demo.ipynb").read_text())
    (demo / "notes.txt").write_text("not checked")
    proc = run_tflsp("check", "--format", "json", ".", cwd=demo)
    assert {r["path"] for r in json.loads(proc.stdout)} == {"demo.ipynb"}


def test_other_kernels_and_broken_files(tmp_path: Path) -> None:
    write_notebook(tmp_path / "r.ipynb", notebook([code_cell("print(1 %in% x)\n")], "R"))
    proc = run_tflsp("check", "r.ipynb", cwd=tmp_path)
    assert proc.returncode == 0
    assert "r.ipynb: skipped: not a Python notebook (kernel language: r)" in proc.stderr
    (tmp_path / "broken.ipynb").write_text('{"cells": [')
    proc = run_tflsp("check", "broken.ipynb", "r.ipynb", cwd=tmp_path)
    assert proc.returncode == 2
    assert "broken.ipynb: error: not valid JSON" in proc.stderr


def test_syntax_error_in_a_cell_is_reported_in_that_cell(tmp_path: Path) -> None:
    cells = [code_cell(IMPORTS), markdown_cell("text"), code_cell("x = 1\ndef broken(:\n")]
    write_notebook(tmp_path / "s.ipynb", notebook(cells))
    proc = run_tflsp("check", "--format", "json", "s.ipynb", cwd=tmp_path)
    records = json.loads(proc.stdout)
    assert [(r["code"], r["cell"], r["line"]) for r in records] == [("TFL000", 3, 2)]


def test_stdin_with_a_notebook_name(demo: Path) -> None:
    text = (demo / "demo.ipynb").read_text(encoding="utf-8")
    proc = run_tflsp("check", "--fix", "--stdin-filename", "demo.ipynb", "-", cwd=demo, stdin=text)
    fixed = json.loads(proc.stdout)
    assert 'tf.print("x", x)' in "".join(fixed["cells"][2]["source"])
