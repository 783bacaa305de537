"""Compiled copies of the code that attrs and dataclasses generate while modules import.

Python keeps the bytecode of modules in ``.pyc`` files, but not the code that class decorators
write at import time: attrs writes the source of ``__init__``, ``__eq__``, ``__repr__``... of
every class it defines and compiles it, and so does ``dataclasses``.  lsprotocol defines ~560
attrs classes; compiling their methods was about 150 of the ~250 ms of importing
``lsprotocol.types``, which is most of ``tflsp serve``'s start-up.  tflsp's own ~300 generated
dataclass methods cost another ~25 ms before the first analysis.

Inside :func:`generated_code`, those compilations go through a table of code objects read from
``__pycache__/`` next to the package (or under ``PYTHONPYCACHEPREFIX``).  An entry is keyed by
a digest of the source text and of the ``__future__`` flags it is compiled with, so it is used
only for what would compile to the very same code, and by a name (attrs' file name for the
code; dataclasses give none, and their code is named by its digest).  The table is stamped
with Python's bytecode magic number, tflsp's version and its own format.  As for ``.pyc``
files, it is written only when Python may write bytecode (not under
``PYTHONDONTWRITEBYTECODE``) and where the folder is writable, and any failure to read or
write it just compiles as usual.
"""

from __future__ import annotations
import __future__

import builtins
import contextlib
import importlib.util
import marshal
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import CodeType, ModuleType
from typing import Any

from tflsp import __version__

try:  # hashlib's own import loads OpenSSL (~2 ms) for a digest _blake2 has on its own
    from _blake2 import blake2b
except ImportError:  # another Python implementation
    from hashlib import blake2b

# The table's own format too: a change to what a key covers must not read old entries.
_STAMP = f"{__version__} {sys.version} format 2"
# Set while a scope is open: a nested one adds nothing (its compilations go to the outer one).
_active = False
# Tests and benchmarks: write even when Python may not write bytecode (as ``compileall`` does).
force_write = False

Key = tuple[str, bytes]


def path_for(name: str) -> Path:
    here = Path(__file__).resolve().parent
    # Where Python puts this package's .pyc files (PYTHONPYCACHEPREFIX moves them).
    if sys.pycache_prefix:
        folder = Path(sys.pycache_prefix) / here.relative_to(here.anchor)
    else:
        folder = here / "__pycache__"
    return folder / f"generated-{name}.{sys.implementation.cache_tag}.marshal"


def _read(path: Path) -> dict[Key, CodeType]:
    try:
        with open(path, "rb") as handle:
            magic, stamp, table = marshal.load(handle)
    except Exception:  # absent, truncated or from another Python: compile as usual
        return {}
    if magic != importlib.util.MAGIC_NUMBER or stamp != _STAMP or not isinstance(table, dict):
        return {}
    return table


def _write(path: Path, table: dict[Key, CodeType]) -> None:
    partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial.write_bytes(marshal.dumps((importlib.util.MAGIC_NUMBER, _STAMP, table)))
        os.replace(partial, path)  # atomic: a reader sees a whole table, old or new
    except (OSError, ValueError):
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)


class _Table:
    """The stored code objects of one scope, and what this process compiled anew.

    An entry's key is a name for the code and the digest of its source.  The name is the file
    name attrs gives it; dataclasses give none (``<string>``), and their code is named by its
    digest.
    """

    def __init__(self, stored: dict[Key, CodeType]) -> None:
        self.stored = stored
        self.new: dict[Key, CodeType] = {}

    def compile(self, source: str, filename: str, flags: int, name: str | None = None) -> CodeType:
        digest = blake2b(f"{flags}\n{source}".encode(), digest_size=16).digest()
        key = (digest.hex() if name is None else name, digest)
        code = self.stored.get(key)
        if code is None:
            code = builtins.compile(source, filename, "exec", flags, True)
            self.new[key] = code
        return code

    def worth_writing(self) -> bool:
        """Something new was compiled.  Code that replaces an entry of the same name is not
        enough: attrs puts the hash of a name into frozen classes' ``__hash__``, which differs
        from process to process, and would rewrite the table at every start."""
        known = {name for name, _ in self.stored}
        return any(name not in known for name, _ in self.new)

    def merged(self) -> dict[Key, CodeType]:
        """The stored entries, those replaced by new code of the same name left out: a table
        grows with the classes it has seen, not with the processes that read it (the code of
        an edited dataclass, named by its digest, stays until tflsp's version changes)."""
        replaced = {name for name, _ in self.new}
        kept = {key: code for key, code in self.stored.items() if key[0] not in replaced}
        return {**kept, **self.new}

    def compile_hook(self, flags: int) -> Callable[..., Any]:
        """A stand-in for ``compile`` in a module that calls ``compile(text, name, "exec")``
        with the ``__future__`` ``flags`` that module's own calls pass on (they inherit them)."""

        def compile(
            source: Any,
            filename: Any,
            mode: str,
            extra: int = 0,
            dont_inherit: bool = False,
            optimize: int = -1,
        ) -> Any:
            if extra or dont_inherit or optimize != -1 or mode != "exec":
                inherited = 0 if dont_inherit else flags
                return builtins.compile(source, filename, mode, extra | inherited, True, optimize)
            if not isinstance(source, str):
                return builtins.compile(source, filename, mode, flags, True)
            return self.compile(source, str(filename), flags, str(filename))

        return compile

    def exec_hook(self, flags: int) -> Callable[..., Any]:
        """A stand-in for ``exec`` in a module that calls ``exec(text, globals, locals)``."""

        def exec(source: Any, *args: Any, **kwargs: Any) -> Any:
            if isinstance(source, str):
                source = self.compile(source, "<string>", flags)
            return builtins.exec(source, *args, **kwargs)

        return exec


def _future_flags(module: ModuleType) -> int:
    """The ``__future__`` features ``module`` imports: compile() and exec() called from its
    code compile with them, so a stand-in called from there must pass them on."""
    flags = 0
    for value in vars(module).values():
        if isinstance(value, __future__._Feature):
            flags |= value.compiler_flag
    return flags


def _hooked_modules(attrs: bool) -> list[tuple[ModuleType, str]]:
    """The modules whose ``compile`` or ``exec`` is looked up in their globals, and which."""
    import dataclasses

    hooked: list[tuple[ModuleType, str]] = [(dataclasses, "exec")]
    if not attrs and "attr._make" not in sys.modules:
        return hooked  # importing attrs would cost more than it saves
    try:
        import attr._make as attrs_make
    except ImportError:
        return hooked
    if hasattr(attrs_make, "_compile_and_eval"):  # the attrs versions this was measured on
        hooked.append((attrs_make, "compile"))
    return hooked


@contextlib.contextmanager
def generated_code(name: str, attrs: bool = False) -> Iterator[None]:
    """Within this scope, code generated by dataclasses, and by attrs when it is imported
    already or ``attrs`` is true, comes from table ``name`` when it was compiled before."""
    global _active
    if _active:
        yield
        return
    path = path_for(name)
    table = _Table(_read(path))
    hooked = [
        (module, attribute)
        for module, attribute in _hooked_modules(attrs)
        if attribute not in vars(module)  # never replace a name the module defines itself
    ]
    _active = True
    for module, attribute in hooked:
        flags = _future_flags(module)
        hook = table.compile_hook(flags) if attribute == "compile" else table.exec_hook(flags)
        setattr(module, attribute, hook)
    try:
        yield
    finally:
        for module, attribute in hooked:
            with contextlib.suppress(AttributeError):
                delattr(module, attribute)
        _active = False
    if table.worth_writing() and (force_write or not sys.dont_write_bytecode):
        # Entries of other processes' scopes of the same name stay (a server and a check
        # import different parts); a new tflsp or Python starts the table afresh (the stamp).
        _write(path, table.merged())
