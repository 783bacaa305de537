"""A cache that holds what the last two analyses used."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Generations(Generic[K, V]):
    """A cache holding what the last two analyses used; anything older is dropped.

    A document is analysed after every keystroke.  A cache sized for a whole module would keep
    every typed version of the edited block (a 400-line function costs about a megabyte per
    version), so memory grew with the number of keystrokes.  Keeping what the current and the
    previous analysis used bounds it, while the block as it was before the last keystroke stays
    cached (an undo finds it).  A ``parent`` is read, never changed.
    """

    def __init__(
        self,
        parent: Generations[K, V] | None = None,
        dropped: Callable[[V], None] | None = None,
    ) -> None:
        self._current: dict[K, V] = {}
        self._previous: dict[K, V] = {}
        self._parent = parent
        self._dropped = dropped

    def get(self, key: K) -> V | None:
        value = self._current.get(key)
        if value is None:
            value = self._previous.pop(key, None)
            if value is not None:
                self._current[key] = value
            elif self._parent is not None:
                value = self._parent.peek(key)
        return value

    def peek(self, key: K) -> V | None:
        value = self._current.get(key)
        return self._previous.get(key) if value is None else value

    def put(self, key: K, value: V) -> None:
        self._current[key] = value

    def rotate(self) -> None:
        """End of an analysis: what it did not use is dropped at the end of the next one."""
        if self._dropped is not None:
            for value in self._previous.values():
                self._dropped(value)
        self._previous = self._current
        self._current = {}

    def __len__(self) -> int:
        return len(self._current) + len(self._previous)
