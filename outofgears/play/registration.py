"""The Gymnasium id of the single-agent environment, registered as soon as both ``outofgears``
and Gymnasium are imported, in either order, without ``outofgears`` importing Gymnasium.

Gymnasium 1.x has no plugin entry points: an environment is known to ``gymnasium.make`` once
some import has registered it. Importing Gymnasium takes a tenth of a second or more (and
NumPy with it), too much for every start of the command line, so ``import outofgears`` calls
:func:`register_when_gymnasium_is_imported`: if Gymnasium is already imported, the id is
registered at once; otherwise a finder waits on the import system for ``import gymnasium``
and registers the id as soon as Gymnasium has loaded, then steps aside (a mere
``importlib.util.find_spec("gymnasium")`` leaves it waiting). Without Gymnasium
installed nothing happens. The entry point is a string: ``gymnasium.make`` imports
:mod:`outofgears.play.gym` (and NumPy) only when it builds the environment.

``gymnasium.make("outofgears:outofgears/OutOfGears-v0")`` also works from a script that has
not imported ``outofgears``: Gymnasium imports the module named before the colon.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, Final, cast

if TYPE_CHECKING:  # (importlib.abc is a tenth of `import outofgears`: none of it at run time)
    from collections.abc import Sequence
    from importlib.abc import Loader
    from importlib.machinery import ModuleSpec
    from types import ModuleType

#: The environment's Gymnasium id.
ENV_ID: Final = "outofgears/OutOfGears-v0"
_ENTRY_POINT: Final = "outofgears.play.gym:OutOfGearsEnv"


def register_env() -> None:
    """Register :data:`ENV_ID` with Gymnasium (once; Gymnasium must be installed)."""
    from gymnasium.envs.registration import register, registry

    if ENV_ID not in registry:
        register(id=ENV_ID, entry_point=_ENTRY_POINT)


def register_when_gymnasium_is_imported() -> None:
    """Register :data:`ENV_ID` now if Gymnasium is imported, else when it is."""
    if "gymnasium.envs.registration" in sys.modules:
        register_env()
    elif not any(isinstance(finder, _AwaitGymnasium) for finder in sys.meta_path):
        sys.meta_path.insert(0, _AwaitGymnasium())


class _AwaitGymnasium:
    """Finds nothing itself: asked for ``gymnasium``, it hands out the spec the other finders
    give, with a loader that registers the id once Gymnasium has loaded and then takes this
    finder away (a ``find_spec`` that imports nothing leaves it waiting)."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        if fullname != "gymnasium":
            return None
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            if finder is self or find is None:
                continue
            spec: ModuleSpec | None = find(fullname, path, target)
            if spec is not None:
                if spec.loader is not None:
                    spec.loader = cast("Loader", _RegisteringLoader(spec.loader, self))
                return spec
        return None


class _RegisteringLoader:
    """Gymnasium's own loader, which registers :data:`ENV_ID` once Gymnasium has loaded."""

    def __init__(self, loader: Loader, finder: _AwaitGymnasium) -> None:
        self._loader = loader
        self._finder = finder

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self._loader.exec_module(module)
        if self._finder in sys.meta_path:
            sys.meta_path.remove(self._finder)
        register_env()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loader, name)


#: The public names of this module.
__all__ = ["ENV_ID", "register_env", "register_when_gymnasium_is_imported"]
