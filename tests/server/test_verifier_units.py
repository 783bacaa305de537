"""The verifier wiring without TensorFlow: settings, pinned results, messages, reports, states."""

from __future__ import annotations

import asyncio
import os
import stat
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import CATALOG
from tflsp.server import verification, verify_results
from tflsp.server.config import editor_section
from tflsp.server.positions import UTF8, UTF16
from tflsp.server.verifier import (
    VerifierOptions,
    VerifierState,
    VerifierUnavailable,
    VerifyTarget,
)
from tflsp.server.verify_pins import PinnedDiagnostic, VerifyPins
from tflsp.server.verify_results import diagnostics_for, write_report
from tflsp.server.worker_bridge import WorkerBridge, probes_for
from tflsp.server.workspace import Target, Workspace
from tflsp.settings import Settings, SettingsError
from tflsp.verify.catalog_check import CatalogRun, plan
from tflsp.verify.config import WorkerConfig
from tflsp.verify.report import annotate, finding_message, render_catalog_markdown, render_markdown

LOAD_FAILURE = (
    "load failed: TypeError: Could not locate class 'Net'. Make sure custom classes and "
    "functions are decorated with `@keras.saving.register_keras_serializable()`."
)
SOURCE = textwrap.dedent(
    """\
    import tensorflow as tf
    from tensorflow import keras


    # tflsp: verify(input_shape=(2, 3))
    class Scale(keras.layers.Layer):
        def build(self, input_shape):
            self.w = tf.Variable(1.0)

        def call(self, x):
            return x * self.w


    def other():
        return 1
    """
)
URI = "file:///tmp/tflsp-units/model.py"
HEADER = 6  # module line of "class Scale"


# -- settings ------------------------------------------------------------------------------------
def test_verifier_settings_accept_a_nested_table_and_flat_keys() -> None:
    nested = Settings().layered(
        {"verifier": {"enabled": False, "timeout": 5, "memoryLimit": "512M", "prewarm": True}}
    )
    assert (nested.verifier_enabled, nested.verifier_timeout, nested.verifier_prewarm) == (
        False,
        5.0,
        True,
    )
    assert nested.verifier_memory_limit == 512 * 1024**2
    flat = Settings.from_mapping({"verifier-keras": "keras2", "verifier-memory-limit": 0})
    assert (flat.verifier_keras, flat.verifier_memory_limit) == ("2", 0)
    assert Settings().verifier_enabled is True and Settings().verifier_keras == "auto"
    # An editor that sends only {"verifier": {...}} still sends tflsp settings.
    assert editor_section({"verifier": {"enabled": False}}) == {"verifier": {"enabled": False}}


def test_verifier_settings_from_pyproject_table(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.tflsp]\nignore = ["TFL108"]\n\n[tool.tflsp.verifier]\nenabled = false\ntimeout = 9\n',
        encoding="utf-8",
    )
    settings = Settings.discover(tmp_path)
    assert settings.verifier_enabled is False and settings.verifier_timeout == 9.0
    # The editor layer wins: VS Code sends enabled=false in untrusted workspaces.
    assert settings.layered({"verifier": {"enabled": True}}).verifier_enabled is True


@pytest.mark.parametrize(
    ("data", "match"),
    [
        ({"verifier": {"enabled": "maybe"}}, "verifier-enabled"),
        ({"verifier": {"timeout": 0}}, "verifier-timeout"),
        ({"verifier": {"timeout": "soon"}}, "verifier-timeout"),
        ({"verifier-memory-limit": "lots"}, "verifier-memory-limit"),
        ({"verifier-memory-limit": -1}, "verifier-memory-limit"),
        ({"verifier-keras": "4"}, "verifier-keras"),
    ],
)
def test_bad_verifier_settings_are_rejected(data: dict[str, Any], match: str) -> None:
    with pytest.raises(SettingsError, match=match):
        Settings().layered(data)


def test_options_pick_the_worker_keras() -> None:
    assert VerifierOptions(keras="auto").keras_for(2) == "2"
    assert VerifierOptions(keras="auto").keras_for(None) == "3"
    assert VerifierOptions(keras="3").keras_for(2) == "3"
    options = VerifierOptions.from_settings(Settings().layered({"verifier": {"timeout": 7}}))
    assert options.timeout == 7.0 and options.enabled


def test_probes_follow_the_target_kind() -> None:
    def target(kind: str, probes: tuple[str, ...] = ()) -> VerifyTarget:
        return VerifyTarget("file:///x.py", "X", 0, kind=kind, probes=probes)

    assert probes_for(target("layer"), ()) == ("tracking", "modes")
    assert probes_for(target("model"), ()) == ("tracking", "modes", "saveload")
    assert probes_for(target("function"), ()) == ("modes",)
    assert probes_for(target("", ("saveload", "saveload")), ()) == ("saveload",)
    with pytest.raises(ValueError, match="unknown probe"):
        probes_for(target("layer", ("speed",)), ())


# -- pinned results ----------------------------------------------------------------------------
def opened(text: str = SOURCE, encoding: str = UTF16) -> tuple[Workspace, Target]:
    docs = Workspace(encoding=encoding)
    target = docs.open_text(URI, 1, text, "python")
    docs.analyse(target)
    return docs, target


def edit(docs: Workspace, target: Target, line: int, column: int, new: str) -> None:
    version = (target.version or 0) + 1
    docs.change_text(URI, version, [((line, column), (line, column), new)])
    docs.analyse(target)


def pinned(
    pins: VerifyPins, docs: Workspace, target: Target, items: list[PinnedDiagnostic] | None = None
) -> None:
    pin = pins.make_pin(target, "Scale", HEADER)
    assert pin is not None
    assert pins.attach(target, pin, items or [PinnedDiagnostic(1, "tracking: untracked")])


def ranges(pins: VerifyPins, docs: Workspace, target: Target) -> list[tuple[int, int, int]]:
    out = []
    for item in pins.rendered(target, docs.encoding):
        rng = item.lsp["range"]
        assert item.lsp["source"] == "tflsp-verify"
        assert rng["start"]["line"] == rng["end"]["line"]
        out.append((rng["start"]["line"], rng["start"]["character"], rng["end"]["character"]))
    return out


def test_a_pin_sits_on_the_name_and_follows_lines_added_above() -> None:
    docs, target = opened()
    pins = VerifyPins()
    pinned(pins, docs, target)
    assert ranges(pins, docs, target) == [(5, 6, 11)]  # "Scale" on the 0-based line 5
    stamp = pins.stamp(target.key)
    edit(docs, target, 2, 0, "x = 1\n\n")
    assert ranges(pins, docs, target) == [(7, 6, 11)]
    assert pins.stamp(target.key) == stamp  # moved, not changed: pull result ids may stay


def test_an_edit_inside_the_block_drops_the_pin() -> None:
    docs, target = opened()
    pins = VerifyPins()
    pinned(pins, docs, target)
    stamp = pins.stamp(target.key)
    edit(docs, target, 10, 0, "        # a comment changes the block\n")
    assert ranges(pins, docs, target) == []
    assert pins.stamp(target.key) > stamp
    # Undoing the edit does not bring a result back: it belonged to the text that ran.
    docs.change_text(URI, 9, [((10, 0), (11, 0), "")])
    docs.analyse(target)
    assert target.source == SOURCE
    assert ranges(pins, docs, target) == []


def test_other_blocks_and_blank_lines_after_the_block_keep_the_pin() -> None:
    docs, target = opened()
    pins = VerifyPins()
    pinned(pins, docs, target)
    edit(docs, target, 14, 0, "    x = 2\n")  # inside other()
    edit(docs, target, 11, 0, "\n\n")  # blank lines after the class
    assert ranges(pins, docs, target) == [(5, 6, 11)]


def test_editing_the_verify_comment_above_drops_the_pin() -> None:
    docs, target = opened()
    pins = VerifyPins()
    pinned(pins, docs, target)
    edit(docs, target, 4, SOURCE.split("\n")[4].index("3))") + 1, "6")
    assert "(2, 36)" in target.source
    assert ranges(pins, docs, target) == []


def test_a_result_for_a_block_edited_during_the_run_is_not_shown() -> None:
    docs, target = opened()
    pins = VerifyPins()
    pin = pins.make_pin(target, "Scale", HEADER)
    assert pin is not None
    edit(docs, target, 7, 0, "        pass\n")  # the user types while the probe runs
    assert not pins.attach(target, pin, [PinnedDiagnostic(1, "stale")])
    assert ranges(pins, docs, target) == []


def test_related_information_and_client_columns() -> None:
    source = SOURCE.replace("Scale", "Größe")
    docs, target = opened(source, UTF8)
    pins = VerifyPins()
    pin = pins.make_pin(target, "Größe", HEADER)
    assert pin is not None
    item = PinnedDiagnostic(
        1, "untracked", code="TFL301", href="https://x/", related=((2, "here"),)
    )
    pins.attach(target, pin, [item])
    [rendered] = pins.rendered(target, docs.encoding)
    # "class " is 6 bytes; "Größe" is 5 code points but 7 UTF-8 bytes.
    assert rendered.lsp["range"]["start"] == {"line": 5, "character": 6}
    assert rendered.lsp["range"]["end"] == {"line": 5, "character": 13}
    assert rendered.lsp["code"] == "TFL301"
    assert rendered.lsp["codeDescription"] == {"href": "https://x/"}
    [related] = rendered.lsp["relatedInformation"]
    assert related["location"]["range"]["start"] == {"line": 7, "character": 8}
    assert related["message"] == "here"
    pins.forget(target.key)
    assert pins.rendered(target, docs.encoding) == []


# -- messages and reports ------------------------------------------------------------------------
def result(outcome: str, findings: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {
        "probe": "saveload",
        "target": "Net",
        "path": "net.py",
        "outcome": outcome,
        "findings": findings,
        "observations": {"outcome": outcome, "load_fails": outcome == "fail"},
        "details": {"steps": [{"step": "save", "ok": True}, {"step": "load", "ok": False}]},
        "versions": {"tensorflow": "2.21.0", "keras": "3.15.1"},
        "seconds": 0.25,
        **extra,
    }


def test_findings_become_diagnostics_with_catalog_hints() -> None:
    failing = result(
        "fail",
        [
            {"message": LOAD_FAILURE, "line": 9, "severity": "error"},
            {"message": "a note", "line": None, "severity": "info"},
        ],
    )
    annotate(failing, CATALOG)
    code = failing["findings"][0]["patterns"][0]
    assert code == "TFL401"
    items = diagnostics_for([failing], 6, "en", lambda c: f"https://docs/{c}")
    assert [(i.severity, i.code) for i in items] == [(1, "TFL401"), (3, None)]
    first = items[0]
    assert first.message.startswith("saveload: load failed: TypeError: Could not locate class")
    assert "\nTFL401 " in first.message and "\nFix: " in first.message
    assert first.href == "https://docs/TFL401"
    assert first.related[0][0] == 3  # line 9 is 3 lines below the header on line 6
    assert finding_message(failing, failing["findings"][1]) == "saveload: a note"


def test_passing_and_failing_runs_set_the_severity() -> None:
    passed = diagnostics_for([result("pass", [])], 6, "en", lambda c: None)
    assert [(i.severity, i.message) for i in passed] == [
        (4, "Verified with TensorFlow 2.21.0 (Keras 3.15.1): saveload passed.")
    ]
    broken = diagnostics_for(
        [result("error", [], error="TypeError: __init__() missing 'units'")],
        6,
        "ja",
        lambda c: None,
    )
    assert [i.severity for i in broken] == [2]
    assert "saveload" in broken[0].message and "units" in broken[0].message
    assert "実行できませんでした" in broken[0].message


def test_markdown_report() -> None:
    failing = result(
        "fail",
        [{"message": LOAD_FAILURE, "line": 9, "severity": "error"}],
        output={"stdout": "hello from the model\n"},
    )
    annotate(failing, CATALOG)
    text = render_markdown(
        [failing, result("pass", [], probe="tracking")],
        target="Net",
        path="net.py",
        docs_url=lambda code: f"https://docs/{code}",
    )
    assert text.startswith("# tflsp verification: `Net` — FAILED")
    assert "`net.py` · TensorFlow 2.21.0 · Keras 3.15.1" in text
    assert "## saveload: FAILED (250 ms)" in text and "## tracking: passed" in text
    assert "- **error** (line 9): load failed" in text and "— TFL401" in text
    assert "- ✗ load" in text
    assert "### TFL401" in text and "(https://docs/TFL401)" in text
    assert "hello from the model" in text
    japanese = render_markdown([result("pass", [])], target="Net", lang="ja")
    assert "成功" in japanese


def test_catalog_markdown_lists_failures() -> None:
    rows = [
        {"pattern": "TFL101", "name": "print-in-graph", "example": "bad", "keras": "3",
         "status": "pass", "seconds": 1.0, "checks": []},
        {"pattern": "TFL102", "name": "numpy-in-graph", "example": "good", "keras": "3",
         "status": "fail", "seconds": 2.0, "note": "",
         "checks": [{"expect": "finishes", "observed": "raised", "ok": False}]},
    ]  # fmt: skip
    text = render_catalog_markdown(rows, summary="1 passed, 1 failed")
    assert "| TFL102 `numpy-in-graph` | good.py | 3 | **fail** | 2.0 |" in text
    assert "### TFL102 numpy-in-graph good.py" in text
    assert "- expected: finishes; observed: raised" in text


def test_reports_go_to_a_private_directory(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(verify_results, "_reports", None)
    path = write_report("# report\n", "My Layer/x")
    info = path.parent.stat()
    assert stat.S_IMODE(info.st_mode) == 0o700 and info.st_uid == os.getuid()
    assert path.name.startswith("My_Layer_x-") and path.suffix == ".md"
    assert path.read_text(encoding="utf-8") == "# report\n"


def test_old_reports_are_pruned(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(verify_results, "_reports", tmp_path)
    monkeypatch.setattr(verify_results, "REPORTS_KEPT", 3)
    paths = []
    for i in range(5):
        paths.append(write_report(f"# report {i}\n", "Scale"))
        os.utime(paths[-1], ns=(i * 10**9, i * 10**9))  # distinct ages even on coarse clocks
    assert sorted(tmp_path.glob("*.md")) == sorted(paths[-3:])


# -- the bridge without workers ------------------------------------------------------------------
def test_bridge_states_follow_the_settings_without_starting_a_worker() -> None:
    seen: list[tuple[str, str]] = []
    bridge = WorkerBridge(VerifierOptions(enabled=False))
    bridge.set_listener(lambda state, detail: seen.append((state.value, detail)))
    assert bridge.state == VerifierState.DISABLED

    async def scenario() -> None:
        with pytest.raises(VerifierUnavailable, match="turned off"):
            await bridge.verify_class(VerifyTarget("file:///x.py", "X", 0, source="x = 1"))
        with pytest.raises(VerifierUnavailable):
            await bridge.verify_catalog(["TFL101"])
        with pytest.raises(VerifierUnavailable):
            await bridge.restart()
        bridge.configure(VerifierOptions(enabled=True))
        bridge.configure(VerifierOptions(enabled=True, timeout=5))  # no change of state
        bridge.configure(VerifierOptions(enabled=False))
        await bridge.prewarm()  # off: nothing to warm

    asyncio.run(scenario())
    assert seen == [("stopped", ""), ("disabled", "verifier-enabled is false")]
    assert bridge.starts == 0


def test_a_cancelled_catalog_run_starts_no_worker() -> None:
    patterns = [p for p in CATALOG if p.code == "TFL101"]
    runner = CatalogRun(lambda keras: WorkerConfig(keras=keras))
    runner.cancel()
    assert runner.run(plan(patterns, ["3"])) == []
    assert runner.cancelled
    assert all(client.starts == 0 for client in runner._clients)


def test_a_pin_in_a_notebook_lands_in_its_cell() -> None:
    from tflsp.server.documents import Cell, TextBuffer

    docs = Workspace()
    cells = [
        Cell("nb#cell1", 2, TextBuffer("import tensorflow as tf\nfrom tensorflow import keras\n")),
        Cell("nb#cell2", 1, TextBuffer("# Notes")),
        Cell("nb#cell3", 2, TextBuffer(SOURCE.split("\n", 4)[4])),  # from the verify comment on
    ]
    target = docs.open_notebook("file:///tmp/tflsp-units/nb.ipynb", 1, cells)
    docs.analyse(target)
    where = target.to_module("nb#cell3", 1, 0, docs.encoding)
    assert where is not None
    pins = VerifyPins()
    pin = pins.make_pin(target, "Scale", where[0])
    assert pin is not None
    pins.attach(target, pin, [PinnedDiagnostic(1, "tracking: untracked")])
    [rendered] = pins.rendered(target, docs.encoding)
    assert rendered.uri == "nb#cell3"
    assert rendered.lsp["range"]["start"] == {"line": 1, "character": 6}


class FakeServer:
    """What Verification._show needs from the server."""

    def __init__(self, show_document: Any) -> None:
        self.show_document = show_document
        self.messages: list[tuple[str, Any]] = []

    def capability(self, path: str, default: Any = None) -> Any:
        return True if path == "window.show_document.support" and self.show_document else default

    async def window_show_document_async(self, params: Any) -> Any:
        return self.show_document(params)

    def show(self, message: str, kind: Any = None) -> None:
        self.messages.append((message, kind))


@pytest.mark.parametrize(
    ("show_document", "fallback"),
    [
        (None, True),  # Neovim 0.7: no window/showDocument
        (lambda params: type("Result", (), {"success": False})(), True),  # the client refused
        (lambda params: type("Result", (), {"success": True})(), False),
    ],
)
def test_the_report_is_shown_or_summarised(show_document: Any, fallback: bool) -> None:
    server = FakeServer(show_document)
    shower = verification.Verification.__new__(verification.Verification)
    shower.server = server  # type: ignore[assignment]
    path = write_report("# report\n", "Scale")
    outcome = verification.VerifyOutcome(False, "Scale: tracking FAILED")
    asyncio.run(shower._show(path, outcome, "en"))
    if fallback:
        [(message, kind)] = server.messages
        assert message == f"Scale: tracking FAILED Report: {path}"
        assert kind.name == "Warning"
    else:
        assert server.messages == []


def test_a_probe_that_could_not_run_says_why_and_which_pattern_explains_it() -> None:
    message = (
        "ValueError: in user code:\n\n"
        '    File "train_step.py", line 17, in train_step  *\n'
        "        return Scale()(x)\n\n"
        "    ValueError: tf.function only supports singleton tf.Variables created on the first "
        "call. Make sure the tf.Variable is only created once or created outside tf.function."
    )
    broken = result(
        "error",
        [],
        probe="modes",
        error=message,
        exception={"type": "ValueError", "message": message},
    )
    annotate(broken, CATALOG)
    [item] = diagnostics_for([broken], 6, "en", lambda c: f"https://docs/{c}")
    assert item.severity == 2
    first, *hint = item.message.split("\n")
    assert first == (
        "modes could not run: ValueError: tf.function only supports singleton tf.Variables "
        "created on the first call. Make sure the tf.Variable is only created once or created "
        "outside tf.function."
    )
    assert item.code is not None and hint[0].startswith(f"{item.code} ")
    assert item.href == f"https://docs/{item.code}"
