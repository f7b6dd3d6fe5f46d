"""Shared test configuration: hypothesis profiles.

* ``default`` -- fast, for a developer's edit-test loop.
* ``ci`` -- more examples, no deadline; loaded when the ``CI`` variable is set.
* ``slow``-marked tests carry their own, larger budgets; ``.ci/run`` runs them too.

"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("default", max_examples=60, deadline=None)
settings.register_profile(
    "ci",
    max_examples=200,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "default")
)
