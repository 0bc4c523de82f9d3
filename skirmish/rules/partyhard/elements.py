"""The three elements of Party Hard and how they meet (P-DMG).

Matter and Void are opposites: an attack deals +1 against the opposite element and
−1 against its own. Ether neither gains nor loses, whether it attacks or defends.
"""

from __future__ import annotations

from enum import Enum

from ...errors import RuleInputError


class Element(str, Enum):
    """Matter (red), Ether (blue), Void (purple)."""

    MATTER = "matter"
    ETHER = "ether"
    VOID = "void"

    def __str__(self) -> str:
        return self.value

    @property
    def opposite(self) -> Element | None:
        """Matter <-> Void; Ether has no opposite."""
        return _OPPOSITE.get(self)


_OPPOSITE = {Element.MATTER: Element.VOID, Element.VOID: Element.MATTER}
ELEMENTS: tuple[str, ...] = tuple(e.value for e in Element)


def parse_element(text: object) -> Element:
    """An element from its name (case-insensitive): ``matter``, ``ether`` or ``void``.

    >>> parse_element("Void")
    <Element.VOID: 'void'>
    """
    if isinstance(text, Element):
        return text
    if isinstance(text, str):
        try:
            return Element(text.strip().lower())
        except ValueError:
            pass
    raise RuleInputError(f"expected an element: one of {', '.join(ELEMENTS)}, got {text!r}")


def relation(attack: Element | None, defense: Element | None, *,
             powerless: bool = False, nonresistance: bool = False) -> int:
    """P-DMG element relation: +1 against the opposite element, −1 against the same
    one, 0 where Ether (or no element) is involved.

    P-EFFECT: a Powerless attacker gets no +1; a target with Non-resistance gets no −1.

    >>> relation(Element.VOID, Element.MATTER), relation(Element.VOID, Element.VOID)
    (1, -1)
    >>> relation(Element.ETHER, Element.MATTER), relation(Element.MATTER, None)
    (0, 0)
    >>> relation(Element.VOID, Element.MATTER, powerless=True)
    0
    """
    if attack is None or defense is None or Element.ETHER in (attack, defense):
        return 0
    if attack == defense:
        return 0 if nonresistance else -1
    return 0 if powerless else 1
