"""The table: a game entered turn by turn as a table plays it, with no user interface.

:class:`~outofgears.table.session.TableSession` is the one object that knows what to ask a
table next, how to read and check an answer, how to undo one, and what a finished turn adds to
the log. ``outofgears record`` (the terminal) and the table in the browser are two faces of it:
each shows :meth:`~outofgears.table.session.TableSession.question`, passes what the player
typed or tapped to :meth:`~outofgears.table.session.TableSession.answer`, and writes the
turn it gives. :mod:`outofgears.table.answers` reads what a table types, in English, Italian
or French.
"""
