"""One version: ``pyproject.toml``, ``outofgears.__version__`` and the changelog's latest release."""

from __future__ import annotations

import re
import tomllib

import pytest

import outofgears
from tests.clause_map import REPO_ROOT

#: A release heading of Keep a Changelog: ``## [0.2.0] - 2026-11-23``.
RELEASE = re.compile(r"^## \[(?P<version>\d+\.\d+\.\d+)\] - (?P<date>\d{4}-\d{2}-\d{2})$", re.M)


def test_the_package_and_pyproject_give_the_same_version() -> None:
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["version"] == outofgears.__version__


def test_the_changelog_releases_the_current_version_under_an_unreleased_heading() -> None:
    text = (REPO_ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## .*$", text, re.M)
    assert headings[0] == "## [Unreleased]"
    latest = RELEASE.match(headings[1])
    assert latest is not None, headings[1]
    assert latest["version"] == outofgears.__version__
    for heading in headings[1:]:
        assert RELEASE.match(heading), f"not a release heading: {heading}"


def test_the_version_is_a_name_of_the_package_not_a_module_to_trip_on() -> None:
    # `from outofgears import version` once gave the module that holds the versions, so
    # `WrittenBy(engine=version)` failed far from the mistake: the module is private now.
    with pytest.raises(ImportError):
        from outofgears import version  # type: ignore[attr-defined]  # noqa: F401
    assert isinstance(outofgears.__version__, str)
