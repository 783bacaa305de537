"""Every documentation link tflsp shows opens a real page (issue 12, item 12).

No site is published yet, so with the default settings the links go to the documentation
installed with tflsp: a built HTML site when there is one, else the pattern's explanation file.
Checked for what the language server shows (diagnostic ``codeDescription``, hover, the "open
the documentation" action and command) and for the CLI's JSON and SARIF, in both languages;
``docs-base-url`` still overrides everything.  The wheel's own copy of the site is checked by
``tests/ecosystem/test_packaging.py``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import CATALOG, docs_link, opens
from tests.server.raw import ROOT, RawServer

pytestmark = pytest.mark.timeout(300)

LINK_RE = re.compile(r"\]\(([^)\s]+)\)")


def bad_examples() -> list[tuple[str, Path]]:
    return [(p.code, p.bad_path) for p in CATALOG if p.applies_to(3)]


def cli(*args: str, env: dict[str, str] | None = None, cwd: Path = ROOT) -> str:
    import os

    return subprocess.run(
        [sys.executable, "-m", "tflsp", *args],
        capture_output=True,
        text=True,
        check=True,
        cwd=str(cwd),
        env={**os.environ, **(env or {})},
    ).stdout


@pytest.fixture(scope="module", params=["en", "ja"])
def server(request: pytest.FixtureRequest) -> Iterator[tuple[RawServer, str]]:
    raw = RawServer()
    raw.initialize(
        {"window": {"showDocument": {"support": False}}},
        initializationOptions={"select": ["ALL"], "target-keras": "3", "lang": request.param},
    )
    yield raw, request.param
    assert raw.shutdown() == 0, raw.stderr_tail()


def test_diagnostics_hovers_and_actions_link_to_real_pages(server: tuple[RawServer, str]) -> None:
    raw, lang = server
    seen = set()
    for code, path in bad_examples():
        uri = path.as_uri()
        raw.open(uri, path.read_text(encoding="utf-8"))
        diagnostics = [d for d in raw.diagnostics(uri, 1) if d["code"] in CATALOG]
        for diagnostic in diagnostics:
            href = diagnostic["codeDescription"]["href"]
            assert href == docs_link(diagnostic["code"], lang)
        first = next(d for d in diagnostics if d["code"] == code)
        seen.add(code)
        hover = raw.request(
            "textDocument/hover",
            {"textDocument": {"uri": uri}, "position": first["range"]["start"]},
        )["result"]
        links = LINK_RE.findall(hover["contents"]["value"])
        assert docs_link(code, lang) in links
        assert all(opens(link) for link in links), links
        actions = raw.request(
            "textDocument/codeAction",
            {
                "textDocument": {"uri": uri},
                "range": first["range"],
                "context": {"diagnostics": [first]},
            },
        )["result"]
        (docs,) = [
            a
            for a in actions
            if a.get("command", {}).get("command") == "tflsp.openDocs"
            and a["diagnostics"][0]["code"] == code
        ]
        target = docs["command"]["arguments"][0]
        assert target == docs_link(code, lang)
        shown = raw.request(
            "workspace/executeCommand", {"command": "tflsp.openDocs", "arguments": [target]}
        )
        assert shown["result"]["url"] == target
        raw.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    assert seen == {code for code, _ in bad_examples()}
    by_code = raw.request(
        "workspace/executeCommand", {"command": "tflsp.openDocs", "arguments": ["TFL101"]}
    )
    assert by_code["result"]["url"] == docs_link("TFL101", lang)


def test_cli_json_and_sarif_link_to_real_pages(tmp_path: Path) -> None:
    paths = [str(path) for _, path in bad_examples()]
    records = json.loads(cli("check", "--format", "json", "--exit-zero", "--select", "ALL", *paths))
    linked = {r["code"] for r in records if r["url"] is not None}
    assert linked == {r["code"] for r in records if r["code"] in CATALOG}
    for record in records:
        if record["url"] is not None:
            assert record["url"] == docs_link(record["code"])
    sarif = json.loads(
        cli("check", "--format", "sarif", "--exit-zero", "--select", "ALL", "--lang", "ja", *paths)
    )
    (run,) = sarif["runs"]
    for rule in run["tool"]["driver"]["rules"]:
        if rule["id"] in CATALOG:
            assert rule["helpUri"] == docs_link(rule["id"], "ja")


def fake_site(root: Path, langs: tuple[str, ...] = ("en", "ja")) -> Path:
    for lang in langs:
        prefix = "ja/" if lang == "ja" else ""
        pages = [f"{prefix}index.html", *(f"{prefix}patterns/{p.slug}.html" for p in CATALOG)]
        for relative in pages:
            (root / relative).parent.mkdir(parents=True, exist_ok=True)
            (root / relative).write_text("<html></html>", encoding="utf-8")
    return root


def test_a_built_site_is_linked_and_a_missing_language_falls_back(tmp_path: Path) -> None:
    site = fake_site(tmp_path / "html", ("en",))  # no Japanese pages
    env = {"TFLSP_DOCS_DIR": str(site)}
    bad = str(CATALOG["TFL101"].bad_path)
    for lang in ("en", "ja"):
        records: list[dict[str, Any]] = json.loads(
            cli("check", "--format", "json", "--exit-zero", "--lang", lang, bad, env=env)
        )
        urls = {r["url"] for r in records if r["code"] == "TFL101"}
        assert urls == {(site / f"patterns/{CATALOG['TFL101'].slug}.html").as_uri()}


def test_docs_base_url_overrides_the_local_pages(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.tflsp]\ndocs-base-url = "https://example.invalid/tflsp"\n', encoding="utf-8"
    )
    (tmp_path / "bad.py").write_text(CATALOG["TFL101"].bad_path.read_text(encoding="utf-8"))
    records = json.loads(cli("check", "--format", "json", "--exit-zero", "bad.py", cwd=tmp_path))
    assert {r["url"] for r in records if r["code"] == "TFL101"} == {
        f"https://example.invalid/tflsp/patterns/{CATALOG['TFL101'].slug}.html"
    }
