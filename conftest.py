"""Collection settings for the whole repository: the doctests of the optional adapters run only
when their extra is installed (``outofgears[pettingzoo]``, ``outofgears[openspiel]``)."""

from __future__ import annotations

import importlib.util

collect_ignore = [
    path
    for path, module in (
        ("outofgears/play/pettingzoo.py", "pettingzoo"),
        ("outofgears/play/envs.py", "gymnasium"),
        ("outofgears/play/gym.py", "gymnasium"),
        ("outofgears/play/openspiel.py", "pyspiel"),
    )
    if importlib.util.find_spec(module) is None
]
