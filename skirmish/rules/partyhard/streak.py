"""Streaks of one element within a side's turn (P-STREAK)."""

from __future__ import annotations

from dataclasses import dataclass

from .elements import Element


@dataclass(frozen=True)
class Streak:
    """The run of same-element attacks a side has made this turn.

    The next attack of ``element`` is the ``count + 1``-th and deals ``count`` more
    (2nd +1, 3rd +2, ...). An attack of another element starts a new run; any other
    ability of another element breaks it; actions without an element leave it.

    >>> s = Streak().after_attack(Element.VOID).after_attack(Element.VOID)
    >>> s.position(Element.VOID), s.bonus(Element.VOID), s.bonus(Element.MATTER)
    (3, 2, 0)
    >>> s.after_attack(Element.MATTER).bonus(Element.VOID)
    0
    """

    element: Element | None = None
    count: int = 0

    def position(self, element: Element | None) -> int:
        """Which attack in the run an attack of ``element`` would be (1 = the first)."""
        return self.count + 1 if (element is not None and element == self.element) else 1

    def bonus(self, element: Element | None) -> int:
        return self.position(element) - 1

    def after_attack(self, element: Element | None) -> Streak:
        if element is None:
            return self
        return Streak(element, self.position(element))

    def after_ability(self, element: Element | None) -> Streak:
        """A non-damaging ability: one of another element breaks the run."""
        if element is None or element == self.element:
            return self
        return Streak()
