"""One small registry for every plugin family (samplers, QA kinds, checks, ...)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

T = TypeVar("T")


class UnknownPluginError(KeyError):
    def __str__(self) -> str:
        return str(self.args[0])


class Registry(Generic[T]):
    """Plugins of one family, registered by decorator under a short name."""

    def __init__(self, family: str):
        self.family = family
        self._items: dict[str, T] = {}

    def register(self, name: str) -> Callable[[T], T]:
        def decorate(item: T) -> T:
            if name in self._items:
                raise ValueError(f"{self.family} '{name}' is registered twice")
            self._items[name] = item
            return item

        return decorate

    def get(self, name: str) -> T:
        try:
            return self._items[name]
        except KeyError:
            known = ", ".join(sorted(self._items)) or "none"
            raise UnknownPluginError(f"unknown {self.family} '{name}' (known: {known})") from None

    def names(self) -> list[str]:
        return sorted(self._items)

    def __contains__(self, name: object) -> bool:
        return name in self._items

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())


REGISTRIES: dict[str, Registry[object]] = {}


def registry(family: str) -> Registry[T]:
    """The registry of a family, created on first use; ``memsim ls`` lists them all."""
    reg = REGISTRIES.setdefault(family, Registry(family))
    return reg  # type: ignore[return-value]
