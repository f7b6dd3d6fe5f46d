"""The ``outofgears`` command line: the group in :mod:`~outofgears.cli.main`, one module per
command, and the words and helpers they share in :mod:`~outofgears.cli.common` and
:mod:`~outofgears.table.answers`. No command imports another."""
