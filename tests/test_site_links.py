"""Every clause, ruling and rulebook ID of the site is a link; the build check says when not."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.clause_map import REPO_ROOT, load_clause_map
from tests.doc_pages import ANCHORED_HEADING, SPEC_PAGES, clause_index, example_pages
from tests.site_checks import check_built_site
from tests.site_links import (
    code_in_prose,
    examples_by_clause,
    id_link_counts,
    id_prefixes,
    link_ids,
    link_targets,
    unlinked_ids,
    with_clause_links,
)

CLAUSES = load_clause_map()
TARGETS = link_targets(SPEC_PAGES, CLAUSES, ANCHORED_HEADING)
PREFIXES = id_prefixes(TARGETS)


def test_every_clause_and_ruling_of_the_spec_has_a_link_target() -> None:
    for clause in CLAUSES:
        assert TARGETS[clause.id] == f"{clause.doc}#{clause.id.lower()}"
        for ruling in clause.rulings:
            assert TARGETS[ruling] == f"spec/rulings.md#{ruling.lower()}"
        for source in clause.sources:
            assert TARGETS[source] == f"rulebook-clauses.md#{source.lower()}"


def test_a_rulebook_id_is_linked_whole_and_its_spec_suffix_is_not_read_as_a_clause() -> None:
    html, unknown = link_ids(
        "<p>IT-ATK-4 and ATK-4</p>", {"IT-ATK-4": "ix#it-atk-4", "ATK-4": "b#atk-4"}.get, PREFIXES
    )
    assert html == (
        '<p><a class="oog-id" href="ix#it-atk-4">IT-ATK-4</a> and '
        '<a class="oog-id" href="b#atk-4">ATK-4</a></p>'
    )
    assert unknown == []


def test_ids_in_headings_and_links_are_left_alone_but_code_and_event_traces_are_linked() -> None:
    page = (
        '<h3 id="atk-4">ATK-4 — title</h3><pre><code>x [ATK-4]</code></pre>'
        '<a href="#atk-4">ATK-4</a><p><code>[ATK-4]</code></p>'
        '<div class="highlight"><pre><span class="go">defended [ATK-3]</span></pre></div>'
    )
    html, _ = link_ids(page, {"ATK-4": "#atk-4", "ATK-3": "#atk-3"}.get, PREFIXES)
    assert html.count('class="oog-id"') == 3
    assert '<p><code>[<a class="oog-id" href="#atk-4">ATK-4</a>]</code></p>' in html
    assert '<pre><code>x [<a class="oog-id" href="#atk-4">ATK-4</a>]</code></pre>' in html
    assert 'defended [<a class="oog-id" href="#atk-3">ATK-3</a>]</span>' in html
    assert '<h3 id="atk-4">ATK-4 — title</h3>' in html
    # every ID is now a link, the heading's aside
    assert id_link_counts(html, PREFIXES) == (4, 4)


def test_an_id_that_names_nothing_is_reported_and_a_family_with_an_ellipsis_is_not() -> None:
    _, unknown = link_ids("<p>ATK-99, R-NOTHING, FR-EXT… SHA-256 UTF-8</p>", TARGETS.get, PREFIXES)
    assert unknown == ["ATK-99", "R-NOTHING"]


def test_each_clause_lists_its_functions_as_cross_references_and_its_worked_examples() -> None:
    by_id = {clause.id: clause for clause in CLAUSES}
    examples = examples_by_clause(example_pages(), PREFIXES)
    assert "chain.md" in [p.name for p in examples["ATK-6"]]
    page, source = SPEC_PAGES[1]
    text = with_clause_links(
        (REPO_ROOT / source).read_text(encoding="utf-8"),
        page,
        by_id,
        examples,
        ANCHORED_HEADING,
    )
    assert (
        "Implemented by: [`rules.gears.Gear`][outofgears.rules.gears.Gear], "
        "[`rules.gears.Gear.points_for`][outofgears.rules.gears.Gear.points_for]"
    ) in text
    assert "Worked examples: [A chain of attacks](../examples/chain.md)" in text
    assert "Implemented by: `outofgears." not in text


def test_the_clause_index_reads_from_the_spec_side_with_an_examples_column() -> None:
    examples = examples_by_clause(example_pages(), PREFIXES)
    lines = clause_index(CLAUSES, examples).splitlines()
    header = lines.index("## By spec clause") + 2
    assert lines[header].startswith("| Spec clause | Rulebook clauses | Worked examples |")
    row = next(line for line in lines if line.startswith("| [ATK-6]"))
    assert "[chain](examples/chain.md)" in row


def test_the_build_check_fails_on_an_unlinked_id_and_a_missing_anchor(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.html").write_text(
        '<article><p id="x">See ATK-4 and <a href="../a/#nowhere">ATK-5</a></p></article>',
        encoding="utf-8",
    )
    assert check_built_site(tmp_path, PREFIXES) == [
        "only 1 of 2 IDs are links (under 98%)",
        "a/index.html: unlinked ID(s) ['ATK-4']",
        "a/index.html: link ../a/#nowhere has no anchor in a/index.html",
    ]
    (tmp_path / "a" / "index.html").write_text(
        '<article><p id="x">See <a href="#x">ATK-4</a></p></article>', encoding="utf-8"
    )
    assert check_built_site(tmp_path, PREFIXES) == []
    assert unlinked_ids("<p>GEN-1</p>", PREFIXES) == ["GEN-1"]


def test_the_build_check_fails_on_sentinel_unset_and_on_a_raw_sphinx_role(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text(
        "<article><p>Default Sentinel.UNSET; see :func:<code>apply_turn</code></p></article>",
        encoding="utf-8",
    )
    assert check_built_site(tmp_path, PREFIXES) == [
        "index.html: shows Sentinel.UNSET",
        "index.html: 1 raw Sphinx role(s), e.g. ':func:<code>'",
    ]


def test_the_build_check_keeps_the_projects_issues_off_the_readers_pages(tmp_path: Path) -> None:
    for page in ("performance", "changelog", "reference/bots"):
        (tmp_path / page).mkdir(parents=True)
        (tmp_path / page / "index.html").write_text(
            "<article><p>Measured for <em>issue</em> 11; see Issue 6.</p></article>",
            encoding="utf-8",
        )
    assert check_built_site(tmp_path, PREFIXES) == [
        "performance/index.html: names the project's bookkeeping ['Issue 6', 'issue 11']"
    ]


def test_a_sphinx_role_in_a_docstring_becomes_a_cross_reference() -> None:
    from scripts.griffe_doctest_blocks import cross_references
    from tests.api_reference import load_package

    package = load_package()
    apply_turn = package["rules.turn.apply_turn"]
    assert cross_references(apply_turn, "as :func:`resolve_turn` does") == (
        'as <autoref identifier="outofgears.rules.turn.resolve_turn" optional>'
        "<code>resolve_turn</code></autoref> does"
    )
    assert cross_references(apply_turn, ":class:`~outofgears.rules.model.GameState`") == (
        '<autoref identifier="outofgears.rules.model.GameState" optional><code>GameState</code></autoref>'
    )
    assert cross_references(apply_turn, ":func:`no_such_thing`") == "`no_such_thing`"
    assert cross_references(apply_turn, "```\n:func:`resolve_turn`\n```") == (
        "```\n:func:`resolve_turn`\n```"
    )


def test_the_build_check_fails_on_a_picture_that_does_not_open_or_has_small_text(
    tmp_path: Path,
) -> None:
    small = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 328 90"><style>.s{font-size:9px}</style>'
    (tmp_path / "a-narrow.svg").write_text(
        small + '<text class="s">x</text></svg>', encoding="utf-8"
    )
    (tmp_path / "index.html").write_text(
        '<article><p><img alt="t" src="a-narrow.svg"></p></article>', encoding="utf-8"
    )
    assert check_built_site(tmp_path, PREFIXES) == [
        "index.html: picture a-narrow.svg does not open its wide drawing on a click",
        "index.html: picture a-narrow.svg has 9 px text",
    ]
    (tmp_path / "a.svg").write_text(small.replace("9px", "12px") + "</svg>", encoding="utf-8")
    (tmp_path / "a-narrow.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 328 500"></svg>', encoding="utf-8"
    )
    (tmp_path / "index.html").write_text(
        '<article><a class="oog-picture" href="a.svg"><img src="a-narrow.svg"></a></article>',
        encoding="utf-8",
    )
    assert check_built_site(tmp_path, PREFIXES) == []


def test_the_build_check_fails_on_a_shown_picture_too_wide_missing_or_shown_twice(
    tmp_path: Path,
) -> None:
    (tmp_path / "a.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 950 800"></svg>', encoding="utf-8"
    )
    (tmp_path / "a-narrow.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 420 900"></svg>', encoding="utf-8"
    )
    (tmp_path / "index.html").write_text(
        '<article><a class="oog-picture" href="a.svg"><img src="a-narrow.svg"></a>'
        '<a class="oog-picture" href="b.svg"><img src="b-narrow.svg"></a>'
        '<a class="oog-picture" href="a.svg"><img src="a-narrow.svg"></a></article>',
        encoding="utf-8",
    )
    assert check_built_site(tmp_path, PREFIXES) == [
        "index.html: picture a-narrow.svg is 420 wide",
        "index.html: picture b-narrow.svg is missing",
        "index.html: picture b.svg is missing",
        "index.html: picture a-narrow.svg is 420 wide",
        "index.html: picture a-narrow.svg is shown 2 times",
    ]


def test_the_rules_pages_keep_code_out_of_the_players_prose() -> None:
    plain = {
        source: code_in_prose((REPO_ROOT / source).read_text("utf-8")) for _, source in SPEC_PAGES
    }
    assert {source: code for source, code in plain.items() if code} == {}


def test_the_code_check_catches_a_function_name_planted_in_a_rule() -> None:
    rule = (
        "### ATK-4 — The defender takes one gear\n\n"
        "The defender takes a gear from its attacker.\n\n"
        '??? note "For developers"\n'
        "    `steal_from_attacker` does it.\n\n"
        "Implemented by: `outofgears.rules.attacks.steal_from_attacker`\n"
    )
    assert code_in_prose(rule) == []
    planted = rule.replace("a gear from its attacker", "a gear (`steal_from_attacker`)")
    assert code_in_prose(planted) == ["line 3: `steal_from_attacker`"]
    # prose after the note is the players' again
    after = rule + "\nThen `Choices` decide.\n"
    assert code_in_prose(after) == ["line 10: `Choices`"]
    # an example's code shows only inside the note
    example = rule + "\n```pycon\n>>> apply_turn(state, programs)\n```\n"
    assert code_in_prose(example) == ["line 10: ```pycon"]
    assert (
        code_in_prose(rule.replace("    `steal", "    ```pycon\n    >>> x\n    ```\n    `steal"))
        == []
    )


def test_search_keeps_clause_ids_whole_and_finds_words_without_accents() -> None:
    pytest.importorskip("mkdocs")  # the docs extra; .ci/run runs this file again with it

    from scripts.mkdocs_hooks import with_folded_words

    config = (REPO_ROOT / "mkdocs.yml").read_text("utf-8")
    written = re.search(r"^ +separator: '(?P<regex>.+)'$", config, re.MULTILINE)
    assert written is not None
    separator = re.compile(written["regex"].replace("\\u200b", "\u200b"))

    def words(text: str) -> list[str]:
        return [w for w in separator.split(text.lower()) if w]

    # a clause ID is one word (the query's hyphen is escaped the same way: search-ids.js);
    # other hyphens part words
    assert words("ATK-4 and IT-ATK-4, two-robot (R-SPLIT) SHARV-1.") == [
        *("atk-4", "and", "it", "atk-4", "two", "robot", "r", "split", "sharv-1"),
    ]
    script = (REPO_ROOT / "docs" / "javascripts" / "search-ids.js").read_text("utf-8")
    assert "javascripts/search-ids.js" in config
    assert "(\\p{L})-(?=\\d)" in script
    assert words("version 1.2. Next") == ["version", "1.2", "next"]
    entry = with_folded_words({"location": "x/", "text": "<p>Le Piège et la récolte, piege</p>"})
    assert entry["text"].endswith("<span hidden>recolte</span>")  # piege was there already
    assert with_folded_words(entry) == entry
    assert with_folded_words({"text": "plain"}) == {"text": "plain"}


def test_a_computed_constant_is_shown_by_its_value_and_a_function_or_an_id_is_not() -> None:
    import griffe

    from scripts.griffe_doctest_blocks import ConstantValues, shown_value

    package = griffe.load(
        "outofgears", extensions=griffe.load_extensions(ConstantValues), search_paths=[REPO_ROOT]
    )
    gears = package["rules.gears"]
    assert str(gears["JOLLY_POINTS"].value) == "2"  # written as = OWN_COLOUR_POINTS
    assert str(gears["GEARS_PER_COLOUR"].value) == "11"
    assert shown_value(len) is None
    assert shown_value({id(()): ()}) is None  # an id changes from run to run
    assert shown_value(tuple(range(100))).endswith(", …)")  # type: ignore[union-attr]


def test_the_observation_layout_is_a_real_table_whose_slices_add_up_to_the_vector() -> None:
    import outofgears.play.observation
    from outofgears.play.observation import observation_size
    from scripts.griffe_doctest_blocks import rst_tables_to_markdown

    text = rst_tables_to_markdown(outofgears.play.observation.__doc__ or "")
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    assert "====" not in text
    slices = [re.match(r"\| `(\d+):(\d+)` \| (\d+) \|", row) for row in rows]
    assert all(slices)
    assert [int(m[1]) for m in slices if m] == [0, *(int(m[2]) for m in slices[:-1] if m)]
    assert sum(int(m[3]) for m in slices if m) == observation_size() == int(slices[-1][2])  # type: ignore[index]


def test_the_environment_page_shows_the_figures_the_package_computes() -> None:
    from outofgears.play.actions import num_actions, num_joint_actions
    from outofgears.play.game import game_info
    from outofgears.rules.model import Options
    from outofgears.rules.setup import setup_seated_game
    from tests.doc_pages import environment_page

    page = environment_page()
    assert '!!! info "The environment"' in page
    assert f"`Discrete({num_actions(Options())})`" in page
    assert f"`Discrete({num_joint_actions(Options(upgrades=True))})`" in page
    info = game_info(setup_seated_game(6, seed=0, two_robots=True), turn_cap=100)
    row = next(line for line in page.splitlines() if line.startswith("| `num_player_actions`"))
    assert row.endswith(f"| 24 | {info.num_player_actions} | 29 |")
    assert "| `robots` |" in page and "1+4, 2+5, 3+6" in page  # noqa: PT018
    assert page.count("| `") >= 9 + 10  # every field of GameInfo, every slice of the vector
    reserve = len(setup_seated_game(3, seed=0).reserve)
    assert '!!! info "OutOfGears-v0"' in page
    assert f"({reserve} with 3 robots" in page  # the bound, as a deal leaves the reserve


def test_generated_pages_are_written_into_the_docs_for_the_build_and_taken_out_after(
    tmp_path: Path,
) -> None:
    pytest.importorskip("mkdocs")  # the docs extra; .ci/run runs this file again with it
    from mkdocs.structure.files import File, Files

    import scripts.mkdocs_hooks as hooks

    docs, generated, site = tmp_path / "docs", tmp_path / "gen", tmp_path / "site"
    (docs / "guide").mkdir(parents=True)
    (docs / "guide" / "index.md").write_text("# Guide\n", encoding="utf-8")
    (generated / "spec").mkdir(parents=True)
    (generated / "spec" / "base-game.md").write_text("# Base\n", encoding="utf-8")
    files = Files(
        [
            File("guide/index.md", str(docs), str(site), use_directory_urls=True),
            File("spec/base-game.md", str(generated), str(site), use_directory_urls=True),
        ]
    )
    config = {"docs_dir": str(docs), "site_dir": str(site), "use_directory_urls": True}
    hooks.on_startup(command="build", dirty=False)
    out = hooks.on_files(files, config)
    assert (docs / "spec" / "base-game.md").read_text(encoding="utf-8") == "# Base\n"
    assert sorted(Path(f.abs_src_path).parent.parent.name for f in out) == ["docs", "docs"]
    hooks.on_post_build(config)
    assert sorted(p.relative_to(docs).as_posix() for p in docs.rglob("*")) == [
        "guide",
        "guide/index.md",
    ]
    # under `mkdocs serve` they stay: taking them out would wake the watcher
    hooks.on_startup(command="serve", dirty=False)
    hooks.on_files(
        Files([File("spec/base-game.md", str(generated), str(site), use_directory_urls=True)]),
        config,
    )
    hooks.on_post_build(config)
    assert (docs / "spec" / "base-game.md").is_file()
    hooks.on_startup(command="build", dirty=False)
    hooks._MATERIALIZED.clear()


def test_a_built_page_keeps_its_language_switch_but_not_the_heads_alternates() -> None:
    pytest.importorskip("mkdocs")  # the docs extra; .ci/run runs this file again with it
    from scripts.mkdocs_hooks import folded, without_alternate_links

    page = (
        '<head>\n    <link rel="alternate" href="./" hreflang="en">\n'
        '    <link rel="alternate" href="../../it/guide/" hreflang="it">\n</head>\n'
        '<a href="../../it/guide/" hreflang="it" class="md-select__link">Italiano</a>'
    )
    assert without_alternate_links(page) == (
        '<head>\n</head>\n<a href="../../it/guide/" hreflang="it" class="md-select__link">'
        "Italiano</a>"
    )
    assert folded("Réapprovisionnement, più") == "Reapprovisionnement, piu"


def test_every_glossary_description_has_its_italian_and_french_and_none_is_stale() -> None:
    import tomllib

    from tests.doc_pages import load_glossary_descriptions

    with (REPO_ROOT / "spec" / "terms.toml").open("rb") as file:
        meanings = {term["meaning"] for term in tomllib.load(file)["term"]}
    for lang, descriptions in load_glossary_descriptions().items():
        assert set(descriptions) == meanings, lang
        assert all(descriptions[m] != m for m in meanings), lang


def test_an_english_sentence_left_on_a_translated_page_fails_the_build_check(
    tmp_path: Path,
) -> None:
    english = "<article><p>Each robot gets its program, face down, before the activation.</p>"
    for page, text in (
        ("guide/index.html", english),
        ("it/guide/index.html", english.replace("<p>", "<p>Ogni robot riceve la sua. </p><p>")),
        ("it/reference/engine/index.html", english),  # the developers' pages stay English
        ("guide/glossary/index.html", "<article><td>Règles avancées pour 2 à 4 joueurs</td>"),
        ("fr/guide/glossary/index.html", "<article><td>Règles avancées pour 2 à 4 joueurs</td>"),
    ):
        (tmp_path / page).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / page).write_text(text + "</article>", encoding="utf-8")
    problems = [p for p in check_built_site(tmp_path, PREFIXES) if "English" in p]
    assert problems == [
        "it/guide/index.html: 1 English sentence(s) left, e.g. "
        "'Each robot gets its program, face down, before the activation.'"
    ]


def test_each_translated_example_block_says_what_its_english_block_says_and_links_alike() -> None:
    # a translation's blocks follow the English page's one for one: the same links (clauses,
    # rulings, pages), the same pictures, the same code names, in every block
    from tests.doc_pages import EXAMPLES_DIR, example_translations, prose_blocks

    def anchors(block: str) -> list[str]:
        return sorted(re.findall(r"\]\(([^)]+)\)|\]\[([^\]]+)\]|`([^`]+)`", block))

    translations = example_translations()
    pages = {name for _, name in translations}
    assert pages == {p.stem for p in example_pages()} | {"index"}
    for (lang, name), path in translations.items():
        english = prose_blocks((EXAMPLES_DIR / f"{name}.md").read_text("utf-8"))
        translated = prose_blocks(path.read_text("utf-8"))
        assert len(translated) == len(english), (lang, name)
        for ours, theirs in zip(english, translated, strict=True):
            assert anchors(ours) == anchors(theirs), (lang, name, ours[:60])
            assert theirs != ours or not re.search(r"[a-z]{3}", ours), (lang, name, ours[:60])


def test_a_translation_out_of_step_with_its_english_page_stops_the_build() -> None:
    from tests.doc_pages import translated_example

    english = "# Title\n\nOne.\n\n```pycon\n>>> x = 1\n```\n\nTwo.\n"
    assert translated_example(english, "# Titolo\n\nUno.\n\nDue.\n", "it").count("Uno.") == 1
    with pytest.raises(ValueError, match="2 prose blocks in the it translation, 3 in English"):
        translated_example(english, "# Titolo\n\nUno.\n", "it")


def test_the_search_index_lists_an_untranslated_section_once_and_keeps_every_translation() -> None:
    pytest.importorskip("mkdocs")  # the docs extra; .ci/run runs this file again with it

    from scripts.mkdocs_hooks import without_copies

    entries = [
        {"location": "spec/base-game/#atk-4", "title": "ATK-4 — T", "text": "Sources: x"},
        # the Italian page of the spec: its labels translated, its clauses' titles not
        {"location": "it/spec/base-game/#atk-4", "title": "ATK-4 — T", "text": "Fonti: x"},
        {"location": "fr/spec/base-game/#atk-4", "title": "ATK-4 — T", "text": "Sources : x"},
        {"location": "guide/#setup", "title": "Setup", "text": "a"},
        {"location": "it/guide/#preparazione", "title": "Preparazione", "text": "b"},
        # a translated page whose heading is also its English page's: kept (its own location)
        {"location": "fr/examples/jolly/", "title": "Jolly", "text": "c"},
        {"location": "examples/jolly/", "title": "Jolly gears", "text": "d"},
    ]
    kept = [entry["location"] for entry in without_copies(entries)]
    assert kept == [
        "spec/base-game/#atk-4",
        "guide/#setup",
        "it/guide/#preparazione",
        "fr/examples/jolly/",
        "examples/jolly/",
    ]
