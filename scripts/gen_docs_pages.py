"""Pages generated when the site is built (mkdocs-gen-files runs this script).

* ``spec/*.md``: the specification documents of ``spec/``, read as they are (a document whose
  prose for players carries code, inline or in a block, outside its notes for developers stops
  the build, ``tests/site_links.py``), each clause's functions closing its note for developers,
  with a permanent anchor added to every clause and ruling heading (``### ATK-4 — ...`` gets
  ``#atk-4``) and a search boost, so that searching a clause ID finds the clause first;
* ``clause-index.md``: the clause index, from ``spec/clauses.toml``;
* ``rulebook-clauses.md``: every rulebook clause the spec cites, its one-line summary in our
  words (``spec/sources.toml``) and the spec clauses that formalise it; each spec clause shows
  its sources' summaries and its Italian and French paraphrases (``spec/paraphrases.toml``, read
  through ``outofgears.clauses``) in a box under its rule, and the clauses a table can get
  wrong an inline "for example" (``spec/for-example.toml``); ``spec/*.it.md`` and ``*.fr.md``
  are the same pages with their fixed labels in Italian and French (the clauses stay English);
* ``guide/glossary.it.md`` and ``guide/glossary.fr.md``: the glossary for the Italian and French
  site, its tables with the page's language first (``docs/guide/glossary.md`` is the source),
  the descriptions from ``docs/i18n/glossary.toml``;
* ``reference/environment.md``: the game for bots at a glance, an environment box like
  PettingZoo's, ``game_info`` for three tables and the observation's layout, computed;
* ``reference/cli.md``: the CLI reference, from the click commands (``tests/cli_reference.py``);
* ``examples/NAME.it.md`` and ``examples/NAME.fr.md``: the worked examples in Italian and French,
  the English page with its prose in the language (``docs/i18n/examples/LANG/NAME.md``) and its
  code, events and pictures as they are;
* ``examples/img/*.svg``: the pictures of the worked examples, drawn by running each page's
  code, each with its narrow twin for phones (``x-narrow.svg``); a page whose code fails stops
  the build.

Nothing here is committed: the site always shows the specification and the code as they are.
"""

from __future__ import annotations

import sys
from pathlib import Path

import mkdocs_gen_files

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from outofgears.clauses import paraphrases  # noqa: E402
from outofgears.cli.main import main as cli_main  # noqa: E402
from tests.clause_map import load_clause_map  # noqa: E402
from tests.cli_reference import cli_reference  # noqa: E402
from tests.doc_pages import (  # noqa: E402
    ANCHORED_HEADING,
    GLOSSARY_WORDS,
    SOURCES_PAGE,
    SPEC_LABELS,
    SPEC_PAGES,
    PageRun,
    clause_index,
    environment_page,
    example_pages,
    example_titles,
    example_translations,
    load_for_example,
    load_glossary_descriptions,
    load_sources,
    narrow_name,
    rulebook_clauses_page,
    run_page,
    translated_example,
    translated_glossary,
    with_clause_anchors,
    with_inline_examples,
    with_localised_labels,
    with_rulebook_boxes,
)
from tests.site_links import (  # noqa: E402
    code_in_prose,
    examples_by_clause,
    id_prefixes,
    link_targets,
    with_clause_links,
)

#: The runs of the worked examples, kept across the builds of the site's languages
#: (mkdocs-static-i18n builds once per language; this script runs each time, the module stays).
_RUNS: dict[tuple[Path, int], PageRun] = vars(sys.modules["tests.doc_pages"]).setdefault(
    "_site_runs", {}
)


def run_page_once(path: Path) -> PageRun:
    """The run of a worked example's code, made once per build of the whole site."""
    key = (path, path.stat().st_mtime_ns)
    if key not in _RUNS:
        _RUNS[key] = run_page(path)
    return _RUNS[key]


def main() -> None:
    """Write the generated pages into the site's virtual docs directory."""
    clauses = load_clause_map()
    by_id = {clause.id: clause for clause in clauses}
    prefixes = id_prefixes(link_targets(SPEC_PAGES, clauses, ANCHORED_HEADING))
    examples = examples_by_clause(example_pages(), prefixes)
    sources = load_sources()
    for_example = load_for_example()
    for page, source in SPEC_PAGES:
        markdown = (REPO_ROOT / source).read_text(encoding="utf-8")
        code = code_in_prose(markdown)
        if code:
            raise SystemExit(
                f"{source}: code in the players' prose (move it into a "
                f'`??? note "For developers"` under its clause): {", ".join(code)}'
            )
        # spec/README.md is the site's spec/index.md
        text = with_clause_links(
            with_rulebook_boxes(
                with_inline_examples(markdown.replace("](README.md)", "](index.md)"), for_example),
                paraphrases(),
                sources,
            ),
            page,
            by_id,
            examples,
            ANCHORED_HEADING,
        )
        # a reader searching a clause ID wants the clause before the code that cites it
        text = "---\nsearch:\n  boost: 4\n---\n\n" + with_clause_anchors(text)
        with mkdocs_gen_files.open(page, "w") as out:
            out.write(text)
        for lang in SPEC_LABELS:
            with mkdocs_gen_files.open(page.replace(".md", f".{lang}.md"), "w") as out:
                out.write(with_localised_labels(text, lang, example_titles(lang)))
    with mkdocs_gen_files.open("reference/cli.md", "w") as out:
        out.write(cli_reference(cli_main))
    with mkdocs_gen_files.open("reference/environment.md", "w") as out:
        out.write(environment_page())
    with mkdocs_gen_files.open("clause-index.md", "w") as out:
        out.write(clause_index(clauses, examples))
    with mkdocs_gen_files.open(SOURCES_PAGE, "w") as out:
        out.write(rulebook_clauses_page(sources, clauses))
    glossary = (REPO_ROOT / "docs" / "guide" / "glossary.md").read_text(encoding="utf-8")
    descriptions = load_glossary_descriptions()
    for lang in GLOSSARY_WORDS:
        with mkdocs_gen_files.open(f"guide/glossary.{lang}.md", "w") as out:
            out.write(translated_glossary(glossary, lang, descriptions[lang]))
    for path in example_pages():
        run = run_page_once(path)
        if run.failures:
            raise SystemExit(f"the code of {path.name} does not hold:\n{run.report}")
        for name, svg in sorted(run.pictures.items()):
            with mkdocs_gen_files.open(f"examples/img/{name}.svg", "w") as out:
                out.write(svg)
        for name, svg in sorted(run.narrow.items()):
            with mkdocs_gen_files.open(f"examples/img/{narrow_name(name)}.svg", "w") as out:
                out.write(svg)
    for (lang, name), path in example_translations().items():
        english = (REPO_ROOT / "docs" / "examples" / f"{name}.md").read_text(encoding="utf-8")
        with mkdocs_gen_files.open(f"examples/{name}.{lang}.md", "w") as out:
            out.write(translated_example(english, path.read_text(encoding="utf-8"), lang))


main()
