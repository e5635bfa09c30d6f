"""Shared fixtures of the engine and computer-player tests."""

from __future__ import annotations

from importlib import import_module

import pytest

import engines.ai

AI_GAMES = ("senet", "six_nimmt", "cows_leopards", "varanasi")


@pytest.fixture
def easy_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Easy plays only its own simple moves (never normal's share of them): what tests of
    easy's own policy, and of normal against it, are about. The strength of the mixed easy
    level is measured by bench/arena.py."""
    monkeypatch.setattr(engines.ai, "EASY_SKILL", 0.0)
    for game in AI_GAMES:
        module = import_module(f"engines.ai.{game}")
        if hasattr(module, "EASY_SKILL"):
            monkeypatch.setattr(module, "EASY_SKILL", 0.0)
