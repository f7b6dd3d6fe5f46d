"""The words of the table's pages, in each seat's language (from the package's catalogues).

The pages hold no words of their own: the first frame a phone receives carries these, and
the script writes them with ``textContent`` (never as HTML).
"""

from __future__ import annotations

from outofgears.words import translator


def page_words(lang: str) -> dict[str, str]:
    """The words of the pages in ``lang``, by the name the script uses."""
    t = translator(lang)
    return {
        "title": t.gettext("Out of Gears: the table"),
        "turn": t.gettext("Turn {turn}"),
        "you": t.gettext("{name}, robot {robots}"),
        "host": t.gettext("The host's page"),
        "lay": t.gettext("Lay a program for robot {robot}"),
        "seal": t.gettext("Seal my program"),
        "sealed": t.gettext("Sealed: {seal}. Waiting for the others to seal theirs."),
        "revealing": t.gettext("Every program is sealed: revealing."),
        "waiting": t.gettext("Waiting for {names}."),
        "committed": t.gettext("sealed"),
        "thinking": t.gettext("laying"),
        "asked": t.gettext("choosing"),
        "bot": t.gettext("bot"),
        "answer": t.gettext("Confirm"),
        "default": t.gettext("the default"),
        "seconds": t.gettext("{seconds} s left, then the default is taken"),
        "events": t.gettext("Turn {turn}: what happened"),
        "scores": t.gettext("Scores"),
        "players": t.gettext("Players"),
        "seals_ok": t.gettext("Turn {turn}: every program matches its seal."),
        "seals_bad": t.gettext("Turn {turn}: a program does NOT match its seal!"),
        "over": t.gettext("The game is over."),
        "winners": t.gettext("Won by {names}."),
        "viewer": t.gettext("Open the viewer of the game"),
        "links": t.gettext(
            "A link for each seat: it is the seat's key, give it to that player only."
        ),
        "record": t.gettext("Recording a game played with the real cards"),
        "undo": t.gettext("Undo"),
        "send": t.gettext("Enter"),
        "refused": t.gettext("Not taken: {reason}"),
        "lost": t.gettext("Connection lost: reconnecting…"),
        "picture": t.gettext("The table"),
        "nothing": t.gettext("Nothing to do now."),
        "lay_again": t.gettext("Lay a program again"),
        "seat_bot": t.gettext("Seat a bot"),
        "no_nonce": t.gettext(
            "This phone lost the program it sealed, so it cannot reveal it. Lay a program "
            "again: nobody has seen any program of this turn yet."
        ),
    }
