"""Call signatures as the API data stores them: ``(a, b=1, /, *args, c=..., **kw)`` text.

Signatures are written as a caller sees them: a bound method has no ``self``, a class is
called through its constructor.  A default is the Python source of a literal, or ``...``
when the default is an object with no literal spelling.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import lru_cache

POSITIONAL_ONLY = "positional_only"
POSITIONAL_OR_KEYWORD = "positional_or_keyword"
VAR_POSITIONAL = "var_positional"
KEYWORD_ONLY = "keyword_only"
VAR_KEYWORD = "var_keyword"


@dataclass(frozen=True, slots=True)
class Parameter:
    """One parameter: its name, how it binds, and its default (None: no default)."""

    name: str
    kind: str
    default: str | None = None

    @property
    def has_default(self) -> bool:
        return self.default is not None

    @property
    def positional(self) -> bool:
        return self.kind in (POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD)


@dataclass(frozen=True, slots=True)
class Signature:
    text: str
    parameters: tuple[Parameter, ...]

    def names(self) -> tuple[str, ...]:
        """Names a caller can pass by keyword or position (not ``*args``/``**kwargs``)."""
        return tuple(p.name for p in self.parameters if p.kind not in (VAR_POSITIONAL, VAR_KEYWORD))

    def positional(self) -> tuple[str, ...]:
        """Parameters that a positional argument can fill, in order."""
        return tuple(p.name for p in self.parameters if p.positional)

    @property
    def var_positional(self) -> bool:
        return any(p.kind == VAR_POSITIONAL for p in self.parameters)

    @property
    def var_keyword(self) -> bool:
        return any(p.kind == VAR_KEYWORD for p in self.parameters)

    def get(self, name: str) -> Parameter | None:
        return next((p for p in self.parameters if p.name == name), None)


@lru_cache(maxsize=2048)
def parse_signature(text: str) -> Signature:
    """Parse stored signature text (``ValueError`` when it is not one)."""
    try:
        tree = ast.parse(f"def f{text}: pass")
    except SyntaxError as exc:
        raise ValueError(f"not a signature: {text!r}") from exc
    fn = tree.body[0]
    assert isinstance(fn, ast.FunctionDef)
    args = fn.args
    out: list[Parameter] = []
    positional = [*args.posonlyargs, *args.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults))
    defaults += list(args.defaults)
    for i, (arg, default) in enumerate(zip(positional, defaults, strict=True)):
        kind = POSITIONAL_ONLY if i < len(args.posonlyargs) else POSITIONAL_OR_KEYWORD
        out.append(Parameter(arg.arg, kind, _source(default)))
    if args.vararg is not None:
        out.append(Parameter(args.vararg.arg, VAR_POSITIONAL))
    for arg, kw_default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        out.append(Parameter(arg.arg, KEYWORD_ONLY, _source(kw_default)))
    if args.kwarg is not None:
        out.append(Parameter(args.kwarg.arg, VAR_KEYWORD))
    return Signature(text, tuple(out))


def _source(node: ast.expr | None) -> str | None:
    return None if node is None else ast.unparse(node)
