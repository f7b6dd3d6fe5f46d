"""A rejected log stops at its first error (issue 14, class 2). How long the worst inputs take
is measured by ``python -m benchmarks.reading`` (each under 1 s and 200 MB on the figures of
docs/performance.md), never timed here: a timed assertion fails on a busy machine."""

from __future__ import annotations

import pytest

from benchmarks.reading import cases
from outofgears.log import LogError, read_log_text

EXPECTED = {
    # A list or object past its largest size is refused by its size before its items are read.
    "100,000 empty turns": "$.turns: at most 1000 turns, not 100000",
    "60,000 bad players entries": "$.players: a game has 2 to 8 players, not 60000",
    "60,000 valid players entries": "$.players: a game has 2 to 8 players, not 60000",
    "300,000 repeated keys": "$.a: the key 'a' appears twice in one object",
    "nesting 5,000 deep": "$: the JSON nests deeper than 32 levels",
    "100,000 bad programs in one turn": "$.turns[0].programs.0 (turn 1):",
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_worst_inputs_are_refused_at_their_first_error(name: str) -> None:
    text = cases()[name]
    with pytest.raises(LogError) as caught:
        read_log_text(text, "worst.json")
    assert str(caught.value).startswith(f"worst.json: {EXPECTED[name]}")


def test_an_unterminated_string_says_at_once() -> None:
    text = '{\n"format": "outofgears-log/1",\n\n\n\n"players": {"A: [1]}}'
    with pytest.raises(LogError) as caught:
        read_log_text(text, "x.json")
    assert "at at" not in str(caught.value)
    assert "not JSON: Unterminated string starting at line 6 column 13" in str(caught.value)
