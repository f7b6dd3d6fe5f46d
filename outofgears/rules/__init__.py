"""The rules of the game: everything the specification cites for play itself.

One module per rulebook concern: the pieces (:mod:`~outofgears.rules.gears`), the state
(:mod:`~outofgears.rules.model`), programming (:mod:`~outofgears.rules.programs`), setup
(:mod:`~outofgears.rules.setup`), the phases of a turn (:mod:`~outofgears.rules.attacks`,
:mod:`~outofgears.rules.traps`, :mod:`~outofgears.rules.harvests`,
:mod:`~outofgears.rules.sharing`, :mod:`~outofgears.rules.assembly`,
:mod:`~outofgears.rules.exploration`), the expansions (:mod:`~outofgears.rules.upgrades`,
:mod:`~outofgears.rules.variant`), the end (:mod:`~outofgears.rules.scoring`), and the turn
that runs them (:mod:`~outofgears.rules.turn`, on the working table of
:mod:`~outofgears.rules.table`). The rules import nothing of the package but
:mod:`outofgears.errors` and :mod:`outofgears.clauses` (checked by ``lint-imports``).
"""
