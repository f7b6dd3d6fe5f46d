"""Collection settings for the whole repository: the doctests of the optional adapters run only
when their extra is installed (``outofgears[pettingzoo]``, ``outofgears[openspiel]``); the
doctests and the pages of the documentation run at the root of the repository, where they read
``examples/`` as a developer there would, wherever pytest was started."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from _pytest.doctest import DoctestItem

ROOT = Path(__file__).resolve().parent

collect_ignore = [
    path
    for path, module in (
        ("outofgears/play/pettingzoo.py", "pettingzoo"),
        ("outofgears/play/envs.py", "gymnasium"),
        ("outofgears/play/gym.py", "gymnasium"),
        ("outofgears/play/openspiel.py", "pyspiel"),
    )
    if importlib.util.find_spec(module) is None
]


@pytest.fixture(autouse=True)
def _examples_read_from_the_repository_root(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    if isinstance(request.node, DoctestItem) or request.node.path.name == "test_docs.py":
        monkeypatch.chdir(ROOT)
