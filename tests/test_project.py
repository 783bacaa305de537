"""target-keras "auto" follows what the file's project declares: tf-keras means Keras 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_cli import tflsp
from tflsp.project import declared_dependencies, declares_tf_keras

# A tf.Variable stored on a layer: untracked on Keras 3 (TFL301), tracked on Keras 2.
LAYER = """\
import tensorflow as tf


class Scale(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.factor = tf.Variable(2.0)

    def call(self, x):
        return x * self.factor
"""


def codes(project: Path, *extra: str) -> list[str]:
    out = tflsp("check", "--no-cache", "--format", "json", *extra, "pkg/layer.py", cwd=project)
    return [d["code"] for d in json.loads(out.stdout)]


@pytest.mark.parametrize(
    ("name", "text", "keras2"),
    [
        (
            "pyproject.toml",
            '[project]\nname = "p"\ndependencies = ["tensorflow>=2.16", "tf-keras~=2.16"]\n',
            True,
        ),
        (
            "pyproject.toml",
            '[project]\nname = "p"\ndependencies = ["tensorflow"]\n[project.optional-dependencies]\nlegacy = ["tf_keras"]\n',
            False,
        ),
        (
            "pyproject.toml",
            '[tool.poetry.dependencies]\npython = "^3.10"\nTF_Keras = "^2.16"\n',
            True,
        ),
        ("setup.cfg", "[options]\ninstall_requires =\n    tensorflow\n    tf_keras>=2.16\n", True),
        (
            "setup.py",
            'from setuptools import setup\nsetup(name="p", install_requires=["tensorflow", "tf-keras"])\n',
            True,
        ),
        (
            "setup.py",
            'from setuptools import setup\n# we used to need "tf-keras"\nsetup(name="p", install_requires=["tensorflow"])\n',
            False,
        ),
    ],
)
def test_declared_tf_keras_makes_the_project_keras_2(
    tmp_path: Path, name: str, text: str, keras2: bool
) -> None:
    (tmp_path / name).write_text(text)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "layer.py").write_text(LAYER)
    assert declares_tf_keras(tmp_path / "pkg" / "layer.py") is keras2
    found = codes(tmp_path)
    assert ("TFL301" in found) is (not keras2)
    # An explicit setting still wins.
    assert "TFL301" in codes(tmp_path, "--target-keras", "3")


def test_requirements_file_next_to_the_project(tmp_path: Path) -> None:
    (tmp_path / "setup.py").write_text("from setuptools import setup\nsetup(name='p')\n")
    (tmp_path / "requirements.txt").write_text("tensorflow==2.21.*\ntf-keras==2.21.* # legacy\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "layer.py").write_text(LAYER)
    assert "TFL301" not in codes(tmp_path)


def test_an_unpacked_wheel_declares_through_its_metadata(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "pkg").mkdir(parents=True)
    (site / "pkg" / "layer.py").write_text(LAYER)
    meta = site / "pkg-1.0.dist-info"
    meta.mkdir()
    (meta / "top_level.txt").write_text("pkg\n")
    (meta / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: pkg\nRequires-Dist: tensorflow\n"
        'Requires-Dist: tf-keras>=2.16\nRequires-Dist: pytest ; extra == "tests"\n\nText.\n'
    )
    assert declared_dependencies(site / "pkg" / "layer.py") == {"tensorflow", "tf-keras"}
    assert "TFL301" not in codes(site)
    # A subpackage's files too (the walk up is shared by the files of a folder); a module
    # lying beside the metadata folder is no part of the package.
    (site / "pkg" / "sub").mkdir()
    (site / "pkg" / "sub" / "deep.py").write_text(LAYER)
    (site / "beside.py").write_text(LAYER)
    assert declared_dependencies(site / "pkg" / "sub" / "deep.py") == {"tensorflow", "tf-keras"}
    assert declared_dependencies(site / "pkg" / "layer.py") == {"tensorflow", "tf-keras"}
    assert declared_dependencies(site / "beside.py") == frozenset()
    # Another package beside it is not covered by that metadata.
    (site / "other").mkdir()
    (site / "other" / "layer.py").write_text(LAYER)
    assert not declares_tf_keras(site / "other" / "layer.py")


def test_no_project_is_keras_3(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "layer.py").write_text(LAYER)
    assert "TFL301" in codes(tmp_path)
