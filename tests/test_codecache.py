"""Compiled code that attrs and dataclasses generate: reused while its source is the same,
compiled again once it changes, written only where Python may write bytecode."""

from __future__ import annotations

import builtins
import dataclasses
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest

from tflsp import codecache
from tflsp.codecache import generated_code, path_for

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables go to a folder of the test's own (as PYTHONPYCACHEPREFIX moves .pyc files)."""
    monkeypatch.setattr(sys, "pycache_prefix", str(tmp_path / "prefix"))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)


@pytest.fixture
def compiled(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The source texts compiled from now on."""
    sources: list[str] = []
    real = builtins.compile

    def counting(source: Any, *args: Any, **kwargs: Any) -> Any:
        sources.append(source if isinstance(source, str) else "")
        return real(source, *args, **kwargs)

    monkeypatch.setattr(builtins, "compile", counting)
    return sources


def make_classes(extra: bool = False) -> tuple[type, type]:
    """An attrs class and a dataclass, created anew at each call (as an import creates them)."""

    @attrs.define
    class Point:
        x: int
        y: int = 0

    @dataclasses.dataclass(frozen=True)
    class Span:
        start: int
        end: int

    if extra:

        @attrs.define
        class Point:  # type: ignore[no-redef]
            x: int
            y: int = 0
            z: int = 0

    return Point, Span


def generated(sources: list[str]) -> list[str]:
    """The generated methods among compiled sources (not, e.g., typing's forward references)."""
    return [s for s in sources if "def " in s]


def check_behaviour(point: type, span: type) -> None:
    assert point(1) == point(1, 0) != point(2)
    assert repr(point(1, 2)).endswith("Point(x=1, y=2)")
    assert span(1, 2) == span(1, 2)
    assert hash(span(1, 2)) == hash(span(1, 2))
    with pytest.raises(dataclasses.FrozenInstanceError):
        span(1, 2).start = 3  # type: ignore[misc]


def test_a_second_scope_compiles_nothing_it_compiled_before(compiled: list[str]) -> None:
    with generated_code("test"):
        check_behaviour(*make_classes())
    assert generated(compiled)  # the first scope compiled the methods and stored them
    assert path_for("test").is_file()
    compiled.clear()
    with generated_code("test"):
        classes = make_classes()
    assert generated(compiled) == []
    check_behaviour(*classes)


def annotations() -> list[dict[str, Any]]:
    """What the generated ``__init__`` methods say of their parameters."""
    point, span = make_classes()
    return [point.__init__.__annotations__, span.__init__.__annotations__]


def test_generated_code_is_compiled_as_its_module_would(compiled: list[str]) -> None:
    # Not with the ``__future__`` features of tflsp's module: dataclasses' ``__init__`` would
    # announce the names of its type variables (strings) instead of the types.
    plain = annotations()
    assert plain[1] == {"start": "int", "end": "int", "return": None}  # this module's annotations
    with generated_code("test"):
        assert annotations() == plain  # compiled
    with generated_code("test"):
        assert annotations() == plain  # from the table


def test_a_changed_source_is_compiled_again(compiled: list[str]) -> None:
    with generated_code("test"):
        make_classes()
    compiled.clear()
    with generated_code("test"):
        point, _ = make_classes(extra=True)
    # The new Point's methods differ (a third field): compiled, never taken from the table.
    assert any("z" in source for source in generated(compiled))
    assert point(1, 2, 3) != point(1, 2, 4)
    assert repr(point(1, 2, 3)).endswith("Point(x=1, y=2, z=3)")
    compiled.clear()
    with generated_code("test"):
        make_classes(extra=True)
    assert generated(compiled) == []  # both versions are in the table now


def test_classes_new_to_a_table_join_it(compiled: list[str]) -> None:
    @dataclasses.dataclass
    class Other:
        name: str
        size: int = 0

    with generated_code("test"):
        make_classes()
    with generated_code("test"):  # another process's scope of the same name imports more
        make_classes()
        dataclasses.dataclass(Other)
    compiled.clear()
    with generated_code("test"):
        point, span = make_classes()
        other = dataclasses.dataclass(Other)
    assert generated(compiled) == []
    assert repr(other("a")).endswith("Other(name='a', size=0)")
    check_behaviour(point, span)


def test_another_tflsp_or_python_starts_afresh(
    compiled: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with generated_code("test"):
        make_classes()
    monkeypatch.setattr(codecache, "_STAMP", codecache._STAMP + " next")
    compiled.clear()
    with generated_code("test"):
        check_behaviour(*make_classes())
    assert generated(compiled)


@pytest.mark.parametrize(
    "damage",
    [lambda p: p.write_bytes(b"not marshal"), lambda p: p.write_bytes(p.read_bytes()[:100])],
)
def test_a_damaged_table_is_ignored_and_rewritten(
    compiled: list[str], damage: Callable[[Path], Any]
) -> None:
    with generated_code("test"):
        make_classes()
    damage(path_for("test"))
    compiled.clear()
    with generated_code("test"):
        check_behaviour(*make_classes())
    assert generated(compiled)
    compiled.clear()
    with generated_code("test"):
        make_classes()
    assert generated(compiled) == []


def test_nothing_is_written_when_python_may_not_write_bytecode(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    with generated_code("test"):
        check_behaviour(*make_classes())
    assert not path_for("test").exists()


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes anywhere")
def test_a_read_only_folder_is_no_error(tmp_path: Path) -> None:
    folder = path_for("test").parent
    folder.mkdir(parents=True)
    folder.chmod(0o500)
    try:
        with generated_code("test"):
            check_behaviour(*make_classes())
        assert not path_for("test").exists()
    finally:
        folder.chmod(0o700)


def test_the_hooks_are_gone_after_the_scope() -> None:
    import attr._make

    with generated_code("test"):
        assert "compile" in vars(attr._make)
        assert "exec" in vars(dataclasses)
        with generated_code("inner"):  # nested: the outer table takes everything
            make_classes()
    assert "compile" not in vars(attr._make)
    assert "exec" not in vars(dataclasses)
    assert not path_for("inner").exists()


# -- fresh processes: the server and the CLI start with and without the tables ---------------
SOURCE = "import tensorflow as tf\n\n\n@tf.function\ndef step(x):\n    print(x)\n    return x\n"


def serve_once(env: dict[str, str], path: Path) -> list[Any]:
    from tests.server.raw import RawServer

    server = RawServer(env=env)
    try:
        server.initialize()
        server.open(path.as_uri(), SOURCE)
        found = server.diagnostics(path.as_uri(), 1)
        assert server.shutdown() == 0
    finally:
        server.close()
    return [(d["code"], d["range"]["start"]["line"]) for d in found]


def check_once(env: dict[str, str], path: Path) -> list[Any]:
    out = subprocess.run(
        [sys.executable, "-m", "tflsp", "check", "--no-cache", "--format", "json", str(path)],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 1, out.stderr
    return [(d["code"], d["line"]) for d in json.loads(out.stdout)]


def test_a_fresh_server_and_check_write_then_read_the_tables(tmp_path: Path) -> None:
    path = tmp_path / "module.py"
    path.write_text(SOURCE, encoding="utf-8")
    prefix = tmp_path / "prefix"
    # Python writes bytecode (an empty PYTHONDONTWRITEBYTECODE is unset), under its own prefix.
    env = {**os.environ, "PYTHONPYCACHEPREFIX": str(prefix), "PYTHONDONTWRITEBYTECODE": ""}
    tables = lambda: sorted(p.name for p in prefix.rglob("generated-*.marshal"))  # noqa: E731

    served = serve_once(env, path)
    assert ("TFL101", 5) in served
    assert [name.split(".")[0] for name in tables()] == ["generated-analysis", "generated-server"]
    checked = check_once(env, path)
    assert ("TFL101", 6) in checked
    written = {p: p.stat().st_mtime_ns for p in prefix.rglob("generated-*.marshal")}
    # The next processes read the tables (and have nothing new to write), with the same result.
    assert serve_once(env, path) == served
    assert check_once(env, path) == checked
    assert {p: p.stat().st_mtime_ns for p in written} == written
    for table in written:
        table.write_bytes(b"damaged")
    assert serve_once(env, path) == served
    assert check_once(env, path) == checked
