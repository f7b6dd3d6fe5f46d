"""Resolving a turn with a table's choices, keeping the legal ones when some are refused.

Used by ``replay`` (a refused choice is a departure; the turn goes on with the
other choices and the default for the refused one) and by ``dispute`` and
``whatif``.
"""

from __future__ import annotations

from attrs import frozen

from outofgears.errors import IllegalChoiceError, expect
from outofgears.rules.choices import NO_CHOICES, Choices
from outofgears.rules.model import GameState
from outofgears.rules.programs import Programs
from outofgears.rules.turn import TurnResult, resolve_turn


@frozen
class Resolution:
    """A turn resolved with a log's choices.

    Attributes:
        result: The state after the turn and its events.
        choices: The choices that were applied (the log's, less any refused).
        refused: The refusals of the choices that were dropped, in the order met.
    """

    result: TurnResult
    choices: Choices
    refused: tuple[IllegalChoiceError, ...] = ()


def resolve_with_choices(
    state: GameState, programs: Programs, choices: Choices | None = None
) -> Resolution:
    """Resolve a turn with the given choices, dropping each one the rules refuse.

    A refused choice (:class:`~outofgears.errors.IllegalChoiceError`) is dropped
    and its default policy decides instead: a defender's steals (ATK-4), a
    robot's assembly (ASM-1), the splits that name the robot (SPL-1 to SPL-5);
    when the refusal cannot be traced to one choice, every choice is dropped.
    The other choices still apply.

    Raises:
        IllegalProgramError: A program the rules do not allow.
        GameOverError: The game was already over.

    >>> from outofgears.rules.gears import gears
    >>> from outofgears.rules.model import Options
    >>> from outofgears.rules.programs import parse_program
    >>> from outofgears.rules.setup import from_position
    >>> state = from_position(robots={1: {"feet": gears(1, 2, 3)}, 2: {}},
    ...                       dumps={1: (), 2: ()}, reserve=gears(1, 2))
    >>> quiet = {1: parse_program("harvest 1"), 2: parse_program("harvest 2")}
    >>> done = resolve_with_choices(state, quiet, Choices(assemblies={1: ()}))
    >>> [str(error) for error in done.refused], done.result.state.robot(1).circuit
    (['robot 1: assembly is mandatory: it must move 2 gears (ASM-1)'], (Gear(1), Gear(2)))
    """
    chosen = choices if choices is not None else NO_CHOICES
    refused: list[IllegalChoiceError] = []
    while True:
        try:
            result = resolve_turn(state, programs, choices=chosen)
        except IllegalChoiceError as error:
            if not (chosen.defence_steals or chosen.assemblies or chosen.splits):
                raise  # the default policies themselves refused: a defect, not a choice
            refused.append(error)
            chosen = drop_refused_choice(chosen, error)
            continue
        return Resolution(result, chosen, tuple(refused))


def drop_refused_choice(choices: Choices, error: IllegalChoiceError) -> Choices:
    """The choices without the one a refusal names; no choices if it names none of them.

    >>> from outofgears.rules.gears import gears
    >>> choices = Choices(assemblies={1: (), 2: gears(2, 2)})
    >>> dict(drop_refused_choice(choices, IllegalChoiceError(1, "no", clause="ASM-1")).assemblies)
    {2: (Gear(2), Gear(2))}
    """
    expect(choices, Choices, "choices", "a Choices")
    expect(error, IllegalChoiceError, "error", "an IllegalChoiceError")
    kind = _KINDS.get(error.clause[:3])
    dropped = choices if kind is None else choices.without(kind, error.robot)
    return NO_CHOICES if dropped is choices else dropped


#: The decision a refusal's clause names, by the clause's prefix.
_KINDS = {"ATK": "steal", "ASM": "assembly", "SPL": "split"}


#: The public names of this module (the rest serves them).
__all__ = [
    "Resolution",
    "drop_refused_choice",
    "resolve_with_choices",
]
