"""Programs sealed before the reveal: the commitment a phone sends, and how a reveal opens it.

At the table in the browser a phone first sends only a *commitment* to its robot's program:
the SHA-256 of :func:`sealed_text` (the turn, the robot, the program as the log writes it and
a random nonce). Once every seat has committed, each phone reveals its program and nonce, and
the commitment is checked (:func:`seal_refusal`). The log keeps both (``TurnRecord.seals``),
so anyone can check later that each program is the one sealed before any other was shown.
The turn and the robot are in the hashed text so that a seat cannot copy another's
commitment and reveal the other's program as its own.
"""

from __future__ import annotations

import hashlib
import re
from typing import Final

#: What every sealed text starts with: the version of this way of sealing.
SEAL_TAG: Final = "outofgears-seal/1"
#: A commitment: a SHA-256 in lower-case hexadecimal.
COMMITMENT: Final = re.compile(r"[0-9a-f]{64}")
#: A nonce: 128 to 256 random bits in lower-case hexadecimal.
NONCE: Final = re.compile(r"[0-9a-f]{32,64}")


def sealed_text(turn: int, robot: int, program: str, nonce: str) -> str:
    """The text whose SHA-256 is the commitment.

    >>> sealed_text(3, 2, "harvest 4", "00" * 16)
    'outofgears-seal/1|turn 3|robot 2|harvest 4|00000000000000000000000000000000'
    """
    return f"{SEAL_TAG}|turn {turn}|robot {robot}|{program}|{nonce}"


def seal_commitment(turn: int, robot: int, program: str, nonce: str) -> str:
    """The commitment to ``program`` for ``robot`` on ``turn`` with ``nonce``.

    >>> seal_commitment(3, 2, "harvest 4", "00" * 16)[:16]
    'ceb5cce8bc627e31'
    """
    text = sealed_text(turn, robot, program, nonce)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def seal_refusal(turn: int, robot: int, program: str, commitment: str, nonce: str) -> str | None:
    """Why ``commitment`` is not opened by ``program`` and ``nonce`` (robot ``robot``, turn
    ``turn``); ``None`` when it is.

    >>> nonce = "00" * 16
    >>> seal_refusal(3, 2, "harvest 4", seal_commitment(3, 2, "harvest 4", nonce), nonce)
    >>> seal_refusal(3, 2, "harvest 1", seal_commitment(3, 2, "harvest 4", nonce), nonce)
    "robot 2's program 'harvest 1' with its nonce does not match the commitment sealed on turn 3"
    """
    if not COMMITMENT.fullmatch(commitment):
        return "a commitment is 64 lower-case hexadecimal digits (a SHA-256)"
    if not NONCE.fullmatch(nonce):
        return "a nonce is 32 to 64 lower-case hexadecimal digits"
    if seal_commitment(turn, robot, program, nonce) != commitment:
        return (
            f"robot {robot}'s program {program!r} with its nonce does not match the "
            f"commitment sealed on turn {turn}"
        )
    return None
