"""The engine's API page opens with the public API; the internals are documented apart."""

from __future__ import annotations

import outofgears
from tests.api_reference import (
    ENGINE_MODULES,
    code_text,
    internal_members,
    internals_markdown,
    load_package,
    public_api_markdown,
    public_paths,
)

PACKAGE = load_package()


def test_the_summary_table_lists_every_public_name_linked_to_where_it_is_defined() -> None:
    page = public_api_markdown(PACKAGE)
    paths = public_paths(PACKAGE)
    assert paths["apply_turn"] == "outofgears.rules.turn.apply_turn"
    for name in outofgears.__all__:
        code = code_text(name)
        assert f'<autoref identifier="{paths[name]}" optional><code>{code}</code></autoref>' in page
    assert "<code>&#95;&#95;version&#95;&#95;</code></autoref> | constant | `'0.2.0'`" in page
    assert ":func:" not in page
    assert "::: outofgears.rules.turn\n    options:\n      members: [" in page


def test_a_helper_is_documented_with_the_internals_and_not_on_the_public_page() -> None:
    assert "plan_turn" in internal_members(PACKAGE, "rules.turn")
    assert "apply_turn" not in internal_members(PACKAGE, "rules.turn")
    assert "::: outofgears.rules.turn.plan_turn\n" in internals_markdown(PACKAGE)
    public = public_api_markdown(PACKAGE)
    turn_members = public.split("::: outofgears.rules.turn\n")[1].split("\n\n")[0]
    assert "plan_turn" not in turn_members


def test_every_member_of_an_engine_module_is_on_exactly_one_of_the_two_pages() -> None:
    paths = set(public_paths(PACKAGE).values())
    for module in ENGINE_MODULES:
        own = [
            name
            for name, member in PACKAGE[module].members.items()
            if not member.is_alias and not name.startswith("_")
        ]
        internal = set(internal_members(PACKAGE, module))
        public = {n for n in own if f"outofgears.{module}.{n}" in paths}
        assert internal | public == set(own)
        assert not internal & public
