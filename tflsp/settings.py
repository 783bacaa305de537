"""User-facing settings: their definitions, ``[tool.tflsp]`` in pyproject.toml, and rule selection.

The definitions in :data:`SETTINGS` are the single source for the CLI flags, the language
server's configuration keys and the generated configuration reference in the docs.
"""

from __future__ import annotations

import contextlib
import fnmatch
import os
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePath
from typing import Any

from tflsp.analysis.diagnostics import SYNTAX_ERROR_CODE
from tflsp.analysis.engine import LintConfig
from tflsp.catalog import Catalog, load_catalog
from tflsp.catalog.schema import SEVERITIES
from tflsp.project import declares_tf_keras

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

# No site is published yet: empty means the documentation installed with tflsp (file:// links,
# see tflsp.cli.links).
DEFAULT_DOCS_URL = ""
DEFAULT_MAX_CHARS = 2_000_000
DEFAULT_CACHE_DIR = ".tflsp_cache"
DEFAULT_VERIFIER_TIMEOUT = 60
DEFAULT_VERIFIER_MEMORY = 6 * 1024**3


@dataclass(frozen=True)
class SettingSpec:
    """One setting.  ``key`` is the pyproject/LSP spelling; ``scope`` says who reads it."""

    key: str
    type: str
    default: Any
    description_en: str
    description_ja: str
    scope: str = "all"  # all | cli | server
    example: str = ""


SETTINGS: tuple[SettingSpec, ...] = (
    SettingSpec(
        "select",
        "list of codes, prefixes or names",
        None,
        "Rules to enable, replacing the default set. `TFL1` selects a family prefix, `ALL` selects "
        "every rule, including the ones that are off by default.",
        "有効にするルール。既定の集合を置き換えます。`TFL1` のような接頭辞でファミリー単位、`ALL` で"
        "既定では無効のルールも含めた全ルールを選べます。",
        example='select = ["TFL1", "TFL3"]',
    ),
    SettingSpec(
        "extend-select",
        "list of codes, prefixes or names",
        [],
        "Rules to enable in addition to the selected ones (use it to turn on off-by-default rules).",
        "選択済みのルールに加えて有効にするルール（既定で無効のルールを有効にするときに使います）。",
        example='extend-select = ["TFL701"]',
    ),
    SettingSpec(
        "ignore",
        "list of codes, prefixes or names",
        [],
        "Rules to disable. `TFL000` silences syntax errors.",
        "無効にするルール。`TFL000` を指定すると構文エラーも報告しません。",
        example='ignore = ["TFL108"]',
    ),
    SettingSpec(
        "per-file-ignores",
        "table: glob -> list of codes",
        {},
        "Rules to disable in files matching a glob (matched against the path relative to the "
        "project root, and against the file name).",
        "グロブに一致するファイルで無効にするルール（プロジェクトルートからの相対パスとファイル名の両方で照合）。",
        example='per-file-ignores = { "tests/*" = ["TFL108"] }',
    ),
    SettingSpec(
        "target-keras",
        '"auto" | "3" | "2"',
        "auto",
        "Which Keras the code runs with. `auto` means Keras 2 when the file imports `tf_keras`, "
        "`TF_USE_LEGACY_KERAS` is set in the environment, or the file's project declares a "
        "dependency on `tf-keras` (pyproject.toml, setup.cfg, setup.py, requirements*.txt, or "
        "an installed wheel's metadata), Keras 3 otherwise. Patterns that apply to one version "
        "only are reported for that version.",
        "コードが動く Keras。`auto` はファイルが `tf_keras` を import している、環境変数 "
        "`TF_USE_LEGACY_KERAS` が設定されている、またはファイルのプロジェクトが `tf-keras` への"
        "依存を宣言している（pyproject.toml、setup.cfg、setup.py、requirements*.txt、"
        "インストール済み wheel のメタデータ）ときは Keras 2、それ以外は Keras 3 とみなします。",
        example='target-keras = "3"',
    ),
    SettingSpec(
        "severity",
        "table: code -> error | warning | info | hint",
        {},
        "Override a rule's severity.",
        "ルールの重大度を上書きします。",
        example='severity = { TFL108 = "warning" }',
    ),
    SettingSpec(
        "lang",
        '"auto" | "en" | "ja"',
        "auto",
        "Language of messages and explanations. `auto` follows the editor's locale (server) or "
        "`LANG`/`LC_ALL` (CLI).",
        "メッセージと解説の言語。`auto` はエディタのロケール（サーバー）または `LANG`/`LC_ALL`（CLI）に従います。",
    ),
    SettingSpec(
        "docs-base-url",
        "URL",
        DEFAULT_DOCS_URL,
        "Where pattern pages live; diagnostics link to `<base>patterns/<CODE>-<name>.html`. "
        "Empty (the default): the HTML documentation installed with tflsp (`file://` links), "
        "or the pattern's explanation file when the documentation is not built.",
        "パターンのページの場所。診断は `<base>patterns/<CODE>-<name>.html` にリンクします。"
        "空（既定）のときは tflsp と一緒にインストールされた HTML ドキュメント（`file://` のリンク）、"
        "ドキュメントがビルドされていなければパターンの解説ファイルにリンクします。",
    ),
    SettingSpec(
        "max-file-size",
        "integer (characters)",
        DEFAULT_MAX_CHARS,
        "Files larger than this are skipped with a notice instead of analysed.",
        "これより大きいファイルは解析せず、その旨を通知します。",
    ),
    SettingSpec(
        "cache-dir",
        "path",
        DEFAULT_CACHE_DIR,
        "Where `tflsp check` keeps the findings of files it has checked, so that an unchanged "
        "file is not analysed again (relative to the project root: the folder of the "
        "`pyproject.toml`). `--no-cache` turns the cache off for one run; the environment "
        "variable `TFLSP_CACHE_DIR` overrides this setting.",
        "`tflsp check` が検査済みファイルの結果を保存する場所。変更のないファイルは再解析しません"
        "（プロジェクトルート、つまり `pyproject.toml` のあるフォルダーからの相対パス）。"
        "`--no-cache` でその回だけキャッシュを使いません。環境変数 `TFLSP_CACHE_DIR` はこの設定より優先されます。",
        scope="cli",
        example='cache-dir = "build/tflsp-cache"',
    ),
    SettingSpec(
        "fix-all",
        "boolean",
        True,
        "Offer the `source.fixAll.tflsp` code action, which applies every safe fix in the file "
        "(for example on save, with VS Code's `editor.codeActionsOnSave`).",
        "ファイル内の安全な修正をすべて適用するコードアクション `source.fixAll.tflsp` を提供します"
        "（VS Code の `editor.codeActionsOnSave` で保存時に実行できます）。",
        scope="server",
        example="fix-all = false",
    ),
    SettingSpec(
        "diagnostics-delay",
        "integer (milliseconds)",
        0,
        "Wait this long after an edit before re-checking the file. With 0, the server re-checks "
        "as soon as no newer edit is already waiting, which is fast enough for typing.",
        "編集後、ファイルを再検査するまでに待つ時間。0 のときは、次の編集が届いていなければ"
        "すぐに再検査します（入力中でも十分に速い設定です）。",
        scope="server",
        example="diagnostics-delay = 100",
    ),
    SettingSpec(
        "verifier-python",
        "path",
        "",
        "Python interpreter with TensorFlow that runs the verifier worker behind the code "
        "lenses (empty: the interpreter that runs the server).",
        "コードレンズから起動する TensorFlow 検証ワーカーの Python インタープリター"
        "（空のときはサーバーと同じインタープリター）。",
        scope="server",
        example='verifier-python = ".venv-tf/bin/python"',
    ),
    SettingSpec(
        "verifier-enabled",
        "boolean",
        True,
        "Let the code lenses and verifier commands run your code in a TensorFlow worker. When "
        "false, the server refuses them and never starts a worker; the VS Code extension sends "
        "false in untrusted workspaces. In editor settings also accepted as `verifier.enabled`.",
        "コードレンズと検証コマンドが TensorFlow ワーカーであなたのコードを実行することを許可します。"
        "false のときサーバーはそれらを断り、ワーカーを一切起動しません。VS Code 拡張は信頼されていない"
        "ワークスペースでは false を送ります。エディタ設定では `verifier.enabled` とも書けます。",
        scope="server",
        example="verifier-enabled = false",
    ),
    SettingSpec(
        "verifier-timeout",
        "number (seconds)",
        DEFAULT_VERIFIER_TIMEOUT,
        "How long one probe may run in the editor's verifier worker before the worker is killed "
        "and replaced.",
        "エディタの検証ワーカーで 1 つのプローブが実行できる時間。超えるとワーカーを強制終了して"
        "新しいワーカーに置き換えます。",
        scope="server",
        example="verifier-timeout = 120",
    ),
    SettingSpec(
        "verifier-memory-limit",
        'size ("6G", "512M"; "0" for none)',
        "6G",
        "Address-space limit of the editor's verifier worker, applied before TensorFlow is "
        "imported.",
        "エディタの検証ワーカーのアドレス空間の上限。TensorFlow を import する前に設定します。",
        scope="server",
        example='verifier-memory-limit = "8G"',
    ),
    SettingSpec(
        "verifier-prewarm",
        "boolean",
        False,
        "Start the verifier worker (and import TensorFlow) as soon as the server starts, "
        "instead of on the first verification.",
        "最初の検証を待たず、サーバーの起動直後に検証ワーカーを起動して TensorFlow を import します。",
        scope="server",
        example="verifier-prewarm = true",
    ),
    SettingSpec(
        "verifier-keras",
        '"auto" | "3" | "2"',
        "auto",
        "Keras version the editor's verifier runs your code with. `auto` follows the file, as "
        "`target-keras` decides it (Keras 2 for code that imports `tf_keras`).",
        "エディタの検証器がコードを実行する Keras のバージョン。`auto` はファイルごとに "
        "`target-keras` と同じ判断に従います（`tf_keras` を import するコードなら Keras 2）。",
        scope="server",
        example='verifier-keras = "2"',
    ),
)

SETTING_KEYS = frozenset(s.key for s in SETTINGS)
# Tables whose entries are settings of their own: ``verifier = {enabled = false}`` (and the
# editors' ``{"verifier": {"enabled": false}}``) means ``verifier-enabled = false``.
SETTING_TABLES = frozenset({"verifier"})
_SELECTION_KEYS = frozenset({"select", "ignore", "extend-select"})


class SettingsError(ValueError):
    pass


@dataclass(frozen=True)
class Settings:
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    target_keras: str = "auto"
    severity: tuple[tuple[str, str], ...] = ()
    lang: str = "auto"
    docs_base_url: str = DEFAULT_DOCS_URL
    max_file_size: int = DEFAULT_MAX_CHARS
    cache_dir: str = DEFAULT_CACHE_DIR
    fix_all: bool = True
    diagnostics_delay: int = 0
    verifier_python: str = ""
    verifier_enabled: bool = True
    verifier_timeout: float = DEFAULT_VERIFIER_TIMEOUT
    verifier_memory_limit: int = DEFAULT_VERIFIER_MEMORY
    verifier_prewarm: bool = False
    verifier_keras: str = "auto"
    root: Path | None = None  # the directory of the pyproject.toml these came from
    unknown: tuple[str, ...] = field(default=(), compare=False)

    # -- construction ------------------------------------------------------------------------
    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], root: Path | None = None) -> Settings:
        """Build from ``[tool.tflsp]``-shaped data (kebab-case or camelCase keys accepted)."""
        return cls().updated(data, root=root)

    def updated(self, data: Mapping[str, Any], *, root: Path | None = None) -> Settings:
        """Return these settings with the keys present in ``data`` replaced."""
        changes: dict[str, Any] = {}
        unknown: list[str] = []
        for raw_key, value in _flatten_tables(data).items():
            key = _kebab(raw_key)
            if key not in SETTING_KEYS:
                unknown.append(raw_key)
                continue
            if value is None:
                continue
            changes[key.replace("-", "_")] = _coerce(key, value)
        out = replace(self, **changes)
        if root is not None:
            out = replace(out, root=root)
        if unknown:
            out = replace(out, unknown=tuple(unknown))
        return out

    def layered(self, data: Mapping[str, Any]) -> Settings:
        """Apply a higher-priority layer (CLI flags over pyproject, editor over pyproject).

        As in ruff, rule selection composes by layer: a ``select`` in the upper layer starts a
        new selection (dropping the lower layer's ``ignore``/``extend-select``); without one,
        the upper layer's ``ignore``/``extend-select`` add to the lower layer's.  Other keys
        simply replace.
        """
        data = _flatten_tables(data)
        upper = Settings().updated(data)
        keys = {_kebab(k) for k, v in data.items() if v is not None}
        out = self.updated({k: v for k, v in data.items() if _kebab(k) not in _SELECTION_KEYS})
        if "select" in keys:
            return replace(
                out,
                select=upper.select,
                ignore=upper.ignore,
                extend_select=upper.extend_select,
            )
        return replace(
            out,
            ignore=self.ignore + upper.ignore,
            extend_select=self.extend_select + upper.extend_select,
        )

    @classmethod
    def discover(cls, start: Path) -> Settings:
        """Settings from the nearest pyproject.toml with a ``[tool.tflsp]`` table above ``start``."""
        found = find_pyproject(start)
        if found is None:
            return cls()
        return cls.load(found)

    @classmethod
    def load(cls, pyproject: Path) -> Settings:
        try:
            data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise SettingsError(f"{pyproject}: {exc}") from exc
        table = data.get("tool", {}).get("tflsp", {})
        if not isinstance(table, Mapping):
            raise SettingsError(f"{pyproject}: [tool.tflsp] must be a table")
        return cls.from_mapping(table, root=pyproject.parent)

    # -- resolution ----------------------------------------------------------------------------
    def enabled_codes(self, catalog: Catalog, path: str | PurePath | None = None) -> frozenset[str]:
        all_codes = [*catalog.codes(), SYNTAX_ERROR_CODE]
        # Syntax errors are always reported unless ignored explicitly (as in ruff).
        chosen = {SYNTAX_ERROR_CODE}
        if self.select is None:
            chosen |= {p.code for p in catalog if p.default_enabled}
        else:
            chosen |= set(_expand(self.select, catalog, all_codes))
        chosen |= set(_expand(self.extend_select, catalog, all_codes))
        chosen -= set(_expand(self.ignore, catalog, all_codes))
        if path is not None:
            for pattern, codes in self.per_file_ignores:
                if self._matches(pattern, path):
                    chosen -= set(_expand(codes, catalog, all_codes))
        return frozenset(chosen)

    def _matches(self, pattern: str, path: str | PurePath) -> bool:
        p = Path(path)
        candidates = [p.as_posix(), p.name]
        if self.root is not None:
            with contextlib.suppress(ValueError, OSError):
                candidates.append(p.resolve().relative_to(self.root.resolve()).as_posix())
        return any(fnmatch.fnmatch(c, pattern) for c in candidates)

    def lint_config(
        self, catalog: Catalog | None = None, path: str | PurePath | None = None
    ) -> LintConfig:
        catalog = catalog or load_catalog()
        return LintConfig(
            enabled=self.enabled_codes(catalog, path),
            severity=self.severity,
            target_keras=self.target_keras,
            # Keras 2 when TF_USE_LEGACY_KERAS is set, or when the file's project depends on
            # tf-keras (it then runs tf.keras as Keras 2; see tflsp.project).
            legacy_env=legacy_keras_env() or declares_tf_keras(path),
            max_chars=self.max_file_size,
        )

    def resolved_lang(self, environ: Mapping[str, str] | None = None) -> str:
        if self.lang in ("en", "ja"):
            return self.lang
        env = os.environ if environ is None else environ
        for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
            value = env.get(var)
            if value:
                return "ja" if value.lower().startswith("ja") else "en"
        return "en"


def legacy_keras_env(environ: Mapping[str, str] | None = None) -> bool:
    value = (os.environ if environ is None else environ).get("TF_USE_LEGACY_KERAS", "")
    return value.strip().lower() in ("1", "true", "yes")


def find_pyproject(start: Path) -> Path | None:
    """The nearest pyproject.toml that has a ``[tool.tflsp]`` table, walking up from ``start``."""
    current = start if start.is_dir() else start.parent
    for directory in (current, *current.parents):
        candidate = directory / "pyproject.toml"
        if candidate.is_file():
            try:
                data = tomllib.loads(candidate.read_text(encoding="utf-8"))
            except (OSError, tomllib.TOMLDecodeError):
                continue
            if "tflsp" in data.get("tool", {}):
                return candidate
    return None


def _flatten_tables(data: Mapping[str, Any]) -> dict[str, Any]:
    """``{"verifier": {"timeout": 5}}`` -> ``{"verifier-timeout": 5}``; other keys unchanged."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        table = _kebab(str(key))
        if table in SETTING_TABLES and isinstance(value, Mapping):
            for inner, inner_value in value.items():
                out[f"{table}-{_kebab(str(inner))}"] = inner_value
        else:
            out[key] = value
    return out


def _kebab(key: str) -> str:
    out = []
    for ch in key.replace("_", "-"):
        if ch.isupper():
            out.append("-" + ch.lower())
        else:
            out.append(ch)
    return "".join(out).lstrip("-")


def _str_list(key: str, value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [v for v in value.replace(",", " ").split() if v]
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise SettingsError(f"{key} must be a list of strings")
    return tuple(v.strip() for v in value)


def _coerce(key: str, value: Any) -> Any:
    if key in ("select", "extend-select", "ignore"):
        return _str_list(key, value)
    if key == "per-file-ignores":
        if not isinstance(value, Mapping):
            raise SettingsError("per-file-ignores must be a table of glob -> codes")
        return tuple((str(k), _str_list(key, v)) for k, v in value.items())
    if key == "severity":
        if not isinstance(value, Mapping):
            raise SettingsError("severity must be a table of code -> severity")
        for code, level in value.items():
            if level not in SEVERITIES:
                raise SettingsError(f"severity for {code} must be one of {SEVERITIES}")
        return tuple((str(k).upper(), str(v)) for k, v in value.items())
    if key == "target-keras":
        text = str(value).lower().removeprefix("keras")
        if text not in ("auto", "3", "2"):
            raise SettingsError('target-keras must be "auto", "3" or "2"')
        return text
    if key == "lang":
        if value not in ("auto", "en", "ja"):
            raise SettingsError('lang must be "auto", "en" or "ja"')
        return value
    if key == "docs-base-url":
        text = str(value).strip()
        return text if not text or text.endswith("/") else text + "/"
    if key == "max-file-size":
        try:
            return int(value)
        except (TypeError, ValueError) as exc:
            raise SettingsError("max-file-size must be an integer") from exc
    if key == "fix-all":
        if isinstance(value, str) and value.lower() in ("true", "false"):
            return value.lower() == "true"
        if not isinstance(value, bool):
            raise SettingsError("fix-all must be true or false")
        return value
    if key == "diagnostics-delay":
        try:
            delay = int(value)
        except (TypeError, ValueError) as exc:
            raise SettingsError("diagnostics-delay must be an integer (milliseconds)") from exc
        if not 0 <= delay <= 10_000:
            raise SettingsError("diagnostics-delay must be between 0 and 10000 milliseconds")
        return delay
    if key == "verifier-python":
        return str(value)
    if key == "cache-dir":
        if not isinstance(value, str) or not value.strip():
            raise SettingsError("cache-dir must be a path")
        return value
    if key in ("verifier-enabled", "verifier-prewarm"):
        if isinstance(value, str) and value.lower() in ("true", "false"):
            return value.lower() == "true"
        if not isinstance(value, bool):
            raise SettingsError(f"{key} must be true or false")
        return value
    if key == "verifier-timeout":
        try:
            seconds = float(value)
        except (TypeError, ValueError) as exc:
            raise SettingsError("verifier-timeout must be a number of seconds") from exc
        if not 0 < seconds <= 24 * 3600:
            raise SettingsError("verifier-timeout must be between 0 and 86400 seconds")
        return seconds
    if key == "verifier-memory-limit":
        return _size(value)
    if key == "verifier-keras":
        text = str(value).lower().removeprefix("keras")
        if text not in ("auto", "3", "2"):
            raise SettingsError('verifier-keras must be "auto", "3" or "2"')
        return text
    return value


def _size(value: Any) -> int:
    """``"6G"``, ``"512M"``, ``0`` or bytes -> bytes (the worker's RLIMIT_AS)."""
    if isinstance(value, bool):
        raise SettingsError('verifier-memory-limit must be a size such as "6G" or 0')
    if isinstance(value, int):
        size = value
    else:
        text = str(value).strip().upper().removesuffix("B").removesuffix("I")
        units = {"K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4}
        try:
            if text and text[-1] in units:
                size = int(float(text[:-1]) * units[text[-1]])
            else:
                size = int(text)
        except ValueError as exc:
            raise SettingsError(
                'verifier-memory-limit must be a size such as "6G", "512M" or 0'
            ) from exc
    if size < 0:
        raise SettingsError("verifier-memory-limit must not be negative")
    return size


def _expand(selectors: Iterable[str], catalog: Catalog, all_codes: list[str]) -> Iterable[str]:
    for raw in selectors:
        selector = raw.strip()
        if not selector:
            continue
        if selector.upper() == "ALL":
            yield from all_codes
            continue
        upper = selector.upper()
        if upper.startswith("TFL"):
            matched = [c for c in all_codes if c.startswith(upper)]
        else:
            pattern = catalog.get(selector)  # by name: "print-in-graph"
            matched = [pattern.code] if pattern is not None else []
        if not matched:
            raise SettingsError(f"unknown rule selector {raw!r}")
        yield from matched
