"""What the user's project declares about itself: here, whether it runs Keras 2 (tf-keras).

A project that depends on ``tf-keras`` does so to run ``tf.keras`` as Keras 2
(``TF_USE_LEGACY_KERAS=1``) or to import ``tf_keras``: TensorFlow 2.16 and later need nothing
else for Keras 3.  Its files often only write ``tf.keras``, so the file alone cannot tell which
Keras it runs with; the project's declared dependencies can.  They are read from the nearest
project above a file, as a packaging tool would:

- ``pyproject.toml`` ``[project] dependencies`` (and Poetry's ``[tool.poetry.dependencies]``);
- ``setup.cfg`` ``[options] install_requires``; ``setup.py`` (the requirement strings it names);
- ``requirements*.txt`` next to them;
- an installed or unpacked wheel: the ``*.dist-info/METADATA`` whose ``top_level.txt`` names
  the file's top-level package (``Requires-Dist`` without an ``extra`` marker).

Only what is declared counts: an optional extra or a comment does not.
"""

from __future__ import annotations

import configparser
import re
import sys
from functools import lru_cache
from pathlib import Path, PurePath

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

# A requirement's project name, normalised as PEP 503 does (tf_keras, TF-Keras -> tf-keras).
_NAME_RE = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
_PROJECT_FILES = ("pyproject.toml", "setup.cfg", "setup.py")
_TF_KERAS = "tf-keras"


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirement_names(lines: list[str]) -> set[str]:
    names = set()
    for line in lines:
        line = line.split("#", 1)[0].strip()
        if not line or line.startswith("-"):
            continue
        found = _NAME_RE.match(line)
        if found:
            names.add(_normalise(found.group(1)))
    return names


def _from_pyproject(path: Path) -> set[str]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return set()
    names: set[str] = set()
    project = data.get("project")
    if isinstance(project, dict) and isinstance(project.get("dependencies"), list):
        names |= _requirement_names([str(d) for d in project["dependencies"]])
    poetry = data.get("tool", {}).get("poetry", {})
    if isinstance(poetry, dict) and isinstance(poetry.get("dependencies"), dict):
        names |= {_normalise(str(name)) for name in poetry["dependencies"]}
    return names


def _from_setup_cfg(path: Path) -> set[str]:
    parser = configparser.ConfigParser()
    try:
        parser.read_string(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, configparser.Error):
        return set()
    text = parser.get("options", "install_requires", fallback="")
    return _requirement_names(text.splitlines())


# Quoted requirement strings in setup.py: "tf-keras>=2.16" or 'tf_keras'.
_QUOTED_RE = re.compile(r"""["']([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:[<>=!~;\[][^"']*)?["']""")


def _from_setup_py(path: Path) -> set[str]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return set()
    # setup.py is code: only the names in a requirements list are trusted, so the strings of
    # ``install_requires=[...]`` (or of a list assigned to a name containing "require").
    names: set[str] = set()
    for block in re.finditer(r"(?:install_requires|\w*requires\w*)\s*=\s*\[([^\]]*)\]", text):
        names |= {_normalise(m.group(1)) for m in _QUOTED_RE.finditer(block.group(1))}
    return names


def _from_requirements(directory: Path) -> set[str]:
    names: set[str] = set()
    for path in sorted(directory.glob("requirements*.txt")):
        try:
            names |= _requirement_names(path.read_text(encoding="utf-8").splitlines())
        except (OSError, UnicodeDecodeError):
            continue
    return names


def _from_metadata(dist_info: Path) -> set[str]:
    try:
        lines = (dist_info / "METADATA").read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return set()
    required = []
    for line in lines:
        if not line.strip():
            break  # the headers end at the first blank line
        key, _, value = line.partition(":")
        if key.strip().lower() == "requires-dist" and "extra" not in value.split(";", 1)[-1]:
            required.append(value.split(";", 1)[0])
    return _requirement_names(required)


@lru_cache(maxsize=256)
def _dist_infos(directory: Path) -> dict[str, Path]:
    """Top-level package name -> its ``*.dist-info`` folder, for a folder holding wheels."""
    found: dict[str, Path] = {}
    try:
        candidates = sorted(directory.glob("*.dist-info"))
    except OSError:
        return found
    for dist_info in candidates:
        try:
            tops = (dist_info / "top_level.txt").read_text(encoding="utf-8").split()
        except (OSError, UnicodeDecodeError):
            tops = [dist_info.name.split("-", 1)[0]]
        for top in tops:
            found.setdefault(top, dist_info)
    return found


@lru_cache(maxsize=1024)
def _declared_in(directory: Path) -> frozenset[str] | None:
    """The dependencies a project rooted in ``directory`` declares; None: no project here."""
    markers = [directory / name for name in _PROJECT_FILES if (directory / name).is_file()]
    if not markers:
        return None
    names: set[str] = set()
    for marker in markers:
        if marker.name == "pyproject.toml":
            names |= _from_pyproject(marker)
        elif marker.name == "setup.cfg":
            names |= _from_setup_cfg(marker)
        else:
            names |= _from_setup_py(marker)
    return frozenset(names | _from_requirements(directory))


def declared_dependencies(path: str | PurePath) -> frozenset[str]:
    """Normalised names of the dependencies the project of ``path`` declares (empty: none known)."""
    folder = Path(path).resolve().parent
    declared = _declared_in(folder)
    return declared if declared is not None else _declared_above(folder)


@lru_cache(maxsize=1024)
def _declared_above(child: Path) -> frozenset[str]:
    """What the project holding folder ``child`` declares, from its parent up: the files of
    one folder share the walk up (a batch run asks for every file)."""
    directory = child.parent
    if directory == child:
        return frozenset()
    declared = _declared_in(directory)
    if declared is not None:
        return declared
    dist_info = _dist_infos(directory).get(child.name)
    if dist_info is not None:
        return frozenset(_from_metadata(dist_info))
    return _declared_above(directory)


def declares_tf_keras(path: str | PurePath | None) -> bool:
    """Does the project of ``path`` depend on tf-keras (so ``tf.keras`` runs as Keras 2)?"""
    if path is None or str(path) == "-":
        return False
    try:
        return _TF_KERAS in declared_dependencies(path)
    except (OSError, ValueError):
        return False
