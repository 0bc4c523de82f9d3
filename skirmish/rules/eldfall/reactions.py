"""Which Reaction a Reactive model can make against the activated model (E-REACTION).

Pure: the geometry (line of sight, reach, Awareness) comes in as booleans, so a
game loop and the ``attack`` command ask the same question of the same function.

E-REACTION: a reactor with LoS from its front arc to the activated model may declare
any Normal Action — here an Attack back (when a weapon with Power reaches) or a Dodge
(full Agility). Without LoS it may only Dodge, only when the activated model is
within its Awareness, and with Agility halved (E-DODGE). A model with no AP
(Incapacitated, Dead, Fatigued; E-AP) cannot react at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...errors import IllegalActionError

ReactionKind = Literal["attack", "dodge", "none"]
REACTION_KINDS: tuple[ReactionKind, ...] = ("attack", "dodge", "none")

#: States that leave a model without AP, so without Reactions (E-AP).
NO_AP_STATES = frozenset({"Incapacitated", "Dead", "Fatigued"})


@dataclass(frozen=True)
class ReactionOptions:
    """What the Reactive model may do: ``attack`` back, ``dodge`` (with Agility halved
    when ``dodge_halved``), and for each refused option the reason (``why_not``)."""

    attack: bool
    dodge: bool
    dodge_halved: bool
    why_not: tuple[tuple[ReactionKind, str], ...] = ()

    @property
    def kinds(self) -> tuple[ReactionKind, ...]:
        """The Reactions it may declare, best first (attack, dodge), always ending in none."""
        out: list[ReactionKind] = []
        if self.attack:
            out.append("attack")
        if self.dodge:
            out.append("dodge")
        return (*out, "none")

    def reason(self, kind: ReactionKind) -> str:
        """Why ``kind`` is not available ("" when it is)."""
        return dict(self.why_not).get(kind, "")


def reaction_options(*, can_act: bool, has_los: bool, in_awareness: bool | None,
                     can_attack_back: bool, attack_back_why: str = "", has_agility: bool) -> ReactionOptions:
    """E-REACTION for one reactor against the activated model.

    ``can_act``: it has AP (not Incapacitated, Dead or Fatigued); ``has_los``: LoS from
    its front arc to the activated model; ``in_awareness``: the activated model is
    within its Awareness (None: no AGI); ``can_attack_back``: a weapon with Power
    reaches the activated model (``attack_back_why`` says why not);
    ``has_agility``: it has AGI to Dodge with.

    >>> reaction_options(can_act=True, has_los=False, in_awareness=True, can_attack_back=True,
    ...                  has_agility=True).kinds
    ('dodge', 'none')
    """
    why: list[tuple[ReactionKind, str]] = []
    if not can_act:
        why += [("attack", "it has no AP (Incapacitated, Dead or Fatigued, E-AP)"),
                ("dodge", "it has no AP (Incapacitated, Dead or Fatigued, E-AP)")]
        return ReactionOptions(False, False, False, tuple(why))
    attack = has_los and can_attack_back
    if not has_los:
        why.append(("attack", "no line of sight from its front arc to the attacker (E-REACTION)"))
    elif not can_attack_back:
        why.append(("attack", attack_back_why or "no weapon with Power reaches the attacker"))
    if not has_agility:
        why.append(("dodge", "it has no AGI to Dodge with"))
        dodge = False
    elif has_los:
        dodge = True
    elif in_awareness:
        dodge = True
    else:
        dodge = False
        why.append(("dodge", "no line of sight and the attacker is outside its Awareness (E-REACTION)"))
    return ReactionOptions(attack, dodge, dodge and not has_los, tuple(why))


def choose_reaction(options: ReactionOptions, requested: ReactionKind | None = None) -> ReactionKind:
    """The Reaction to resolve: ``requested`` when allowed (else :class:`IllegalActionError`
    with the reason), or by default the first of attack, dodge, none that is allowed."""
    if requested is None:
        return options.kinds[0]
    if requested not in REACTION_KINDS:
        raise IllegalActionError(f"unknown reaction {requested!r}; choose one of {', '.join(REACTION_KINDS)}")
    if requested not in options.kinds:
        raise IllegalActionError(f"the target cannot {'attack back' if requested == 'attack' else 'Dodge'}: "
                                 f"{options.reason(requested)}")
    return requested
