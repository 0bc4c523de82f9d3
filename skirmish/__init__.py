"""skirmish: a continuous-space engine for miniatures skirmish games.

>>> import skirmish
>>> table = skirmish.load("scenarios/first-steps.toml")
>>> round(table.distance("akane", "brute"), 3)
5.0
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._api import *  # noqa: F403
    from ._api import __all__  # noqa: F401

__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    """The library's names (:mod:`._api`, and its subpackages) are imported at the first
    use of one: the command line imports only what the command it runs needs, and starts
    quicker."""
    _api = import_module(f"{__name__}._api")  # (not `from . import`: that asks this hook for _api)
    if name == "__all__" or name in _api.__all__:
        return getattr(_api, name)
    try:  # (a subpackage: imported with the names)
        return globals()[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


def __dir__() -> list[str]:
    _api = import_module(f"{__name__}._api")
    return sorted({*globals(), *_api.__all__})
