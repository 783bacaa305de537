"""Names a module imports from other files of the user's package (the workspace import graph).

The model knows one file; what a sibling module defines is told to it from outside through an
:class:`ImportedNames` (built by :mod:`tflsp.analysis.workspace` from the imported files' own
models).  It answers for absolute qualified names (``pkg.layers.MyLayer``) and, through
:meth:`ImportedNames.absolute`, for relative imports.  A name it does not know stays what it
was without it: a library name for an absolute import, unknown for a relative one.
"""

from __future__ import annotations

from typing import Protocol

from tflsp.analysis.semantic.values import Values

# Prefix of the ids of imported unregistered Keras classes in values' contents (the saving
# flow follows them like local classes: ``imported:pkg.layers.MyLayer``).
IMPORTED = "imported:"


class ImportedNames(Protocol):
    """What the imported workspace modules export, as API knowledge plus values."""

    @property
    def fingerprint(self) -> str:
        """Changes whenever an answer may change (the imported files' content hashes)."""

    def absolute(self, level: int, module: str, name: str) -> str | None:
        """The qualified name ``from <level dots><module> import <name>`` binds, None when the
        importing file is not in a package that deep."""

    def value(self, qualname: str) -> Values | None:
        """What an imported workspace name holds, None when it is not known."""

    def registered(self, qualname: str) -> bool | None:
        """Whether an imported Keras class is registered for deserialisation, None: not a
        workspace class (or not known)."""

    def trace_test(self, qualname: str) -> frozenset[str] | None:
        """What calling an imported function (or ``Class.method``) says about being traced
        (:mod:`tflsp.analysis.semantic.traced`), None when nothing is known."""

    def kind(self, name: str, flavor: str) -> str | None: ...

    def returns(self, name: str, flavor: str) -> str | None: ...

    def method_returns(self, cls: str, method: str, flavor: str) -> str | None: ...

    def base_kind(self, name: str, flavor: str) -> str | None: ...
