"""The hostile corpus of issue 14: names, free text, digits and numbers that a tester (or an
attacker) puts in logs, game files and command lines, generated from a few lists."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FULL_GAME: dict[str, Any] = json.loads((EXAMPLES / "full-game.log.json").read_text("utf-8"))

#: Names that try to drive a terminal, split a report line or break XML.
HOSTILE_NAMES: dict[str, str] = {
    "newline-forgery": "Ada\nThe log agrees with the rules.",
    "carriage-return": "Ada\rThe log agrees with the rules.",
    "window-title": "\x1b]0;pwned\x07Ada",
    "colours": "\x1b[31;1mAda\x1b[0m",
    "clear-screen": "\x1b[2J\x1b[HAda",
    "csi-8bit": "\x9b31mAda",
    "nul": "A\x00da",
    "bell": "Ada\x07\x07",
    "backspace": "Ada\x08\x08\x08Bob",
    "delete": "Ada\x7f",
    "tab": "Ada\tBo",
    "vertical-tab": "Ada\x0bBo",
    "form-feed": "Ada\x0cBo",
    "next-line": "Ada\x85Bo",
    "line-separator": "Ada\u2028Bo",
    "paragraph-separator": "Ada\u2029Bo",
    "rtl-override": "Ada\u202eoB",
    "rtl-embedding": "\u202bAda\u202c",
    "rtl-isolate": "\u2067Ada\u2069",
    "rtl-mark": "Ada\u200f",
    "arabic-mark": "Ada\u061c",
    "zero-width-space": "A\u200bda",
    "bom": "\ufeffAda",
    "lone-high-surrogate": "Ada\ud800",
    "lone-low-surrogate": "\udfffAda",
    "xml-markup": "<b>Ada</b> & \"Bo\" 'Cy'",
    "xml-cdata-end": "]]>Ada",
    "long-60": "W" * 60,
    "long-wide-60": "\u5bcc" * 60,
    "emoji": "\U0001f916" * 30,
}

#: Everything a report or an error message must never hold raw.
UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ud800-\udfff]"
)

#: Digits Python's int() reads (or chokes on) that are not ASCII.
NON_ASCII_DIGITS: dict[str, str] = {
    "arabic-indic-3": "\u0663",
    "superscript-2": "\u00b2",
    "fullwidth-3": "\uff13",
    "devanagari-3": "\u0969",
    "kannada-3": "\u0ce9",
    "nko-3": "\u07c3",
    "math-bold-3": "\U0001d7d1",
    "circled-1": "\u2460",
    "thai-3": "\u0e53",
}


def log_with_name(name: str, *, where: str = "player") -> bytes:
    """The full-game log with its first player renamed, or a version or description set."""
    data = json.loads(json.dumps(FULL_GAME))
    if where == "player":  # everywhere the log names her: players, recorded scores
        text = json.dumps(data, ensure_ascii=True)
        return text.replace('"Ada"', json.dumps(name, ensure_ascii=True)).encode("ascii")
    if where == "engine":
        data["written_by"]["engine"] = name
    elif where == "spec":
        data["written_by"]["spec"] = name
    else:
        data["description"] = name
    return json.dumps(data, ensure_ascii=True).encode("ascii")  # "\ud800" stays valid JSON
