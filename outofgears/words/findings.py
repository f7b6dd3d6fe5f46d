"""What the judge finds, as data, and the one place that says it in words.

When a log departs from the rules, the judge (:mod:`outofgears.judge.departures`) says what was
recorded, what the rules give, which rule the record breaks and what the turn's legal choices
allowed instead. It says so with the facts of this module, each an attrs class holding robot
numbers, places, gears and clause IDs as data; :func:`fact_text` puts any of them into words in
English, Italian or French from the gettext catalogues, and :func:`departure_lines` writes a
whole departure the way ``replay`` and ``explain`` print it. The English is the judge's own:
``replay --format json`` carries it.

The facts, by the question they answer:

* What the departing value is (a *subject*): a :class:`~outofgears.rules.model.Place`, a
  player's score (:class:`ScoreOf`), a robot's choice (:class:`ChoiceOf`), the gear turned up
  onto a dump (:class:`DrawnOnto`).
* What the log says and what the rules give (a *value*): gears (a tuple of
  :class:`~outofgears.rules.gears.Gear`), :class:`Points`, :class:`Drawn`, a choice written in
  the log (:class:`ChosenSteal`, :class:`ChosenAssembly`, :class:`ChosenSplit`,
  :class:`SomeChoice`), what the default policy does instead (:class:`DefaultMoves`), what the
  reserve held (:class:`NextInReserve`, :class:`OneOfReserve`, :class:`ReserveEmpty`).
* Why (a *reason*): a score counted out (:class:`ScoreCount`), a choice the rules refuse
  (:class:`Refused`), the rule a record breaks (:class:`StealFromCircuit`,
  :class:`AssemblyDeclined`, :class:`ShareSize`, :class:`ShareQuota`).
* What the rules allowed instead (an *option*): :class:`AssemblyOptions`,
  :class:`StealOptions`, :class:`SplitOptions`, :class:`SplitQuotas`, :class:`ClosestOutcome`.

>>> from outofgears.rules.gears import gears
>>> fact_text(AssemblyOptions(2, (gears(1, 1), gears(1, 2))), "it")
'il robot 2 poteva assemblare una di queste coppie: rossa + rossa | rossa + arancione (ASM-1; la scelta predefinita, ASM-2, decide solo quando il tavolo non sceglie)'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final, Protocol, runtime_checkable

from attrs import frozen

from outofgears.clauses import clauses, sources_text
from outofgears.errors import ArgumentTypeError
from outofgears.rules.events import Event, TurnEnded
from outofgears.rules.gears import Gear
from outofgears.rules.model import Place, UpgradeCard
from outofgears.rules.refusals import Refusal
from outofgears.words import (
    card_name,
    clause_title,
    event_text,
    gears_text,
    kind_word,
    place_from_text,
    place_text,
    translator,
)

#: Gears as a fact holds them.
Gears = tuple[Gear, ...]
#: A split's shares: each taker and the gears it takes, in robot order.
Shares = tuple[tuple[int, Gears], ...]

# --- what the departing value is --------------------------------------------------------------


@frozen
class ScoreOf:
    """A player's recorded score."""

    player: str


@frozen
class ChoiceOf:
    """A robot's post-reveal choice: ``kind`` is ``"defence steal"``, ``"assembly"``,
    ``"split"`` or ``"choice"``; ``robot`` is ``None`` for a choice that names none."""

    kind: str
    robot: int | None


@frozen
class DrawnOnto:
    """The gear turned up onto a dump in exploration (EXP-1)."""

    dump: int


# --- values: what the log says, what the rules give --------------------------------------------


@frozen
class Points:
    """A score."""

    points: int


@frozen
class Drawn:
    """A gear turned up, or nothing (``None``)."""

    gear: Gear | None


@frozen
class ChosenSteal:
    """A defence steal written in the log: ``gear`` from robot ``attacker``'s ``source``
    (``"feet"`` or ``"circuit"``)."""

    gear: Gear
    attacker: int
    source: str


@frozen
class ChosenAssembly:
    """An assembly written in the log."""

    gears: Gears


@frozen
class ChosenSplit:
    """A split written in the log."""

    place: Place
    shares: Shares


@frozen
class SomeChoice:
    """A choice of the log that names none of these."""


@frozen
class DefaultMoves:
    """What the default policy moves instead of a refused choice: each gear and where from."""

    moves: tuple[tuple[Gear, Place], ...]


@frozen
class NextInReserve:
    """The gear the reserve holds at ``number`` in draw order, and all it held."""

    gear: Gear
    number: int
    reserve: Gears


@frozen
class OneOfReserve:
    """Any gear the reserve held (its order unknown)."""

    reserve: Gears


@frozen
class ReserveEmpty:
    """Nothing: the reserve was empty."""


# --- inferred choices: what the table chose where the log does not say --------------------------


@frozen
class StealTaken:
    """The gear a defender took from an attacker: ``gear`` from robot ``attacker``'s
    ``source`` (``"feet"`` or ``"circuit"``)."""

    gear: Gear
    attacker: int
    source: str


@frozen
class TakenFrom:
    """Gears taken, each with the place it came from (none: nothing was taken)."""

    moves: tuple[tuple[Gear, Place], ...]


@frozen
class SharesOf:
    """A split's shares."""

    shares: Shares


@frozen
class Inferred:
    """A decision the log did not give, inferred from what the players recorded.

    ``kind`` is ``"assembly"`` (``robot`` assembled the gears ``chosen``, none: it declined),
    ``"defence steal"`` (``robot`` took ``chosen``, a :class:`StealTaken`) or ``"split"``
    (``place`` was split as ``chosen``, a :class:`SharesOf`); ``default`` is what the default
    policy (``default_clause``) would have done; ``clause`` allows the choice.
    """

    kind: str
    robot: int | None
    place: Place | None
    chosen: Gears | StealTaken | SharesOf
    default: Gears | TakenFrom | SharesOf
    clause: str
    default_clause: str


# --- what the recorded values leave open ----------------------------------------------------------


@frozen
class OpenPositions:
    """How many positions agree with everything recorded at the end (``more``: more than
    ``count``, the last turn leaving more than the bound)."""

    count: int
    more: bool = False


@frozen
class OpenPlace:
    """A place where the positions still possible differ, and what each would hold there."""

    place: Place
    held: tuple[Gears, ...]


@frozen
class OpenDecision:
    """A decision the positions still possible differ on: ``kind`` is ``"assembly"``
    (``robot``'s), ``"steal"`` (``robot``'s defence steal from ``attacker``) or ``"split"``
    (of ``place``)."""

    kind: str
    robot: int | None = None
    attacker: int | None = None
    place: Place | None = None


# --- notes on a log written under another version of the specification ---------------------------


@frozen
class WrittenUnderSpec:
    """A log written under spec version ``written``, replayed under ``current``."""

    written: str
    current: str


@frozen
class TieBreaksByRing:
    """Since spec version ``version`` the default choices break ties by the ring of seats
    (R-SYMMETRY)."""

    version: str


@frozen
class TableFollowed:
    """After turn ``turn``, which departs, the game goes on from the position the table wrote
    down, not from the rules' (``"follows": "table"``, SET-8)."""

    turn: int


# --- reasons: why the rules refuse it ---------------------------------------------------------


@frozen
class ScoreCount:
    """A robot's points counted out, feet and circuit together (END-2, JOL-2, TRI-2)."""

    robot: int
    own: int
    other: int
    jolly: int
    three: int
    total: int


@frozen
class Refused:
    """A choice the rules refuse: the rules' reason in English, the clause it breaks, and the
    reason as data (:class:`~outofgears.rules.refusals.Refusal`) when the rules gave it."""

    reason: str
    clause: str
    refusal: Refusal | None = None


@frozen
class StealFromCircuit:
    """Defenders took from a circuit under ``--defence-steal-source feet_only`` (ATK-4): each
    steal as (defender, gear, the circuit)."""

    steals: tuple[tuple[int, Gear, Place], ...]


@frozen
class AssemblyDeclined:
    """A robot kept its gears at its feet under ``--assembly mandatory`` (ASM-1)."""


@frozen
class ShareSize:
    """A taker of a split that took another number of gears than its share (SPL-1)."""

    robot: int
    got: Gears
    place: Place
    takers: tuple[int, ...]
    share: int


@frozen
class ShareQuota:
    """A taker of a split that took another number of its own colour than its quota (SPL-2)."""

    robot: int
    got: Gears
    place: Place
    takers: tuple[int, ...]
    pool: Gears
    quota: int
    own: int


# --- options: what the rules allowed instead --------------------------------------------------


@frozen
class AssemblyOptions:
    """The assemblies a robot could make (ASM-1): each a pair of gears, or none."""

    robot: int
    picks: tuple[Gears, ...]


@frozen
class StealOptions:
    """The gears a defender could take from an attacker (ATK-4): each gear and its source."""

    defender: int
    attacker: int
    options: tuple[tuple[Gear, str], ...]


@frozen
class SplitOptions:
    """The ways the table could split a place (SPL-1, SPL-2); ``more`` when there are more
    ways than those listed."""

    place: Place
    ways: tuple[Shares, ...]
    more: bool = False


@frozen
class SplitQuotas:
    """A split's share and each taker's own-colour quota (SPL-2)."""

    place: Place
    share: int
    quotas: tuple[tuple[int, int], ...]


@frozen
class ClosestOutcome:
    """The closest legal outcome: the robots it leaves otherwise, with their feet and circuit."""

    robots: tuple[tuple[int, Gears, Gears], ...]


# --- what differs between two resolutions of a turn (``dispute``, ``whatif``) ------------------


@frozen
class UpgradeOf:
    """The upgrade card a player holds."""

    player: str


@frozen
class GameEnd:
    """Whether the game is over."""


@frozen
class ReserveHeld:
    """The gears the reserve holds, counted."""

    gears: Gears


@frozen
class HeldCard:
    """An upgrade card held, or none (``None``)."""

    card: UpgradeCard | None


@frozen
class Over:
    """Whether the game is over: yes or no."""

    over: bool


@frozen
class RefusedChoice:
    """A choice dropped because the rules refuse it: the robot whose choice it is (``None``
    when it names none) and why."""

    robot: int | None
    why: Refused


@frozen
class Differs:
    """One thing that differs after two resolutions of a turn: ``subject`` is ``value`` after
    one and ``before`` after the other, the one ``label`` names (in the reader's language)."""

    subject: Place | ScoreOf | UpgradeOf | GameEnd
    value: Gears | ReserveHeld | Points | HeldCard | Over
    before: Gears | ReserveHeld | Points | HeldCard | Over
    label: str


# --- in words ---------------------------------------------------------------------------------


def _gear_word(gear: Gear, lang: str) -> str:
    """One gear by its colour or kind alone: ``red``, ``rossa``, ``jolly``."""
    return kind_word(gear, lang, 1)


def _shares(shares: Shares, lang: str) -> str:
    t = translator(lang)
    return "; ".join(
        t.gettext("robot {robot}: {gears}").format(robot=robot, gears=gears_text(got, lang))
        for robot, got in shares
    )


def _source(source: str, lang: str) -> str:
    t = translator(lang)
    if source == "circuit":
        return t.pgettext("steal source", "circuit")
    return t.pgettext("steal source", "feet")


def _takers(takers: Sequence[int]) -> str:
    return ", ".join(map(str, takers))


def _score_of(fact: ScoreOf, lang: str) -> str:
    return translator(lang).gettext("{player}'s score").format(player=fact.player)


def _choice_of(fact: ChoiceOf, lang: str) -> str:
    t = translator(lang)
    if fact.robot is None:
        return {
            "defence steal": t.gettext("a defence steal"),
            "assembly": t.gettext("an assembly"),
            "split": t.gettext("a split"),
        }.get(fact.kind, t.gettext("a choice"))
    return {
        "defence steal": t.gettext("robot {robot}'s defence steal"),
        "assembly": t.gettext("robot {robot}'s assembly"),
        "split": t.gettext("robot {robot}'s split"),
    }.get(fact.kind, t.gettext("robot {robot}'s choice")).format(robot=fact.robot)


def _drawn_onto(fact: DrawnOnto, lang: str) -> str:
    return translator(lang).gettext("the gear turned up onto dump {dump}").format(dump=fact.dump)


def _points(fact: Points, lang: str) -> str:
    t = translator(lang)
    return t.ngettext("{count} point", "{count} points", fact.points).format(count=fact.points)


def _drawn(fact: Drawn, lang: str) -> str:
    if fact.gear is None:
        return translator(lang).pgettext("nothing drawn", "nothing")
    return _gear_word(fact.gear, lang)


def _chosen_steal(fact: ChosenSteal, lang: str) -> str:
    t = translator(lang)
    return t.gettext("{gear} from robot {attacker}'s {source}").format(
        gear=_gear_word(fact.gear, lang), attacker=fact.attacker, source=_source(fact.source, lang)
    )


def _chosen_assembly(fact: ChosenAssembly, lang: str) -> str:
    return gears_text(fact.gears, lang)


def _chosen_split(fact: ChosenSplit, lang: str) -> str:
    return (
        translator(lang)
        .gettext("{place} split as {shares}")
        .format(place=place_text(fact.place, lang), shares=_shares(fact.shares, lang))
    )


def _some_choice(fact: SomeChoice, lang: str) -> str:
    return translator(lang).gettext("a choice")


def _default_moves(fact: DefaultMoves, lang: str) -> str:
    t = translator(lang)
    given = ", ".join(
        t.pgettext("a gear and where it comes from", "{gear} {source}").format(
            gear=_gear_word(gear, lang), source=place_from_text(place, lang)
        )
        for gear, place in fact.moves
    )
    return t.gettext("a choice the rules allow; by the default policy, {moves}").format(
        moves=given or t.pgettext("nothing moved", "nothing")
    )


def _held(reserve: Gears, lang: str) -> str:
    return (
        translator(lang).gettext("the reserve held {gears}").format(gears=gears_text(reserve, lang))
    )


def _next_in_reserve(fact: NextInReserve, lang: str) -> str:
    return (
        translator(lang)
        .gettext("{gear}, the reserve's gear number {number} in draw order ({held})")
        .format(
            gear=_gear_word(fact.gear, lang), number=fact.number, held=_held(fact.reserve, lang)
        )
    )


def _one_of_reserve(fact: OneOfReserve, lang: str) -> str:
    return (
        translator(lang)
        .gettext("one of the reserve's gears ({held})")
        .format(held=_held(fact.reserve, lang))
    )


def _reserve_empty(fact: ReserveEmpty, lang: str) -> str:
    return translator(lang).gettext("nothing: the reserve was empty")


def _steal_taken(fact: StealTaken, lang: str) -> str:
    return (
        translator(lang)
        .gettext("{gears} from robot {attacker}'s {source}")
        .format(
            gears=gears_text((fact.gear,), lang),
            attacker=fact.attacker,
            source=_source(fact.source, lang),
        )
    )


def _taken_from(fact: TakenFrom, lang: str) -> str:
    t = translator(lang)
    taken = ", ".join(
        t.pgettext("gears and where they come from", "{gears} {source}").format(
            gears=gears_text((gear,), lang), source=place_from_text(place, lang)
        )
        for gear, place in fact.moves
    )
    return taken or t.pgettext("nothing taken", "nothing")


def _shares_of(fact: SharesOf, lang: str) -> str:
    return _shares(fact.shares, lang)


def _inferred(fact: Inferred, lang: str) -> str:
    t = translator(lang)
    fields = {
        "robot": fact.robot,
        "place": "" if fact.place is None else place_text(fact.place, lang),
        "chosen": fact_text(fact.chosen, lang),
        "default": fact_text(fact.default, lang),
        "clause": fact.clause,
        "default_clause": fact.default_clause,
    }
    if fact.kind == "defence steal":
        return t.gettext(
            "robot {robot} took {chosen} in defence ({clause}; the default steal would have "
            "taken {default})"
        ).format(**fields)
    if fact.kind == "split":
        return t.gettext(
            "{place} was split as {chosen} ({clause}; the default split, {default_clause}, "
            "would have given {default})"
        ).format(**fields)
    declined, nothing = fact.chosen == (), fact.default == ()
    if declined and nothing:
        message = t.gettext(
            "robot {robot} declined to assemble ({clause}; the default pick, {default_clause}, "
            "would have assembled nothing)"
        )
    elif declined:
        message = t.gettext(
            "robot {robot} declined to assemble ({clause}; the default pick, {default_clause}, "
            "would have taken {default})"
        )
    elif nothing:
        message = t.gettext(
            "robot {robot} assembled {chosen} ({clause}; the default pick, {default_clause}, "
            "would have assembled nothing)"
        )
    else:
        message = t.gettext(
            "robot {robot} assembled {chosen} ({clause}; the default pick, {default_clause}, "
            "would have taken {default})"
        )
    return message.format(**fields)


def _open_positions(fact: OpenPositions, lang: str) -> str:
    t = translator(lang)
    if fact.more:
        message = t.ngettext(
            "more than {count} position remains possible: the recorded values do not settle them",
            "more than {count} positions remain possible: the recorded values do not settle them",
            fact.count,
        )
    else:
        message = t.gettext(
            "{count} positions remain possible: the recorded values do not settle them"
        )
    return message.format(count=fact.count)


def _open_place(fact: OpenPlace, lang: str) -> str:
    t = translator(lang)
    told = t.gettext(" or ").join(gears_text(held, lang) for held in fact.held)
    return t.gettext("{place}: {alternatives}").format(
        place=place_text(fact.place, lang), alternatives=told
    )


def _open_decision(fact: OpenDecision, lang: str) -> str:
    t = translator(lang)
    if fact.kind == "assembly":
        return t.gettext("robot {robot}'s assembly").format(robot=fact.robot)
    if fact.kind == "steal":
        return t.gettext("robot {robot}'s defence steal from robot {attacker}").format(
            robot=fact.robot, attacker=fact.attacker
        )
    place = "" if fact.place is None else place_text(fact.place, lang)
    return t.gettext("the split of {place}").format(place=place)


def open_question_text(turn: int, decisions: Sequence[OpenDecision], ways: int, lang: str) -> str:
    """A turn whose decisions stay open at the end, which, and in how many ways.

    >>> open_question_text(1, (OpenDecision("assembly", 2),), 2, "fr")
    "tour 1 : l'assemblage du Robot 2 (2 façons)"
    """
    if type(turn) is not int or type(ways) is not int:
        raise ArgumentTypeError("turn", "a turn number and a count of ways", (turn, ways))
    if not isinstance(decisions, tuple | list):
        raise ArgumentTypeError("decisions", "a sequence of OpenDecision", decisions)
    t = translator(lang)
    return t.ngettext(
        "turn {turn}: {decisions} ({ways} way)", "turn {turn}: {decisions} ({ways} ways)", ways
    ).format(
        turn=turn,
        decisions=", ".join(fact_text(decision, lang) for decision in decisions),
        ways=ways,
    )


def _written_under_spec(fact: WrittenUnderSpec, lang: str) -> str:
    return (
        translator(lang)
        .gettext(
            "this log was written under spec version {written}; it is replayed under spec "
            "version {current}"
        )
        .format(written=fact.written, current=fact.current)
    )


def _table_followed(fact: TableFollowed, lang: str) -> str:
    return (
        translator(lang)
        .gettext(
            "after turn {turn} the game goes on from the position the table wrote down, not "
            "from the rules' (SET-8)"
        )
        .format(turn=fact.turn)
    )


def _tie_breaks_by_ring(fact: TieBreaksByRing, lang: str) -> str:
    return (
        translator(lang)
        .gettext(
            "since spec version {version} the default choices break ties by the ring of seats "
            "(ruling R-SYMMETRY): a defence steal, an assembly, a split or a Super Attack's "
            "defenders left to the default may resolve differently"
        )
        .format(version=fact.version)
    )


def _score_count(fact: ScoreCount, lang: str) -> str:
    t = translator(lang)
    counts = [
        (
            t.ngettext("{count} own-colour gear x 2", "{count} own-colour gears x 2", fact.own),
            fact.own,
        ),
        (t.ngettext("{count} other gear x 1", "{count} other gears x 1", fact.other), fact.other),
    ]
    if fact.jolly:
        counts.append(
            (t.ngettext("{count} Jolly x 2", "{count} Jolly x 2", fact.jolly), fact.jolly)
        )
    if fact.three:
        counts.append(
            (
                t.ngettext(
                    "{count} three-point gear x 3", "{count} three-point gears x 3", fact.three
                ),
                fact.three,
            )
        )
    terms = " + ".join(part.format(count=count) for part, count in counts)
    return t.gettext("robot {robot} scores {terms} = {total} (END-2)").format(
        robot=fact.robot, terms=terms, total=_points(Points(fact.total), lang)
    )


def _refused(fact: Refused, lang: str) -> str:
    if fact.refusal is not None:
        return f"{refusal_text(fact.refusal, lang)} ({fact.clause})"
    if lang == "en":
        return f"{fact.reason} ({fact.clause})"
    # A refusal the rules gave without its data: the clause says which rule, its paraphrase
    # is in the reader's language.
    return (
        translator(lang)
        .gettext("the rules do not allow this choice: see {clause}, {title}")
        .format(clause=fact.clause, title=clause_title(fact.clause, lang))
    )


def _refusal_value(value: object, lang: str) -> str:
    if isinstance(value, tuple):
        return gears_text(value, lang)
    if isinstance(value, Place):
        return place_text(value, lang)
    if isinstance(value, Gear):
        return _gear_word(value, lang)
    if value in ("feet", "circuit"):
        return _source(str(value), lang)
    return str(value)


def refusal_text(refusal: Refusal, lang: str) -> str:
    """Why the rules refuse a choice, in ``lang``.

    >>> from outofgears.rules.gears import gears
    >>> from outofgears.rules.refusals import Refusal
    >>> refusal_text(Refusal("it cannot assemble {chosen}: its feet hold {feet}",
    ...                      (("chosen", gears(1, 5)), ("feet", gears(1, 2, 2)))), "fr")
    'il ne peut pas assembler 1 rouge, 1 bleu : à ses pieds il a 1 rouge, 2 orange'
    """
    if not isinstance(refusal, Refusal):
        raise ArgumentTypeError("refusal", "a Refusal", refusal)
    t = translator(lang)
    if refusal.plural is None:
        message = t.gettext(refusal.message)
    else:
        message = t.ngettext(refusal.message, refusal.plural, refusal.count)
    return message.format(**{name: _refusal_value(value, lang) for name, value in refusal.fields})


def _steal_from_circuit(fact: StealFromCircuit, lang: str) -> str:
    t = translator(lang)
    took = "; ".join(
        t.gettext("robot {robot} took {gears} {source}").format(
            robot=robot, gears=gears_text((gear,), lang), source=place_from_text(place, lang)
        )
        for robot, gear, place in fact.steals
    )
    return t.gettext(
        "{took}: under defence_steal_source='feet_only' a defender takes from the attacker's "
        "feet only (ATK-4)"
    ).format(took=took or t.gettext("a defender took a gear from a circuit"))


def _assembly_declined(fact: AssemblyDeclined, lang: str) -> str:
    return translator(lang).gettext(
        "a robot kept its gears at its feet: under assembly='mandatory' a robot with three or "
        "more gears at its feet moves two into its circuit (ASM-1)"
    )


def _where_shared(place: Place, takers: Sequence[int], lang: str) -> str:
    return (
        translator(lang)
        .gettext("{place} shared by robots {takers}")
        .format(place=place_text(place, lang), takers=_takers(takers))
    )


def _share_size(fact: ShareSize, lang: str) -> str:
    return (
        translator(lang)
        .gettext("robot {robot} took {gears} of {where}: each taker's share is {share} (SPL-1)")
        .format(
            robot=fact.robot,
            gears=gears_text(fact.got, lang),
            where=_where_shared(fact.place, fact.takers, lang),
            share=fact.share,
        )
    )


def _share_quota(fact: ShareQuota, lang: str) -> str:
    return (
        translator(lang)
        .gettext(
            "robot {robot} took {gears} of {where}: its own-colour quota from {pool} is "
            "{quota}, it took {own} (SPL-2)"
        )
        .format(
            robot=fact.robot,
            gears=gears_text(fact.got, lang),
            where=_where_shared(fact.place, fact.takers, lang),
            pool=gears_text(fact.pool, lang),
            quota=fact.quota,
            own=fact.own,
        )
    )


def _pair(pick: Gears, lang: str) -> str:
    if not pick:
        return translator(lang).pgettext("no gears assembled", "nothing")
    return " + ".join(_gear_word(gear, lang) for gear in pick)


def _assembly_options(fact: AssemblyOptions, lang: str) -> str:
    return (
        translator(lang)
        .gettext(
            "robot {robot} could assemble any of: {picks} (ASM-1; the default pick, ASM-2, "
            "decides only when the table does not)"
        )
        .format(robot=fact.robot, picks=" | ".join(_pair(pick, lang) for pick in fact.picks))
    )


def _steal_options(fact: StealOptions, lang: str) -> str:
    t = translator(lang)
    told = ", ".join(
        t.gettext("{gears} from its {source}").format(
            gears=gears_text((gear,), lang), source=_source(source, lang)
        )
        for gear, source in fact.options
    )
    return t.gettext(
        "robot {defender} could take one gear of robot {attacker}: {options} (ATK-4)"
    ).format(defender=fact.defender, attacker=fact.attacker, options=told)


def _split_options(fact: SplitOptions, lang: str) -> str:
    return (
        translator(lang)
        .gettext(
            "{place} could be split as {ways} (SPL-1, SPL-2; the default split, SPL-5, "
            "decides only when the table does not)"
        )
        .format(
            place=place_text(fact.place, lang),
            ways=" | ".join(_shares(way, lang) for way in fact.ways)
            + (" | …" if fact.more else ""),
        )
    )


def _split_quotas(fact: SplitQuotas, lang: str) -> str:
    t = translator(lang)
    quotas = ", ".join(
        t.gettext("robot {robot} {quota}").format(robot=robot, quota=quota)
        for robot, quota in fact.quotas
    )
    return t.ngettext(
        "{place} gave {count} gear to each of robots {takers}, each first its own-colour "
        "quota ({quotas}) (SPL-2)",
        "{place} gave {count} gears to each of robots {takers}, each first its own-colour "
        "quota ({quotas}) (SPL-2)",
        fact.share,
    ).format(
        place=place_text(fact.place, lang),
        count=fact.share,
        takers=_takers([robot for robot, _ in fact.quotas]),
        quotas=quotas,
    )


def _closest_outcome(fact: ClosestOutcome, lang: str) -> str:
    t = translator(lang)
    robots = "; ".join(
        t.gettext("robot {robot} feet {feet}, circuit {circuit}").format(
            robot=robot, feet=gears_text(feet, lang), circuit=gears_text(circuit, lang)
        )
        for robot, feet, circuit in fact.robots
    )
    return t.gettext("the closest legal outcome: {robots}").format(robots=robots)


def _upgrade_of(fact: UpgradeOf, lang: str) -> str:
    return translator(lang).gettext("{player}'s upgrade card").format(player=fact.player)


def _game_end(fact: GameEnd, lang: str) -> str:
    return translator(lang).gettext("game over")


def _reserve_held(fact: ReserveHeld, lang: str) -> str:
    count = len(fact.gears)
    return (
        translator(lang)
        .ngettext("{count} gear: {gears}", "{count} gears: {gears}", count)
        .format(count=count, gears=gears_text(fact.gears, lang))
    )


def _held_card(fact: HeldCard, lang: str) -> str:
    if fact.card is None:
        return translator(lang).pgettext("no upgrade card", "none")
    return card_name(fact.card, lang)


def _over(fact: Over, lang: str) -> str:
    t = translator(lang)
    return (
        t.pgettext("the game is over", "yes") if fact.over else t.pgettext("the game is over", "no")
    )


def _refused_choice(fact: RefusedChoice, lang: str) -> str:
    why = fact_text(fact.why, lang)
    if fact.robot is None:
        return why
    return (
        translator(lang).gettext("robot {robot}: {refusal}").format(robot=fact.robot, refusal=why)
    )


def _differs(fact: Differs, lang: str) -> str:
    return (
        translator(lang)
        .gettext("{what}: {value} ({label}: {before})")
        .format(
            what=fact_text(fact.subject, lang),
            value=fact_text(fact.value, lang),
            label=fact.label,
            before=fact_text(fact.before, lang),
        )
    )


def _gears(fact: Gears, lang: str) -> str:
    return gears_text(fact, lang)


def _place(fact: Place, lang: str) -> str:
    return place_text(fact, lang)


#: Each kind of fact and how it is said.
_SAYINGS: Final[dict[type, Callable[[Any, str], str]]] = {
    Place: _place,
    ScoreOf: _score_of,
    ChoiceOf: _choice_of,
    DrawnOnto: _drawn_onto,
    Points: _points,
    Drawn: _drawn,
    ChosenSteal: _chosen_steal,
    ChosenAssembly: _chosen_assembly,
    ChosenSplit: _chosen_split,
    SomeChoice: _some_choice,
    DefaultMoves: _default_moves,
    NextInReserve: _next_in_reserve,
    OneOfReserve: _one_of_reserve,
    ReserveEmpty: _reserve_empty,
    StealTaken: _steal_taken,
    TakenFrom: _taken_from,
    SharesOf: _shares_of,
    Inferred: _inferred,
    OpenPositions: _open_positions,
    OpenPlace: _open_place,
    OpenDecision: _open_decision,
    WrittenUnderSpec: _written_under_spec,
    TieBreaksByRing: _tie_breaks_by_ring,
    TableFollowed: _table_followed,
    ScoreCount: _score_count,
    Refused: _refused,
    StealFromCircuit: _steal_from_circuit,
    AssemblyDeclined: _assembly_declined,
    ShareSize: _share_size,
    ShareQuota: _share_quota,
    AssemblyOptions: _assembly_options,
    StealOptions: _steal_options,
    SplitOptions: _split_options,
    SplitQuotas: _split_quotas,
    ClosestOutcome: _closest_outcome,
    UpgradeOf: _upgrade_of,
    GameEnd: _game_end,
    ReserveHeld: _reserve_held,
    HeldCard: _held_card,
    Over: _over,
    RefusedChoice: _refused_choice,
    Differs: _differs,
}

#: What a departing value can be.
Subject = Place | ScoreOf | ChoiceOf | DrawnOnto
#: What the log says or the rules give.
Value = (
    Gears
    | Points
    | Drawn
    | ChosenSteal
    | ChosenAssembly
    | ChosenSplit
    | SomeChoice
    | DefaultMoves
    | NextInReserve
    | OneOfReserve
    | ReserveEmpty
)
#: Why the rules refuse it.
Reason = ScoreCount | Refused | StealFromCircuit | AssemblyDeclined | ShareSize | ShareQuota
#: What the rules allowed instead.
Option = AssemblyOptions | StealOptions | SplitOptions | SplitQuotas | ClosestOutcome


def fact_text(fact: object, lang: str) -> str:
    """Any fact of this module (or a place, or a tuple of gears) in words in ``lang``.

    >>> fact_text(Points(1), "en"), fact_text(Points(3), "fr")
    ('1 point', '3 points')
    >>> fact_text(ScoreCount(1, own=1, other=1, jolly=0, three=0, total=3), "it")
    'il robot 1 fa 1 rotella del suo colore x 2 + 1 altra rotella x 1 = 3 punti (END-2)'
    """
    translator(lang)  # the language checked first
    if isinstance(fact, tuple) and all(isinstance(gear, Gear) for gear in fact):
        return _gears(fact, lang)
    saying = _SAYINGS.get(type(fact))
    if saying is None:
        raise ArgumentTypeError("fact", "a fact of outofgears.words.findings", fact)
    return saying(fact, lang)


def options_text(allowed: Sequence[Option], lang: str) -> str:
    """What the rules allowed instead, in words; when nothing they allowed changes the value,
    a sentence that says so."""
    if not isinstance(allowed, tuple | list):
        raise ArgumentTypeError("allowed", "a sequence of facts", allowed)
    if not allowed:
        return translator(lang).gettext("no choice of this turn changes this value")
    return "; ".join(fact_text(option, lang) for option in allowed)


@runtime_checkable
class DepartureFacts(Protocol):
    """What a departure holds (:class:`outofgears.judge.departures.Departure` has it)."""

    @property
    def turn(self) -> int: ...

    @property
    def json_path(self) -> str: ...

    @property
    def subject(self) -> Subject: ...

    @property
    def told(self) -> Value: ...

    @property
    def given(self) -> Value: ...

    @property
    def robot(self) -> int | None: ...

    @property
    def clause(self) -> str | None: ...

    @property
    def events(self) -> tuple[Event, ...]: ...

    @property
    def why(self) -> Reason | None: ...

    @property
    def options(self) -> tuple[Option, ...] | None: ...


def _expect_departure(departure: object) -> DepartureFacts:
    if not isinstance(departure, DepartureFacts):
        raise ArgumentTypeError("departure", "a departure", departure)
    return departure


def departure_line(departure: DepartureFacts, lang: str) -> str:
    """A departure in one line, as a turn of ``replay``'s report lists it."""
    _expect_departure(departure)
    return (
        translator(lang)
        .gettext("turn {turn}, {what} ({path}): recorded {recorded}; the rules give {expected}")
        .format(
            turn=departure.turn,
            what=fact_text(departure.subject, lang),
            path=departure.json_path,
            recorded=fact_text(departure.told, lang),
            expected=fact_text(departure.given, lang),
        )
    )


#: The width of a departure report's labels (English: ``the rules give:`` and a space).
LABEL_WIDTH: Final = 16


def _labelled(label: str, value: object) -> str:
    return f"  {label:<{LABEL_WIDTH - 1}} {value}"


def _sources(clause: str, lang: str) -> str:
    """The rulebook clauses behind a clause: in English as ``replay`` has always written them,
    in Italian or French by rulebook (:func:`rulebook_sources`)."""
    return sources_text(clause) if lang == "en" else rulebook_sources(clause, lang)


def rulebook_sources(clause: str, lang: str) -> str:
    """The rulebook clauses behind a spec clause, Italian then French, in ``lang``.

    >>> rulebook_sources("ATK-4", "en")
    'IT: IT-ATK-4, IT-ACT-ATK-2 | FR: FR-ATK-4, FR-ACT-ATK-2'
    >>> rulebook_sources("ATK-5", "en")
    'IT, FR: engine policy (no rulebook clause)'
    >>> rulebook_sources("SHOV-1", "it")
    'IT: non è nel regolamento italiano | FR: FR-UPG-SHOV-1, FR-UPG-SHOV-2, FR-UPG-SHOV-3'
    """
    if not isinstance(clause, str):
        raise ArgumentTypeError("clause", "a clause ID", clause)
    found = clauses().get(clause)
    t = translator(lang)
    if found is None or not found.sources:
        return t.gettext("IT, FR: engine policy (no rulebook clause)")
    italian = ", ".join(found.italian_sources) or t.gettext("not in the Italian rulebook")
    french = ", ".join(found.french_sources) or t.gettext("not in the French rulebook")
    return f"IT: {italian} | FR: {french}"


def departure_lines(departure: DepartureFacts, lang: str) -> list[str]:
    """A departure's report: where it is in the log, what was recorded, what the rules give,
    why, the clause, what the rules allowed instead and the events behind the rules' value.

    In English, exactly what ``replay`` has always printed; in Italian or French, the same
    report with every word in that language (names, IDs, numbers and JSON paths as they are).
    """
    _expect_departure(departure)
    t = translator(lang)
    lines = [
        t.gettext("DEPARTS FROM THE RULES at turn {turn}: {what}").format(
            turn=departure.turn, what=fact_text(departure.subject, lang)
        ),
        _labelled(t.gettext("in the log at:"), departure.json_path),
    ]
    if departure.robot is not None:
        lines.append(_labelled(t.gettext("robot:"), departure.robot))
    lines += [
        _labelled(t.gettext("recorded:"), fact_text(departure.told, lang)),
        _labelled(t.gettext("the rules give:"), fact_text(departure.given, lang)),
    ]
    if departure.why is not None:
        lines.append(_labelled(t.gettext("why:"), fact_text(departure.why, lang)))
    if departure.clause:
        lines.append(
            "  "
            + t.gettext("clause: {clause} ({sources})").format(
                clause=departure.clause, sources=_sources(departure.clause, lang)
            )
        )
    if departure.options is not None:
        lines.append(
            "  "
            + t.gettext("the rules allowed: {allowed}").format(
                allowed=options_text(departure.options, lang)
            )
        )
    if departure.events:
        lines.append("  " + t.gettext("because:"))
        lines += [f"    {_event(event, lang)}" for event in departure.events]
    elif departure.why is None and departure.clause is None:
        lines.append(
            _labelled(
                t.gettext("because:"),
                t.gettext("no gear moved there in turn {turn}").format(turn=departure.turn),
            )
        )
    return lines


def _event(event: Event, lang: str) -> str:
    """An event behind the rules' value, with its rulebook clauses in English (as ``replay``
    has always written them)."""
    text = event_text(event, lang)
    if lang != "en" or isinstance(event, TurnEnded):
        return text
    return f"{text} ({sources_text(event.clause)})"


#: The public names of this module.
__all__ = [
    "AssemblyDeclined",
    "AssemblyOptions",
    "ChoiceOf",
    "ChosenAssembly",
    "ChosenSplit",
    "ChosenSteal",
    "ClosestOutcome",
    "DefaultMoves",
    "DepartureFacts",
    "Differs",
    "Drawn",
    "DrawnOnto",
    "GameEnd",
    "HeldCard",
    "Inferred",
    "NextInReserve",
    "OneOfReserve",
    "OpenDecision",
    "OpenPlace",
    "OpenPositions",
    "Over",
    "Points",
    "Refused",
    "RefusedChoice",
    "ReserveEmpty",
    "ReserveHeld",
    "ScoreCount",
    "ScoreOf",
    "ShareQuota",
    "ShareSize",
    "SharesOf",
    "SomeChoice",
    "SplitOptions",
    "SplitQuotas",
    "StealFromCircuit",
    "StealOptions",
    "StealTaken",
    "TableFollowed",
    "TakenFrom",
    "TieBreaksByRing",
    "UpgradeOf",
    "WrittenUnderSpec",
    "departure_line",
    "departure_lines",
    "fact_text",
    "open_question_text",
    "options_text",
    "refusal_text",
    "rulebook_sources",
]
