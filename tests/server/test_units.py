"""The server's building blocks without a process: positions, buffers, notebooks, names."""

from __future__ import annotations

import ast
import textwrap

import pytest

from tests.helpers import analyzer
from tflsp.server.config import editor_section
from tflsp.server.documents import Cell, NotebookState, TextBuffer
from tflsp.server.names import api_names, block_context, node_at
from tflsp.server.positions import UTF8, UTF16, UTF32, from_client_column, to_client_column
from tflsp.server.transport import FrameParser


@pytest.mark.parametrize(
    ("line", "column", "utf16", "utf8"),
    [
        ("plain ascii", 5, 5, 5),
        ("é = 1", 1, 1, 2),
        ("𝛼 = 1", 1, 2, 4),  # outside the BMP: a surrogate pair in UTF-16
        ("x = '日本'", 7, 7, 11),
        ("short", 99, 5, 5),  # clamped to the line
    ],
)
def test_column_conversions_round_trip(line: str, column: int, utf16: int, utf8: int) -> None:
    assert to_client_column(line, min(column, len(line)), UTF16) == utf16
    assert to_client_column(line, min(column, len(line)), UTF8) == utf8
    assert to_client_column(line, min(column, len(line)), UTF32) == min(column, len(line))
    assert from_client_column(line, utf16, UTF16) == min(column, len(line))
    assert from_client_column(line, utf8, UTF8) == min(column, len(line))


def test_text_buffer_incremental_edits() -> None:
    buffer = TextBuffer("a = 1\n𝛼 = 2\nc = 3")
    # Replace "2" on the second line: UTF-16 column 5, code point 4 (𝛼 counts twice).
    buffer.apply((1, 5), (1, 6), "20", UTF16)
    assert buffer.text == "a = 1\n𝛼 = 20\nc = 3"
    # Join lines 1-2, insert several lines, delete everything after them.
    buffer.apply((0, 5), (1, 0), " ", UTF16)
    assert buffer.text == "a = 1 𝛼 = 20\nc = 3"
    buffer.apply((1, 5), (1, 5), "\nd = 4\ne = 5", UTF16)
    assert buffer.lines == ["a = 1 𝛼 = 20", "c = 3", "d = 4", "e = 5"]
    buffer.apply((2, 0), (99, 0), "", UTF16)  # an end past the document is clamped
    assert buffer.text == "a = 1 𝛼 = 20\nc = 3\n"
    assert len(buffer) == len(buffer.text)
    buffer.apply((1, 0), (0, 0), "", UTF16)  # reversed range
    assert buffer.text == "c = 3\n"


def test_text_buffer_keeps_crlf() -> None:
    buffer = TextBuffer("a = 1\r\nb = 2\r\n")
    buffer.apply((1, 4), (1, 5), "3", UTF16)
    assert buffer.document() == "a = 1\r\nb = 3\r\n"
    assert buffer.text == "a = 1\nb = 3\n"  # what is analysed


def test_notebook_cells_are_masked_like_the_cli_and_ipython_lines_are_not_located() -> None:
    cells = [
        "if True:\n    %time x = 1\n",
        "import tensorflow as tf\ntf.function?\n",
        "files = !ls\nn = len(files)\n",
        "%%bash\nls -l\n",
        's = "%d" % 3\n',
    ]
    notebook = NotebookState(
        "file:///nb.ipynb",
        1,
        [Cell(f"cell:{i}", 2, TextBuffer(text)) for i, text in enumerate(cells)],
    )
    source, line_map = notebook.module()
    ast.parse(source)  # valid Python, so no false TFL000 in any cell
    assert source.splitlines()[1] == "    pass  # %time x = 1"
    assert 's = "%d" % 3' in source  # not IPython: untouched
    assert line_map.locate(1) == ("cell:0", 0)
    assert line_map.locate(2) is None  # the %time line
    assert line_map.locate(4) is None  # tf.function?
    assert line_map.locate(5) is None and line_map.locate(6) == ("cell:2", 1)
    # The masking is computed once per cell text.
    first = notebook.cells[0].masked()
    assert notebook.cells[0].masked() is first
    notebook.cells[0].buffer.apply((0, 3), (0, 7), "False", UTF16)
    assert notebook.cells[0].masked() is not first


def test_notebook_module_and_line_map() -> None:
    notebook = NotebookState(
        "file:///nb.ipynb",
        1,
        [
            Cell("cell:a", 2, TextBuffer("import tensorflow as tf\n")),
            Cell("cell:md", 1, TextBuffer("# Title"), language_id="markdown"),
            Cell("cell:b", 2, TextBuffer("x = 1\ny = 2")),
        ],
    )
    source, line_map = notebook.module()
    assert source == "import tensorflow as tf\nx = 1\ny = 2\n"
    assert line_map.locate(1) == ("cell:a", 0)
    assert line_map.locate(3) == ("cell:b", 1)
    assert line_map.locate(4) is None
    assert line_map.module_line("cell:b", 0) == 2
    assert line_map.module_line("cell:md", 0) is None


def test_editor_section_shapes() -> None:
    assert editor_section({"tflsp": {"select": ["TFL1"]}}) == {"select": ["TFL1"]}
    assert editor_section({"settings": {"tflsp": {"lang": "ja"}}}) == {"lang": "ja"}
    assert editor_section({"targetKeras": "2"}) == {"targetKeras": "2"}
    assert editor_section({"python": {"analysis": {}}}) is None  # another tool's settings
    assert editor_section(None) is None
    assert editor_section({"tflsp": {}}) == {}


def test_frame_parser_handles_split_and_joined_frames() -> None:
    bodies: list[bytes] = []
    parser = FrameParser(bodies.append)
    frame = b'Content-Length: 7\r\nContent-Type: x\r\n\r\n{"a":1}'
    data = frame + b"junk without header end\r\n\r\n" + frame
    for index in range(0, len(data), 5):  # byte by byte-ish
        parser.feed(data[index : index + 5])
    assert bodies == [b'{"a":1}', b'{"a":1}']
    assert not parser.has_partial


SOURCE = textwrap.dedent(
    """\
    import tensorflow as tf
    from tensorflow import keras


    class Scale(keras.layers.Layer):
        def build(self, shape):
            self.w = self.add_weight(shape=(1,))


    def pipeline(n):
        # A parameter's value is unknown: hover names Dataset methods only on a known dataset.
        ds = tf.data.Dataset.range(n)
        ds = ds.shuffle(10)
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(ds)
        return tape.gradient(y, [])


    @keras.saving.register_keras_serializable()
    class Saved(keras.Model):
        def train_step(self, data):
            return {}


    optimizer = keras.optimizers.Adam()
    net = keras.Sequential([keras.layers.Dense(1)])


    def fit_it(x):
        optimizer.apply_gradients([])
        net.fit(x)
    """
)


@pytest.mark.parametrize(
    ("needle", "expected"),
    [
        ("add_weight", "keras.Layer.add_weight"),
        ("shuffle", "tensorflow.data.Dataset.shuffle"),
        ("GradientTape", "tensorflow.GradientTape"),
        ("gradient(", "tensorflow.GradientTape.gradient"),
        ("register_keras_serializable", "keras.saving.register_keras_serializable"),
        ("reduce_sum", "tensorflow.reduce_sum"),
        ("apply_gradients", "keras.optimizers.Optimizer.apply_gradients"),
        ("fit(", "keras.Model.fit"),
    ],
)
def test_api_names_under_the_cursor(needle: str, expected: str) -> None:
    result = analyzer().analyze(SOURCE)
    assert result.summary is not None
    lines = SOURCE.split("\n")
    line = next(i for i, text in enumerate(lines) if needle in text) + 1
    column = lines[line - 1].index(needle.rstrip("(")) + 2
    view = result.block_at(line)
    assert view is not None
    ctx = block_context(view, result.summary)
    assert ctx is not None
    node = node_at(ctx, line - view.start_line + 1, column)
    assert isinstance(node, (ast.Attribute, ast.Name))
    assert expected in api_names(ctx, node)


def test_creating_the_server_imports_no_analysis_code() -> None:
    """The analyzer loads after the initialize answer, so the server starts like bare pygls."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from tflsp.server import create_server\n"
        "create_server()\n"
        "print([m for m in sys.modules if m.startswith(('tflsp.analysis', 'tflsp.catalog',"
        " 'tflsp.settings'))])\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert completed.stdout.strip() == "[]"


def test_keras_method_definitions_have_api_names() -> None:
    from tflsp.server.names import method_api_names, method_at

    result = analyzer().analyze(SOURCE)
    assert result.summary is not None
    lines = SOURCE.split("\n")
    line = next(i for i, text in enumerate(lines) if "def train_step" in text) + 1
    view = result.block_at(line)
    assert view is not None
    ctx = block_context(view, result.summary)
    assert ctx is not None
    found = method_at(ctx, line - view.start_line + 1, lines[line - 1].index("train_step") + 3)
    assert found is not None
    assert "keras.Model.train_step" in method_api_names(ctx, found[0])
    # Not on the "def" keyword, and not for methods of plain classes.
    assert method_at(ctx, line - view.start_line + 1, lines[line - 1].index("def")) is None
