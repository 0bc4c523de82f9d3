"""The ``Policy`` protocol shared by every game, and the registry of built-in policies.

A game never lets a player act directly. At each choice it builds a
:class:`Decision`: what is being decided (``kind``), who decides (``actor``) and the
legal ``options`` the game found. A policy returns one choice. Where the choice is
continuous (a destination on the table), ``options`` is a sample and ``open`` is
true: a policy may return something else, and the game checks it with its own rule
checker and refuses an illegal one with :class:`~skirmish.errors.IllegalActionError`.

The ``rng`` a policy is handed is the policies' own (:func:`policy_rng`), never the
game's dice: a policy that draws numbers leaves the rolls as they were.

Policies are looked up by ``(game, name)``: ``register_policy("eldfall", "greedy")``.
Users plug their own as ``package.module:ClassName`` (the class is called with no
arguments and must have a ``choose`` method).
"""

from __future__ import annotations

import difflib
import importlib
import os
import random
import sys
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from ..errors import IllegalActionError, SkirmishError

C = TypeVar("C")


class PolicyError(SkirmishError, ValueError):
    """A policy name or ``module:Class`` spec that cannot be used."""


class PolicyFailed(PolicyError):
    """A plugged-in policy raised while choosing: the message names its spec, the decision
    and the exception, which is the ``__cause__``; ``policy_traceback`` is where it
    failed in the policy's own code (the traceback without this package's frames: text,
    so that it crosses process boundaries with the error)."""

    kind = "policy_failed"
    policy_traceback: str = ""


@dataclass(frozen=True)
class Decision(Generic[C]):
    """One choice a game asks of a player.

    ``kind`` names the question (``"activate"``, ``"move"``, ``"action"``,
    ``"reaction"``, ``"field"``, ``"loot"``, ...; each game documents its kinds),
    ``actor`` who answers it (a model, character or player id), ``options`` the legal
    answers the game found, ``open`` whether answers outside ``options`` may be legal
    too (checked by the game), and ``context`` any extra facts the game shares.
    """

    kind: str
    actor: str | None
    options: tuple[C, ...]
    open: bool = False
    context: Mapping[str, Any] | None = None

    def __repr__(self) -> str:
        more = ", open" if self.open else ""
        return f"Decision({self.kind!r}, actor={self.actor!r}, {len(self.options)} options{more})"


@runtime_checkable
class Policy(Protocol):
    """Chooses for one side (or player) in any game."""

    def choose(self, game: Any, decision: Decision[Any], rng: random.Random) -> Any:
        """One answer to ``decision`` given the game's current state ``game``."""
        ...


def ask(policy: Policy, game: Any, decision: Decision[Any], rng: random.Random, *, who: str | None = None,
        refuse: Callable[[str, Any], Exception] | None = None) -> Any:
    """``policy``'s answer to ``decision``, checked: a closed decision's answer must be one
    of its options, else :class:`~skirmish.errors.IllegalActionError` naming who answered
    what to which decision, with the options (never applied); ``refuse(reason, choice)``
    makes a game's own refusal instead. An open decision's answer is the game's to check."""
    choice = policy.choose(game, decision, rng)
    if not decision.open and choice not in decision.options:
        opts = decision.options
        shown = ", ".join(map(repr, opts[:6])) + (", ..." if len(opts) > 6 else "")
        reason = f"{decision.kind}: not one of its {len(opts)} legal options ({shown})"
        if refuse is not None:
            raise refuse(reason, choice)
        raise IllegalActionError(f"{who or decision.actor}'s policy answered {choice!r} to {reason}")
    return choice


@dataclass(frozen=True)
class RandomPolicy:
    """A uniformly random legal choice among the options the game offers."""

    name: str = "random"

    def choose(self, game: Any, decision: Decision[Any], rng: random.Random) -> Any:
        if not decision.options:
            raise PolicyError(f"random policy: decision {decision.kind!r} for {decision.actor!r} has no options")
        return decision.options[rng.randrange(len(decision.options))]


class PluggedPolicy:
    """A user's policy loaded from its ``package.module:ClassName`` spec: its ``choose``
    answers as it is, and an exception from it becomes :class:`PolicyFailed`, naming the
    spec and the decision (the game stops; nothing of the failed choice is applied). Its
    other attributes (``lazy``, its own state) read through."""

    def __init__(self, policy: Any, spec: str) -> None:
        self.policy, self.spec = policy, spec

    def choose(self, game: Any, decision: Decision[Any], rng: random.Random) -> Any:
        try:
            return self.policy.choose(game, decision, rng)
        except Exception as exc:
            who = f" for {decision.actor}" if decision.actor is not None else ""
            failed = PolicyFailed(f"policy {self.spec!r} failed on the {decision.kind!r} decision{who}: "
                                  f"{type(exc).__name__}: {exc}")
            failed.policy_traceback = _own_frames(exc)
            raise failed from exc

    def __getattr__(self, name: str) -> Any:
        if name in ("policy", "spec"):  # (not set yet: while unpickling)
            raise AttributeError(name)
        return getattr(self.policy, name)

    def __repr__(self) -> str:
        return f"PluggedPolicy({self.spec!r})"


def _own_frames(exc: BaseException) -> str:
    """``exc``'s traceback without the frames of this package (a policy's own code)."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if not os.path.abspath(f.filename).startswith(package + os.sep)]
    return "".join(traceback.format_list(frames)) + "".join(traceback.format_exception_only(type(exc), exc))


def policy_rng(dice: random.Random) -> random.Random:
    """The generator a game hands its policies, apart from its dice: seeded from the dice
    generator's state without drawing from it, so a policy that draws numbers (or none)
    never moves the dice: two policies compared on one seed meet the same rolls, and a
    game whose policies draw nothing rolls as before."""
    return random.Random(str(dice.getstate()[1]))  # (a str seed: the same generator on every build)


PolicyFactory = Callable[[], Policy]
_REGISTRY: dict[tuple[str, str], PolicyFactory] = {}


def register_policy(game: str, name: str, factory: PolicyFactory) -> None:
    """Make ``name`` a built-in policy of ``game`` (``"*"``: of every game)."""
    _REGISTRY[(game, name)] = factory


register_policy("*", "random", RandomPolicy)


#: The module whose import registers each game's built-in policies (imported when the
#: game's policies are first looked up, so a name never depends on what was imported before).
_GAME_MODULES = {"eldfall": "skirmish.game.eldfall", "partyhard": "skirmish.game.partyhard",
                 "chaosparty": "skirmish.game.chaosparty", "spiritisland": "skirmish.rules.spiritisland.spirits",
                 "implant": "skirmish.rules.implant.policy"}


def _registered(game: str) -> None:
    module = _GAME_MODULES.get(game)
    if module is not None and module not in sys.modules:
        importlib.import_module(module)


def policy_names(game: str) -> list[str]:
    """The built-in policy names of ``game``, sorted."""
    _registered(game)
    return sorted({n for (g, n) in _REGISTRY if g in (game, "*")})


def load_policy(spec: str, game: str) -> Policy:
    """A policy from a built-in name or a ``package.module:ClassName`` spec."""
    spec = spec.strip()
    if ":" in spec:
        module_name, _, attr = (p.strip() for p in spec.partition(":"))
        if not module_name or not attr:
            raise PolicyError(f"policy {spec!r}: give it as package.module:ClassName")
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            raise PolicyError(f"policy {spec!r}: cannot import module {module_name!r} ({exc}); "
                              "check the name and that it is on PYTHONPATH") from None
        except SyntaxError as exc:
            raise PolicyError(f"policy {spec!r}: module {module_name!r} does not compile: {exc.msg} "
                              f"({exc.filename}, line {exc.lineno})") from None
        except Exception as exc:  # (its own code failed as it was imported)
            raise PolicyError(f"policy {spec!r}: importing module {module_name!r} failed: "
                              f"{type(exc).__name__}: {exc}") from None
        cls = getattr(module, attr, None)
        if cls is None:
            raise PolicyError(f"policy {spec!r}: module {module_name!r} has no attribute {attr!r}")
        if not callable(cls):
            raise PolicyError(f"policy {spec!r}: {attr} is a {type(cls).__name__}, not a class; name a policy class "
                              "(one with choose(game, decision, rng))")
        try:
            policy = cls()
        except TypeError as exc:
            raise PolicyError(f"policy {spec!r}: {attr}() cannot be made without arguments ({exc}); a policy "
                              "class is built with none") from None
        if not callable(getattr(policy, "choose", None)):
            raise PolicyError(f"policy {spec!r}: {attr} has no choose(game, decision, rng) method")
        return PluggedPolicy(policy, spec)
    _registered(game)
    factory = _REGISTRY.get((game, spec)) or _REGISTRY.get(("*", spec))
    if factory is None:
        known = policy_names(game)
        close = difflib.get_close_matches(spec, known, n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise PolicyError(f"unknown policy {spec!r} for {game}; {hint}built in: {', '.join(known)}, "
                          "or package.module:ClassName")
    return factory()


def parse_policy_specs(text: str | None, sides: Sequence[str], game: str,
                       default: str = "random") -> dict[str, Policy]:
    """Policies per side from ``"red=greedy,blue=random"``; a bare name is the policy of
    every side not named (``"greedy,blue=random"``: red greedy). A side named twice, or two
    bare names, is refused."""
    named: dict[str, str] = {}
    bare: str | None = None
    for part in (p.strip() for p in (text or "").split(",")):
        if not part:
            continue
        if "=" not in part:
            if bare is not None:
                raise PolicyError(f"--policy {text!r}: two policies for every side ({bare!r} and {part!r}); "
                                  "give one, and side=name for the others")
            bare = part
            continue
        side, _, name = (p.strip() for p in part.partition("="))
        if side not in sides:
            raise PolicyError(f"--policy {text!r}: no side {side!r}; the sides are {', '.join(sides)}")
        if side in named:
            raise PolicyError(f"--policy {text!r}: side {side!r} is given twice ({named[side]!r} and {name!r})")
        named[side] = name
    chosen = {s: named.get(s, bare or default) for s in sides}
    return {s: load_policy(n, game) for s, n in chosen.items()}
