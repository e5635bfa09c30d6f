"""The repository itself: README names every slash command, and no file names a path of the
machine it was written on."""

from __future__ import annotations

import re
import subprocess

import pytest
from discord import app_commands

from tools.messages import ROOT, app_commands_list


def command_names() -> list[str]:
    """Every slash command as typed: '/board', '/tournament list', ... (not each game under
    /play and /tournament create)."""
    names: list[str] = []
    for command in app_commands_list():
        if isinstance(command, app_commands.Group):
            if command.name == "play":
                names.append("/play")
                continue
            for sub in command.commands:
                names.append(f"/{command.name} {sub.name}")
        else:
            names.append(f"/{command.name}")  # type: ignore[attr-defined]
    return names


def test_readme_lists_every_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    names = command_names()
    assert "/tournament list" in names and "/board" in names
    missing = [name for name in names if f"`{name}" not in readme]
    assert not missing, missing


def test_no_machine_specific_path_in_the_repository() -> None:
    try:
        files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                               check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    machine = re.compile(r"(?<![\w.])/(?:wo" + r"rk|ro" + r"ot|ho" + r"me)/\w")
    found = []
    for name in files:
        path = ROOT / name
        if path.suffix in {".png", ".gif", ".ttf", ".otf", ".so", ".jpg"} or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        found += [f"{name}:{n}" for n, line in enumerate(text.splitlines(), 1)
                  if machine.search(line)]
    assert not found, found
