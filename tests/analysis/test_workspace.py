"""The workspace import graph: facts that live in another file of the user's package.

Packages are written to ``tmp_path`` and checked the way ``tflsp check`` checks them, so a
finding here comes from the resolver, the imported file's summary and the model together.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from tests.helpers import analyzer
from tests.test_cli import tflsp
from tflsp.analysis.workspace import Workspace, imported_modules, module_path
from tflsp.cli.check import check_paths
from tflsp.settings import Settings

LAYERS = """\
    import keras
    import tensorflow as tf


    class Plain(keras.layers.Layer):
        def call(self, x):
            return x


    @keras.saving.register_keras_serializable()
    class Registered(keras.layers.Layer):
        def call(self, x):
            return x


    @tf.function
    def step(x):
        return x * 2
    """

RETRACE = """\
    {imports}


    for i in range(10):
        {call}(i)
    """

SAVE_LOAD = """\
    import keras
    {imports}

    model = keras.Sequential([{cls}()])
    model.save("model.keras")
    restored = keras.models.load_model("model.keras")
    """


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")


def package(root: Path, **modules: str) -> Path:
    files = {"pkg/__init__.py": "", "pkg/layers.py": LAYERS}
    files.update({f"pkg/{name}.py": text for name, text in modules.items()})
    write(root, files)
    return root / "pkg"


def findings(path: Path) -> list[tuple[str, int, str]]:
    """(file name, line, code) of every finding ``tflsp check`` reports for ``path``."""
    reports = check_paths(
        [str(path)], Settings(select=("ALL",)), fix=False, unsafe=False, diff=False, jobs=1
    )
    return sorted((Path(r.path).name, d.line, d.code) for r in reports for d in r.diagnostics)


def codes_in(path: Path, name: str) -> list[tuple[int, str]]:
    return [(line, code) for file, line, code in findings(path) if file == name]


# -- resolving imports ---------------------------------------------------------------------
def test_module_names_follow_package_folders(tmp_path: Path) -> None:
    write(tmp_path, {"pkg/__init__.py": "", "pkg/sub/__init__.py": "", "pkg/sub/a.py": ""})
    assert module_path(tmp_path / "pkg/sub/a.py") == ("pkg", "sub", "a")
    assert module_path(tmp_path / "pkg/sub/__init__.py") == ("pkg", "sub")
    assert module_path(tmp_path / "script.py") == ("script",)


def test_relative_absolute_and_src_layout_imports_resolve(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "pyproject.toml": "",
            "src/pkg/__init__.py": "",
            "src/pkg/layers.py": "",
            "src/pkg/sub/__init__.py": "",
            "src/pkg/sub/ops.py": "",
            "scripts/run.py": "",
        },
    )
    ops = tmp_path / "src/pkg/sub/ops.py"
    found = imported_modules(ops, "from ..layers import A\nfrom . import ops\nimport os\n")
    assert found == {  # the file itself is not its own import
        ("pkg", "layers"): tmp_path / "src/pkg/layers.py",
        ("pkg", "sub"): tmp_path / "src/pkg/sub/__init__.py",
    }
    run = tmp_path / "scripts/run.py"
    found = imported_modules(run, "import pkg.sub.ops as m\nfrom pkg import layers\n")
    assert found == {
        ("pkg", "sub", "ops"): ops,
        ("pkg",): tmp_path / "src/pkg/__init__.py",
        ("pkg", "layers"): tmp_path / "src/pkg/layers.py",
    }


def test_installed_packages_are_never_followed(tmp_path: Path) -> None:
    site = tmp_path / "lib/site-packages"
    write(site, {"pkg/__init__.py": "", "pkg/layers.py": LAYERS, "user.py": ""})
    assert imported_modules(site / "user.py", "from pkg.layers import Plain\n") == {}


# -- facts from sibling files --------------------------------------------------------------
def test_relative_import_of_a_tf_function(tmp_path: Path) -> None:
    pkg = package(tmp_path, train=RETRACE.format(imports="from .layers import step", call="step"))
    assert codes_in(pkg, "train.py") == [(5, "TFL106")]


def test_absolute_and_module_imports_of_a_tf_function(tmp_path: Path) -> None:
    pkg = package(
        tmp_path,
        a=RETRACE.format(imports="from pkg.layers import step", call="step"),
        b=RETRACE.format(imports="import pkg.layers as layers", call="layers.step"),
        c=RETRACE.format(imports="from . import layers", call="layers.step"),
    )
    assert [(f, code) for f, _, code in findings(pkg)] == [
        ("a.py", "TFL106"),
        ("b.py", "TFL106"),
        ("c.py", "TFL106"),
    ]


def test_a_plain_function_or_a_missing_name_stays_unknown(tmp_path: Path) -> None:
    write(tmp_path, {"pkg/helpers.py": "def step(x):\n    return x\n"})
    pkg = package(
        tmp_path,
        plain=RETRACE.format(imports="from .helpers import step", call="step"),
        missing=RETRACE.format(imports="from .layers import nothing_here", call="nothing_here"),
        away=RETRACE.format(imports="from .absent import step", call="step"),
    )
    assert findings(pkg) == []


def test_imported_keras_class_has_its_kind(tmp_path: Path) -> None:
    pkg = package(tmp_path)
    path = pkg / "use.py"
    source = "from .layers import Plain\nlayer = Plain()\n"
    path.write_text(source, encoding="utf-8")
    tool = analyzer()
    tool.set_imported(Workspace().imports_for(path, source))
    summary = tool.module_summary(source)
    assert summary.model is not None
    (instance,) = summary.model.final("layer")
    assert (instance.kind, instance.ref, instance.base) == ("instance", "pkg.layers.Plain", "layer")
    (cls,) = summary.model.final("Plain")
    assert summary.model.evaluator._base_of_value(cls) == "layer"


def test_unregistered_imported_class_saved_and_loaded(tmp_path: Path) -> None:
    pkg = package(
        tmp_path,
        plain=SAVE_LOAD.format(imports="from .layers import Plain", cls="Plain"),
        registered=SAVE_LOAD.format(imports="from .layers import Registered", cls="Registered"),
    )
    assert findings(pkg) == [("plain.py", 2, "TFL401")]


def test_import_cycle(tmp_path: Path) -> None:
    pkg = package(
        tmp_path,
        a="""\
            import tensorflow as tf
            from .b import helper


            @tf.function
            def step(x):
                return helper(x)
            """,
        b="""\
            from .a import step


            def helper(x):
                return x


            for i in range(10):
                step(i)
            """,
    )
    assert codes_in(pkg, "b.py") == [(9, "TFL106")]
    assert codes_in(pkg, "a.py") == []


# -- the CLI cache -------------------------------------------------------------------------
def test_cli_cache_entry_follows_the_imported_file(tmp_path: Path) -> None:
    pkg = package(tmp_path, train=RETRACE.format(imports="from .layers import step", call="step"))
    cache = tmp_path / "cache"

    def run() -> list[tuple[str, int, str]]:
        proc = tflsp("check", "--format", "json", "--cache-dir", str(cache), str(pkg))
        assert proc.returncode in (0, 1), proc.stderr
        return [(Path(r["path"]).name, r["line"], r["code"]) for r in json.loads(proc.stdout)]

    assert run() == [("train.py", 5, "TFL106")]
    assert run() == [("train.py", 5, "TFL106")]  # from the cache
    layers = pkg / "layers.py"
    layers.write_text(layers.read_text().replace("@tf.function\n", ""), encoding="utf-8")
    assert run() == []  # train.py unchanged, but what it imports changed


def test_a_sibling_holding_tensorflow_is_tensorflow(tmp_path: Path) -> None:
    # keras-hub spells TensorFlow ``from ...tensor_utils import tf`` with
    # ``tf = try_import_tensorflow()`` there: unknown, ``tf.py_function(fn)`` would be an
    # unknown call that may run ``fn`` in the layer's graph (a TFL102 false positive).
    write(
        tmp_path,
        {
            "pkg/tensor_utils.py": """\
                def try_import():
                    try:
                        import tensorflow as _tf
                    except ImportError:
                        return None
                    return _tf


                tf = try_import()
                """,
        },
    )
    pkg = package(
        tmp_path,
        use="""\
            from .layers import Plain
            from .tensor_utils import tf


            class Tokens(Plain):
                def call(self, inputs):
                    def int_fn(token):
                        return token.numpy()

                    return tf.map_fn(lambda x: tf.py_function(int_fn, [x], "bool"), inputs)
            """,
    )
    assert findings(pkg) == []


def test_library_names_are_never_workspace_files(tmp_path: Path) -> None:
    write(tmp_path, {"keras/__init__.py": "", "keras/layers.py": "", "user.py": ""})
    found = imported_modules(tmp_path / "user.py", "from keras.layers import Dense\n")
    assert found == {}


# -- "am I traced?" helpers of other files -------------------------------------------------
TRACE_UTILS = """\
    try:
        import tensorflow as tf
    except ImportError:
        tf = None


    def traced():
        if tf is None:
            return False
        return not tf.executing_eagerly()


    def anything():
        return tf.constant(1)
    """

TRACE_BASE = """\
    import keras

    from .utils import traced


    class Base(keras.layers.Layer):
        def _graph_path(self):
            if traced():
                return True
            if self.python_ok:
                return False
            return True

        def _other(self):
            return bool(self.python_ok)
    """

TRACE_LAYER = """\
    import random

    from .base import Base


    class Masker(Base):
        def call(self, x):
            if self._graph_path():
                return x
            return self._call_python(x)

        def _call_python(self, x):
            return x + random.random()


    class Other(Base):
        def call(self, x):
            if self._other():
                return x
            return self._call_python(x)

        def _call_python(self, x):
            return x + random.random()
    """


def test_a_base_class_method_that_asks_an_imported_helper_is_a_trace_test(
    tmp_path: Path,
) -> None:
    """keras-hub's preprocessing layers: call() takes the Python path when a method of their
    base class (another file) says they are not traced, through a helper of a third file;
    that path runs eagerly.  A method that asks anything else keeps it in the graph."""
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/utils.py": TRACE_UTILS,
            "pkg/base.py": TRACE_BASE,
            "pkg/layer.py": TRACE_LAYER,
        },
    )
    assert codes_in(tmp_path / "pkg", "layer.py") == [(23, "TFL105")]
