"""Per-game parts found by game id: the built-in games' modules are imported on first use
(`<package>.<game_id>`), any other game's part is added with `register`. The renderers
(renderers/__init__.py) and the bot's presentations (bot/games/__init__.py) keep one each."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class Registry(Generic[T]):
    """`get(game_id)`: a registered part, else `attribute` of the built-in game's module
    (the module itself when `attribute` is ""), else `missing(game_id)`."""

    def __init__(self, package: str, builtin: tuple[str, ...], attribute: str,
                 missing: Callable[[str], T]) -> None:
        self.package, self.builtin, self.attribute, self.missing = (
            package, builtin, attribute, missing)
        self._loaded: dict[str, T] = {}
        self._registered: dict[str, T] = {}

    def register(self, game_id: str, part: T) -> None:
        if not game_id or game_id in self.builtin:
            raise ValueError(f"cannot register {self.package} for {game_id!r}")
        self._registered[game_id] = part

    def unregister(self, game_id: str) -> None:
        self._registered.pop(game_id, None)

    def get(self, game_id: str) -> T:
        if game_id in self._registered:
            return self._registered[game_id]
        if game_id not in self.builtin:
            return self.missing(game_id)
        if game_id not in self._loaded:
            found: Any = import_module(f"{self.package}.{game_id}")
            self._loaded[game_id] = getattr(found, self.attribute) if self.attribute else found
        return self._loaded[game_id]
