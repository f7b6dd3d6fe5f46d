"""The learned bot: a small neural policy, trained by self-play, that plays by drawing its move.

:class:`LearnedBot` reads what its player sees from its own seat (:meth:`Observation.to_seat_vector
<outofgears.play.observation.Observation.to_seat_vector>`: the robots renumbered so that its own
is 1, as the game does not depend on the numbers) through a network of fully connected
layers (``tanh`` between them) to one score per program number
(:mod:`outofgears.play.actions`) in that numbering, and draws its move among the legal ones with probabilities
``softmax(score / temperature)``. It *draws*: a player who always takes the move it values most
is read and trapped by a learner within minutes, while one that mixes its moves as it was
trained to leaves it far less to take (the exploitability table of "Writing a bot").

The weights ship with the package (``weights/learned.oogw``) and are read with the standard
library alone: the bot needs neither NumPy nor a deep-learning library, and a move costs well
under a millisecond (the observation's vector has a few dozen non-zero numbers, and the first
layer adds up only their rows). ``benchmarks/train_learned.py`` trains them (the bench extra)
and writes them with :func:`weights_bytes`.

The file: ``OOGW`` and a format number (``uint32``), the number of layers, then for each layer
its inputs and outputs (``uint32``), its weights input by input (``float32``, ``inputs x
outputs``) and its biases (``float32``, ``outputs``); little-endian throughout.

What it plays: the network was trained in games of three robots, one per player, a quarter of
them with the upgrades, and it plays every game of one robot per player, whatever the robots'
numbers (its input has the same length for any number of robots, with or without the
expansions, so the Jolly and three-point gears are read too); it is strongest in the games it
was trained for. In the two-robot variant (VAR-1), whose
moves are joint moves of two robots, it plays as :class:`~outofgears.play.bots.LookaheadBot`.
"""

from __future__ import annotations

import math
import random
import struct
import sys
from array import array
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Final

from attrs import field, frozen

from outofgears.errors import ArgumentTypeError, InvalidStateError, OutOfGearsError
from outofgears.play.actions import MAX_ACTIONS
from outofgears.play.bots import LookaheadBot, _moves_to_choose
from outofgears.play.observation import Observation, observation_size

_MAGIC: Final = b"OOGW"
_FORMAT: Final = 1
_COUNT: Final = struct.Struct("<4sII")
_SHAPE: Final = struct.Struct("<II")
#: The file is little-endian; arrays are read and written in the machine's order.
_BIG_ENDIAN: Final = sys.byteorder == "big"

#: The weights shipped with the package.
SHIPPED_WEIGHTS: Final = "weights/learned.oogw"


class WeightsFileError(OutOfGearsError, ValueError):
    """A weights file that is not what :func:`weights_bytes` makes.

    Attributes:
        path: The file.
        reason: What is wrong with it.
    """

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: not a weights file of the learned bot ({reason})")
        self.path = path
        self.reason = reason


@frozen
class _Layer:
    """One fully connected layer: ``weights[i * outputs + j]`` joins input ``i`` to output ``j``."""

    inputs: int
    outputs: int
    weights: array[float] = field(eq=False, repr=False)
    biases: array[float] = field(eq=False, repr=False)


@frozen
class _Network:
    """Layers one after the other, ``tanh`` between them; the last layer's outputs are the
    scores of the program numbers."""

    layers: tuple[_Layer, ...]

    def scores(self, vector: Sequence[float]) -> list[float]:
        """The scores of every program number for an observation's vector.

        An input of zero adds nothing: only the rows of the non-zero inputs are added up,
        which makes the first layer (hundreds of inputs, a few dozen non-zero) cheap.
        """
        values = list(vector)
        last = len(self.layers) - 1
        for index, layer in enumerate(self.layers):
            width = layer.outputs
            weights = layer.weights
            sums = list(layer.biases)
            for i, value in enumerate(values):
                if value:
                    row = weights[i * width : (i + 1) * width]
                    sums = [total + value * w for total, w in zip(sums, row, strict=True)]
            values = sums if index == last else [math.tanh(total) for total in sums]
        return values


def read_weights(path: str | Path | None = None) -> _Network:
    """The network in a weights file (the shipped one when ``path`` is ``None``).

    Raises:
        WeightsFileError: The file is not a weights file of this format, or does not fit
            the observation's vector and the program numbers.
    """
    if path is None:
        data = resources.files("outofgears.play").joinpath(SHIPPED_WEIGHTS).read_bytes()
        return _network(data, f"outofgears/play/{SHIPPED_WEIGHTS}")
    if not isinstance(path, str | Path):
        raise ArgumentTypeError("path", "a file's path (str or Path) or None", path)
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise WeightsFileError(str(path), f"it cannot be read: {error.strerror or error}") from None
    return _network(data, str(path))


def _network(data: bytes, where: str) -> _Network:
    if len(data) < _COUNT.size:
        raise WeightsFileError(where, "too short")
    magic, version, count = _COUNT.unpack_from(data)
    if magic != _MAGIC or version != _FORMAT:
        raise WeightsFileError(where, f"it starts {magic!r} {version}, not {_MAGIC!r} {_FORMAT}")
    offset = _COUNT.size
    layers = []
    for _ in range(count):
        if offset + _SHAPE.size > len(data):
            raise WeightsFileError(where, "it ends inside a layer")
        inputs, outputs = _SHAPE.unpack_from(data, offset)
        offset += _SHAPE.size
        size = 4 * (inputs * outputs + outputs)
        if offset + size > len(data):
            raise WeightsFileError(where, "it ends inside a layer")
        numbers = array("f")
        numbers.frombytes(data[offset : offset + size])
        if _BIG_ENDIAN:
            numbers.byteswap()
        offset += size
        cut = inputs * outputs
        layers.append(_Layer(inputs, outputs, numbers[:cut], numbers[cut:]))
    if offset != len(data):
        raise WeightsFileError(where, f"{len(data) - offset} bytes after the last layer")
    _check_shapes(layers, where)
    return _Network(tuple(layers))


def _check_shapes(layers: Sequence[_Layer], where: str) -> None:
    if not layers:
        raise WeightsFileError(where, "no layer")
    widths = [layers[0].inputs] + [layer.outputs for layer in layers]
    if any(layer.inputs != width for layer, width in zip(layers, widths, strict=False)):
        raise WeightsFileError(where, "a layer's inputs are not the outputs of the one before")
    if widths[0] != observation_size() or widths[-1] != MAX_ACTIONS:
        raise WeightsFileError(
            where,
            f"it maps {widths[0]} inputs to {widths[-1]} scores, not the observation's "
            f"{observation_size()} to the {MAX_ACTIONS} program numbers",
        )


def weights_bytes(layers: Sequence[tuple[Sequence[float], Sequence[float]]]) -> bytes:
    """A network as :func:`read_weights` reads it, from each layer's weights (input by input:
    ``inputs x outputs`` numbers) and biases.

    >>> network = _network(weights_bytes([([0.0] * 515 * 29, [1.0] * 29)]), "here")
    >>> [(layer.inputs, layer.outputs) for layer in network.layers]
    [(515, 29)]
    """
    if not isinstance(layers, list | tuple) or not all(map(_is_layer, layers)):
        raise ArgumentTypeError(
            "layers", "a list of (weights, biases) pairs, each a list of numbers", layers
        )
    chunks = [_COUNT.pack(_MAGIC, _FORMAT, len(layers))]
    built = []
    for weights, biases in layers:
        outputs = len(biases)
        if not outputs or len(weights) % outputs:
            raise InvalidStateError(
                f"a layer of {len(weights)} weights and {outputs} biases is not whole"
            )
        inputs = len(weights) // outputs
        built.append(_Layer(inputs, outputs, array("f", weights), array("f", biases)))
        numbers = array("f", [*weights, *biases])
        if _BIG_ENDIAN:
            numbers.byteswap()
        chunks += [_SHAPE.pack(inputs, outputs), numbers.tobytes()]
    _check_shapes(built, "the network")
    return b"".join(chunks)


def _is_layer(layer: object) -> bool:
    return (
        isinstance(layer, list | tuple)
        and len(layer) == 2
        and all(
            isinstance(part, list | tuple | array)
            and all(type(number) in (int, float) for number in part)
            for part in layer
        )
    )


_SHIPPED: list[_Network] = []


def _shipped() -> _Network:
    if not _SHIPPED:
        _SHIPPED.append(read_weights())
    return _SHIPPED[0]


@frozen
class LearnedBot:
    """A move drawn from the learned policy's probabilities over the legal moves.

    Args:
        temperature: Divides the scores before the softmax: 1 plays the policy as trained;
            lower is greedier (and easier to read), higher closer to random.
        weights: A weights file (:func:`weights_bytes`), or ``None`` for the shipped one.

    >>> from outofgears.rules.setup import setup_game
    >>> from outofgears.play.observation import observe
    >>> observation = observe(setup_game([1, 2, 3], seed=1), "P1")
    >>> LearnedBot().act(observation, random.Random(0)) in observation.legal_actions()
    True
    """

    temperature: float = field(default=1.0)
    weights: str | None = field(default=None)
    _network: _Network = field(init=False, repr=False, eq=False)
    name = "learned"

    @temperature.validator
    def _positive(self, _: object, value: float) -> None:
        if not (isinstance(value, int | float) and 0 < value < math.inf):
            raise InvalidStateError(f"temperature is a number above 0, not {value!r}")

    @weights.validator
    def _a_path(self, _: object, value: object) -> None:
        if value is not None and not isinstance(value, str):
            raise ArgumentTypeError("weights", "a weights file's path (str) or None", value)

    def __attrs_post_init__(self) -> None:
        network = _shipped() if self.weights is None else read_weights(self.weights)
        object.__setattr__(self, "_network", network)

    def probabilities(self, observation: Observation) -> dict[int, float]:
        """The probability of each legal move (one robot per player)."""
        moves = observation.legal_actions()
        vector, programs = observation.to_seat_vector()
        scores = self._network.scores(vector)
        chosen = [scores[programs[move]] / self.temperature for move in moves]
        top = max(chosen)
        weights = [math.exp(score - top) for score in chosen]
        total = sum(weights)
        return {move: weight / total for move, weight in zip(moves, weights, strict=True)}

    def act(self, observation: Observation, rng: random.Random) -> int:
        """A legal move drawn with the policy's probabilities; in the two-robot variant, the
        move :class:`~outofgears.play.bots.LookaheadBot` plays."""
        moves = _moves_to_choose(observation, rng)
        if len(observation.robots) > 1:
            return LookaheadBot().act(observation, rng)
        if len(moves) == 1:
            return moves[0]
        probabilities = self.probabilities(observation)
        return rng.choices(list(probabilities), weights=list(probabilities.values()))[0]


__all__ = [
    "SHIPPED_WEIGHTS",
    "LearnedBot",
    "WeightsFileError",
    "read_weights",
    "weights_bytes",
]
