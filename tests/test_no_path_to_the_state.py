"""A bot cannot reach the true state through the package: no module keeps a position.

After a match, every ``outofgears`` module's globals are walked (through dictionaries, lists,
tuples, sets and attrs instances): no ``GameState``, no players tuple or reserve of a
position of the match, and no ``Player`` holding an upgrade card may be found. The caches
that hold positions belong to the match (:class:`~outofgears.play.observation.ObservationCache`)
and go with it.
"""

from __future__ import annotations

import importlib
import pkgutil
import random
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import attrs
import pytest

import outofgears
import outofgears.play.bots as bots_module
from outofgears.play.bots import Bot, GreedyBot, LookaheadBot, MCTSBot, RandomBot, play_match
from outofgears.rules.model import GameState, Options, Player
from outofgears.rules.setup import setup_game
from outofgears.rules.turn import apply_turn

_OPTIONAL = (
    "outofgears.play.pettingzoo",
    "outofgears.play.openspiel",
    "outofgears.play.gym",
    "outofgears.play.envs",
)


def _modules() -> Iterator[ModuleType]:
    yield outofgears
    for info in pkgutil.walk_packages(outofgears.__path__, "outofgears."):
        try:
            yield importlib.import_module(info.name)
        except ImportError:
            if info.name not in _OPTIONAL:
                raise


def _reachable(root: object) -> Iterator[object]:
    """Everything reachable from ``root`` through containers and attrs instances."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        yield item
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple | set | frozenset):
            stack.extend(item)
        elif attrs.has(type(item)) and not isinstance(item, type):
            stack.extend(getattr(item, a.name, None) for a in attrs.fields(type(item)))  # type: ignore[arg-type]


def _globals_of_every_module() -> Iterator[tuple[str, str, object]]:
    for module in _modules():
        for name, value in list(vars(module).items()):
            if isinstance(value, ModuleType | type) or (callable(value) and not attrs.has(value)):
                continue
            for item in _reachable(value):
                yield module.__name__, name, item


def _play_recorded(monkeypatch: pytest.MonkeyPatch, upgrades: bool) -> list[GameState]:
    positions: list[GameState] = []

    def recording(state: GameState, programs: Any) -> GameState:
        after = apply_turn(state, programs)
        positions.extend((state, after))
        return after

    monkeypatch.setattr(bots_module, "apply_turn", recording)
    state = setup_game([1, 2, 3, 4], seed=11, options=Options(upgrades=upgrades))
    bots: dict[str, Bot] = {"P1": RandomBot(), "P2": GreedyBot(samples=2)}
    bots.update(P3=MCTSBot(iterations=20), P4=LookaheadBot())
    play_match(state, bots, random.Random(3), turn_cap=12)
    monkeypatch.undo()
    return positions


@pytest.mark.parametrize("upgrades", [False, True], ids=["base game", "upgrades"])
def test_after_a_match_no_module_holds_a_position_of_it(
    monkeypatch: pytest.MonkeyPatch, upgrades: bool
) -> None:
    positions = _play_recorded(monkeypatch, upgrades)
    assert len(positions) > 4
    hidden = {id(part) for state in positions for part in (state, state.reserve, state.players)}
    hidden.discard(id(()))
    found = []
    for module, name, item in _globals_of_every_module():
        if (
            isinstance(item, GameState)
            or id(item) in hidden
            or (isinstance(item, Player) and item.upgrade is not None)
        ):
            found.append(f"{module}.{name}: {type(item).__name__}")
    assert found == []


def test_the_walk_finds_a_position_a_module_keeps(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test above can fail: a position kept in a module's dictionary is found."""
    state = setup_game([1, 2], seed=1)
    monkeypatch.setattr(bots_module, "_LEAK", {"kept": [(1, state.reserve)]}, raising=False)
    hits = [
        (module, name) for module, name, item in _globals_of_every_module() if item is state.reserve
    ]
    assert hits == [("outofgears.play.bots", "_LEAK")]
