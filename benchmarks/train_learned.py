"""Train the learned bot's weights by self-play against a league: ``python -m benchmarks.train_learned``.

Needs the bench extra (``pip install -e '.[bench]'``). A MaskablePPO learner (sb3-contrib,
``MlpPolicy``, two ``tanh`` layers of 64, an entropy bonus so that it keeps mixing its moves)
plays one seat of 3-robot games through the Gymnasium environment (its seat drawn every game,
a new deal every game; one game in four with the upgrades), reading it as the learned bot does,
from its own seat against a league: each other seat
is, for a whole game, one of the learner's own earlier snapshots (most of the time), or a
shipped bot (``lookahead``, ``greedy``, ``mcts:40``, ``random``). Every ``--snapshot`` steps the
learner's policy is written as a snapshot (the format :mod:`outofgears.play.learned` reads), and
the league draws among the last ``--pool`` of them, so that the learner keeps answering its
own recent selves rather than one fixed opponent (fictitious self-play, roughly).

At the end (a budget of processor time, the process's own) the policy is written to ``--out``
(by default the file the package ships, ``outofgears/play/weights/learned.oogw``), whole or not
at all. PyTorch is held to one thread.

    python -m benchmarks.train_learned --minutes 45 --seed 3
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import os
import random
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv

import outofgears  # noqa: F401  (registers the environment's id)
from benchmarks.exploitability import Budget
from outofgears.play.actions import MAX_ACTIONS
from outofgears.play.bots import Bot, make_bot, play_match
from outofgears.play.gym import OutOfGearsEnv
from outofgears.play.learned import LearnedBot, read_weights, weights_bytes
from outofgears.play.observation import Observation
from outofgears.rules.setup import setup_seated_game

ROBOTS = 3
SHIPPED = Path(__file__).resolve().parents[1] / "outofgears/play/weights/learned.oogw"
#: The shipped bots of the league and their share of the seats.
LEAGUE = {"lookahead": 0.08, "greedy": 0.05, "mcts:40": 0.05, "random": 0.02}
#: The share of the seats given to the exploiters (when there are any); the rest: snapshots.
EXPLOITERS_SHARE = 0.3
#: How sharply an exploiter plays its policy (near its most probable move, as the
#: exploitability benchmark's learner plays).
EXPLOITER_TEMPERATURE = 0.1

#: Where the league finds the learner's snapshots and the exploiters (set by :func:`main`;
#: the env's bots are built in this process, at every reset).
_FOLDERS: dict[str, Path] = {}
#: How many of the newest snapshots and exploiters the league draws from.
_POOL = {"snapshots": 8, "exploiters": 4}


def newest(kind: str) -> list[Path]:
    """The newest files of a kind (``snapshots`` or ``exploiters``), newest last."""
    folder = _FOLDERS.get(kind)
    if folder is None:
        return []
    return sorted(folder.glob("*.oogw"))[-_POOL[kind] :]


class LeagueSeat:
    """One seat of the league for one game: a shipped bot, an exploiter (a learner trained
    against a recent snapshot) or a snapshot of the learner."""

    name = "league"

    def __init__(self) -> None:
        draw = random.random()
        bot: Bot | None = None
        for spec, share in LEAGUE.items():
            if draw < share:
                bot = make_bot(spec)
                break
            draw -= share
        exploiters = newest("exploiters")
        if bot is None and exploiters and draw < EXPLOITERS_SHARE:
            bot = LearnedBot(
                temperature=EXPLOITER_TEMPERATURE, weights=str(random.choice(exploiters))
            )
        if bot is None:
            snapshots = newest("snapshots")
            bot = (
                LearnedBot(weights=str(random.choice(snapshots)))
                if snapshots
                else make_bot("lookahead")
            )
        self.bot = bot

    def act(self, observation: Observation, rng: random.Random) -> int:
        return self.bot.act(observation, rng)


class NewestSnapshot:
    """The learner's newest snapshot, as the exploiters train against it."""

    name = "snapshot"

    def __init__(self) -> None:
        self.bot = LearnedBot(weights=str(newest("snapshots")[-1]))

    def act(self, observation: Observation, rng: random.Random) -> int:
        return self.bot.act(observation, rng)


class _Seated(gymnasium.Wrapper[Any, Any, Any, Any]):  # type: ignore[misc]
    """The learner's seat as the learned bot reads it: the seat vector
    (:meth:`~outofgears.play.observation.Observation.to_seat_vector`) and all 29 program
    numbers in its numbering (the upgrade cards' never legal without the upgrades), so that
    games with and without the upgrades share one action space."""

    def __init__(self, env: OutOfGearsEnv) -> None:
        super().__init__(env)
        self.action_space = gymnasium.spaces.Discrete(MAX_ACTIONS)
        self.programs: tuple[int, ...] = tuple(range(MAX_ACTIONS))

    def _view(self) -> np.ndarray[Any, Any]:
        vector, self.programs = self.env.unwrapped.learner_observation().to_seat_vector()
        return np.array(vector, np.float32)

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        _, info = self.env.reset(**kwargs)
        return self._view(), info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        move = self.programs.index(int(action))
        _, reward, ended, cut, info = self.env.step(move)
        return self._view(), reward, ended, cut, info

    def action_masks(self) -> np.ndarray[Any, Any]:
        mask = np.zeros(MAX_ACTIONS, np.bool_)
        for move, legal in enumerate(self.env.unwrapped.action_masks()):
            mask[self.programs[move]] = legal
        return mask


def _env(upgrades: bool, opponents: str = "benchmarks.train_learned:LeagueSeat") -> _Seated:
    return _Seated(OutOfGearsEnv(ROBOTS, opponents=opponents, upgrades=upgrades))


def _linears(model: MaskablePPO) -> list[Any]:
    """The policy's layers in order: its hidden layers, then the action scores."""
    hidden = model.policy.mlp_extractor.policy_net
    return [m for m in hidden if isinstance(m, torch.nn.Linear)] + [model.policy.action_net]


def policy_layers(model: MaskablePPO) -> list[tuple[list[float], list[float]]]:
    """The policy's layers, input by input, as :func:`weights_bytes` takes them."""
    linears = _linears(model)
    layers = []
    for linear in linears:
        weight = linear.weight.detach().cpu().numpy()  # outputs x inputs
        layers.append((weight.T.reshape(-1).tolist(), linear.bias.detach().cpu().numpy().tolist()))
    return layers


def write(path: Path, model: MaskablePPO) -> None:
    """The policy written to ``path`` whole or not at all."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(handle, "wb") as file:
        file.write(weights_bytes(policy_layers(model)))
    os.replace(temporary, path)


class _Snapshots(BaseCallback):  # type: ignore[misc]
    def __init__(self, folder: Path, every: int, seconds: float) -> None:
        super().__init__()
        self.folder, self.every, self.seconds = folder, every, seconds
        self.began = time.process_time()
        self.next = every

    def _on_training_start(self) -> None:
        self.began = time.process_time()
        self._snapshot()

    def _snapshot(self) -> None:
        path = self.folder / f"snapshot-{self.num_timesteps:09d}.oogw"
        write(path, self.model)
        used = time.process_time() - self.began
        print(f"{self.num_timesteps:>9,} steps, {used / 60:5.1f} min: {path.name}", flush=True)

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next:
            self.next += self.every
            self._snapshot()
        return time.process_time() - self.began < self.seconds


def load_policy(model: MaskablePPO, path: Path) -> None:
    """Start the policy from a weights file (the value function starts afresh)."""
    layers = read_weights(path).layers
    linears = _linears(model)
    with torch.no_grad():
        for linear, layer in zip(linears, layers, strict=True):
            weights = np.array(layer.weights, np.float32).reshape(layer.inputs, layer.outputs)
            linear.weight.copy_(torch.from_numpy(weights.T.copy()))
            linear.bias.copy_(torch.from_numpy(np.array(layer.biases, np.float32)))


def _model(vec: DummyVecEnv, seed: int, entropy: float) -> MaskablePPO:
    return MaskablePPO(
        "MlpPolicy", vec, seed=seed, ent_coef=entropy, batch_size=256, n_steps=1024, verbose=0
    )


def exploit(folder: Path, minutes: float, seed: int) -> None:
    """Train exploiters one after another, each for ``minutes`` of processor time against two
    copies of the learner's newest snapshot, and write each to ``folder/exploiters``."""
    target = folder / "exploiters"
    target.mkdir(exist_ok=True)
    for round_ in itertools.count(1):
        while not newest("snapshots"):
            time.sleep(5)
        against = newest("snapshots")[-1].name
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            vec = DummyVecEnv([lambda: _env(False, "benchmarks.train_learned:NewestSnapshot")] * 2)
        vec.seed(seed + round_)
        model = _model(vec, seed + round_, 0.0)
        model.learn(total_timesteps=10**9, callback=Budget(minutes * 60))
        path = target / f"exploiter-{round_:03d}.oogw"
        write(path, model)
        share = _exploiter_share(path, folder / "snapshots" / against, games=60)
        print(
            f"{path.name}: {model.num_timesteps:,} steps against {against}; "
            f"it takes {share:.3f} from two of them (60 games)",
            flush=True,
        )


def _exploiter_share(exploiter: Path, snapshot: Path, games: int) -> float:
    """The exploiter's mean win share, playing its most probable move, in ``games`` 3-robot
    games against two copies of ``snapshot``, every seat in turn."""
    total = 0.0
    for game in range(games):
        state = setup_seated_game(ROBOTS, seed=10**6 + game)
        seat = state.players[game % ROBOTS].name
        bots: dict[str, Bot] = {
            player.name: LearnedBot(weights=str(snapshot)) for player in state.players
        }
        bots[seat] = LearnedBot(temperature=0.01, weights=str(exploiter))
        result = play_match(state, bots, random.Random(game), turn_cap=100)
        total += result.returns[seat]
    return total / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=45.0, help="processor minutes")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--snapshot", type=int, default=25_000, help="steps between snapshots")
    parser.add_argument("--entropy", type=float, default=0.01, help="entropy bonus")
    parser.add_argument("--folder", type=Path, help="snapshots and exploiters (default: temporary)")
    parser.add_argument("--from-weights", type=Path, help="start the policy from a weights file")
    parser.add_argument("--out", type=Path, default=SHIPPED)
    parser.add_argument("--save", type=Path, help="also save the model (.zip) there")
    parser.add_argument(
        "--exploiters",
        type=float,
        metavar="MINUTES",
        help="instead of the learner, train exploiters of MINUTES each against the newest "
        "snapshot in --folder, for the learner's league (run beside the learner)",
    )
    args = parser.parse_args()
    # the league's seats are built by their spec, "benchmarks.train_learned:...": let that
    # name this very module, whose folders are set below, not a second copy of it
    sys.modules.setdefault("benchmarks.train_learned", sys.modules[__name__])
    torch.set_num_threads(1)
    random.seed(args.seed)
    with contextlib.ExitStack() as stack:
        folder = args.folder or Path(stack.enter_context(tempfile.TemporaryDirectory()))
        (folder / "snapshots").mkdir(parents=True, exist_ok=True)
        _FOLDERS.update(snapshots=folder / "snapshots", exploiters=folder / "exploiters")
        if args.exploiters:
            exploit(folder, args.exploiters, args.seed)
            return
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            vec = DummyVecEnv([lambda: _env(False)] * 3 + [lambda: _env(True)])
        vec.seed(args.seed)
        model = _model(vec, args.seed, args.entropy)
        if args.from_weights:
            load_policy(model, args.from_weights)
        callback = _Snapshots(folder / "snapshots", args.snapshot, args.minutes * 60)
        model.learn(total_timesteps=10**9, callback=callback)
        write(args.out, model)
    if args.save:
        model.save(args.save)
    print(f"{model.num_timesteps:,} steps; the policy written to {args.out}")


if __name__ == "__main__":
    gymnasium.logger.min_level = 40  # errors only
    main()
