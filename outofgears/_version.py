"""The versions: of this engine (the package) and of the specification in ``spec/`` that it
implements. Both are re-exported by :mod:`outofgears`; modules inside the package import them
from here, so that no layer imports the package's top."""

from __future__ import annotations

#: The version of the package (``pyproject.toml`` says the same; a test checks it).
__version__ = "0.2.0"

#: The version of the specification in spec/ that this engine implements.
SPEC_VERSION = "1.4"
