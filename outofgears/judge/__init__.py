"""The judge: a game log replayed under the rules, the table's choices inferred, departures
found and readings compared.

:mod:`~outofgears.judge.replay` walks a log, :mod:`~outofgears.judge.departures` says where
and how it departs, :mod:`~outofgears.judge.inference` finds the legal
choices that reproduce what was written down, :mod:`~outofgears.judge.resolution` resolves a
turn keeping the legal choices, and :mod:`~outofgears.judge.compare` tells two resolutions
apart; :mod:`~outofgears.judge.explanation` explains one turn, clause by clause. It sits above the rules and the log format, below the pictures and the command line.
"""
