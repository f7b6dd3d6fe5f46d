"""Shared test configuration: hypothesis profiles.

* ``default`` -- fast and derandomized (a fixed seed), for a developer's edit-test loop and
  the README's test command: the same examples on every run and every machine.
* ``ci`` -- more examples, no deadline, still derandomized; loaded when ``CI`` is set.
* ``random`` -- a longer randomized run, to look for new failures (issue 14):
  ``HYPOTHESIS_PROFILE=random .venv/bin/python -m pytest``; it prints the seed and the blob
  of any failure so that it can be reproduced with ``@reproduce_failure``.
* ``slow``-marked tests carry their own, larger budgets; ``.ci/run`` runs them too.

No profile keeps an example database (``database=None``): a run never depends on a
``.hypothesis/`` directory left by an earlier one.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", max_examples=60, deadline=None, derandomize=True, database=None
)
settings.register_profile(
    "ci",
    max_examples=200,
    deadline=None,
    print_blob=True,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "random",
    max_examples=500,
    deadline=None,
    print_blob=True,
    derandomize=False,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "default")
)
