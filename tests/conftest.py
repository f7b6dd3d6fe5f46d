"""Shared test configuration: hypothesis profiles.

* ``default`` -- fast, for a developer's edit-test loop.
* ``ci`` -- more examples, no deadline; loaded when the ``CI`` variable is set.
* ``slow``-marked tests carry their own, larger budgets; ``.ci/run`` runs them too.

The engine: every turn the suite plays runs both the fast path and the reference pipeline
and fails on any difference (``use_engine("checked")``). ``OUTOFGEARS_ENGINE=reference``
runs the reference alone, which is what mutation testing of the rules modules needs;
``OUTOFGEARS_ENGINE=fast`` the fast path alone.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

from outofgears.turn import use_engine

use_engine(os.environ.get("OUTOFGEARS_ENGINE", "checked"))  # type: ignore[arg-type]

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
