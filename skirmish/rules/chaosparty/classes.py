"""Classes and dice (C-CLASS, C-EXACT): how many potential tokens give which die.

>>> [potential_class(p) for p in range(7)]
[0, 1, 1, 2, 2, 3, 3]
>>> class_die(2), roll_die(2, raised=True)
(8, 10)
"""

from __future__ import annotations

from ...errors import RuleInputError

#: C-EXACT: the die ladder; class c rolls DICE[c], *raise* takes the next one.
DICE = (4, 6, 8, 10, 12, 20)
#: C-BUILD: at most this many tokens of one colour (lifted by the Unlimited variant).
COLOUR_CAP = 6
#: C-TURN Unlimited: class 4 is the top class (potential 7-8; more is still class 4).
TOP_CLASS = 4


def potential_class(potential: int, unlimited: bool = False) -> int:
    """C-CLASS: 0 → 0, 1–2 → 1, 3–4 → 2, 5–6 → 3; with Unlimited, 7 and more → 4."""
    if potential < 0:
        raise RuleInputError(f"potential {potential}: a token count is 0 or more")
    if potential > COLOUR_CAP and not unlimited:
        raise RuleInputError(f"potential {potential}: more than {COLOUR_CAP} tokens of one colour needs the "
                             "Unlimited variant (C-BUILD, C-TURN)")
    return min((potential + 1) // 2, TOP_CLASS)


def class_die(cls: int) -> int:
    """The die of class ``cls`` (d4 for class 0 up to d12 for class 4)."""
    if not 0 <= cls <= TOP_CLASS:
        raise RuleInputError(f"class {cls}: classes run from 0 to {TOP_CLASS}")
    return DICE[cls]


def roll_die(cls: int, *, raised: bool = False, advantage: bool = False, who: str = "attack") -> int:
    """The die a class rolls: one step up the ladder for *raise* (C-ATTACK, C-DEFENCE) and
    one for Superiority's advantage (C-TURN). Class 0 takes no step: raising it is
    refused, and the advantage gives it nothing (its d4 stands in for the class)."""
    steps = 0
    if raised:
        if cls == 0:
            raise RuleInputError(f"{who}: class 0 cannot be raised (C-ATTACK: its d4 stands in for the class); "
                                 "drop the raise boost or add potential")
        steps += 1
    if advantage and cls > 0:
        steps += 1
    if cls + steps >= len(DICE):
        raise RuleInputError(f"{who}: class {cls} with {steps} step(s) up would roll past d{DICE[-1]}, the largest die; "
                             "drop the raise boost")
    class_die(cls)
    return DICE[cls + steps]
