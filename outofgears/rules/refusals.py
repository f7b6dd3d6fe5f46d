"""Why the rules refuse a post-reveal choice, as data: a :class:`Refusal`.

A rules module that refuses a defence steal, an assembly or a split raises
:class:`~outofgears.errors.IllegalChoiceError` through :func:`choice_refused` or
:func:`choice_refused_counted`:
the error's ``reason`` is the English sentence, and its ``refusal`` keeps the message and its
values (robots, places, gears, counts) apart, so that :mod:`outofgears.words` can say it again
in Italian or French from the gettext catalogues (the messages are extracted from these calls).

>>> from outofgears.rules.gears import gears
>>> error = choice_refused_counted(
...     "its share is {share} gear, not {got}", "its share is {share} gears, not {got}", 2,
...     robot=3, clause="SPL-1", share=2, got=1)
>>> error.reason, error.refusal.fields
('its share is 2 gears, not 1', (('share', 2), ('got', 1)))
"""

from __future__ import annotations

from attrs import frozen

from outofgears.errors import IllegalChoiceError
from outofgears.rules.gears import Gear, describe_gears
from outofgears.rules.model import Place

#: What a refusal's message may name: a number, a place, a gear, gears (none: ``none``), a word or
#: a list of robots written out.
FieldValue = int | str | Place | Gear | tuple[Gear, ...]


@frozen
class Refusal:
    """Why the rules refuse a choice: an English message with ``{field}`` places, its plural
    (when it counts ``count`` things) and the values of its fields, in order."""

    message: str
    fields: tuple[tuple[str, FieldValue], ...]
    plural: str | None = None
    count: int = 1

    def english(self) -> str:
        """The refusal in English, as the error's ``reason`` has it."""
        message = self.message if self.plural is None or self.count == 1 else self.plural
        return message.format(**{name: english_value(value) for name, value in self.fields})


def english_value(value: FieldValue) -> str:
    """A field's value in English: gears counted (``1 red, 2 blue``), anything else as it
    prints."""
    if isinstance(value, tuple):
        return describe_gears(value)
    return str(value)


def choice_refused(
    message: str, *, robot: int | None, clause: str, **fields: FieldValue
) -> IllegalChoiceError:
    """The error refusing a choice, with ``message`` filled in by ``fields``."""
    refusal = Refusal(message, tuple(fields.items()))
    return IllegalChoiceError(robot, refusal.english(), clause=clause, refusal=refusal)


def choice_refused_counted(
    message: str,
    plural: str,
    how_many: int,
    *,
    robot: int | None,
    clause: str,
    **fields: FieldValue,
) -> IllegalChoiceError:
    """:func:`choice_refused` for a message that counts ``count`` things (``message`` in the singular,
    ``plural`` otherwise, as ``how_many`` says)."""
    refusal = Refusal(message, tuple(fields.items()), plural, how_many)
    return IllegalChoiceError(robot, refusal.english(), clause=clause, refusal=refusal)


#: The public names of this module (the rules modules raise through the two functions).
__all__ = ["Refusal"]
