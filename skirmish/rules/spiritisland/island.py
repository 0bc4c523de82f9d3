"""The island: lands joined by borders, the pieces on each, and the counters of the
game (S-ISLAND, S-PIECES, S-FEAR, S-BLIGHT). Immutable values; every rule step in
this package takes an :class:`Island` and returns a new one.
"""

from __future__ import annotations

import difflib
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from ...errors import SkirmishError, UnknownIdError

#: S-ISLAND: the four terrains.
TERRAINS = ("mountain", "wetland", "sands", "jungle")
#: S-PIECES: the invaders, weakest first, with their damage (= health).
INVADERS: dict[str, int] = {"explorers": 1, "towns": 2, "cities": 3}
DAHAN_HEALTH = 2
#: Every counted piece of a land, in the order the format lists them.
PIECES = ("explorers", "towns", "cities", "dahan", "blight")
#: S-PRESENCE: this much presence of one spirit in a land makes a sacred site.
SACRED_SITE = 2
#: S-FEAR thresholds.
FEAR_PER_EFFECT = 16
FEAR_PER_TERROR = 48
FEAR_VICTORY = 146
#: S-BLIGHT defaults.
BLIGHTED_AT = 13
DEFEAT_AT = 30
ROUNDS = 12


def _counts(value: Mapping[str, int] | Iterable[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
    items = value.items() if isinstance(value, Mapping) else value
    return tuple((k, int(v)) for k, v in items if v)


@dataclass(frozen=True)
class Land:
    """One region of the island and what stands in it.

    ``neighbours`` are the regions across a border (symmetric on an :class:`Island`);
    ``presence`` holds each spirit's presence as ``(spirit, count)`` pairs (zeros
    dropped); ``ravage`` and ``build`` are the markers: the invaders ravage here this
    round (they built here last round) and build here (they explored here last round).
    ``at`` is an optional drawing position.
    """

    id: str
    terrain: str
    coastal: bool = False
    neighbours: tuple[str, ...] = ()
    explorers: int = 0
    towns: int = 0
    cities: int = 0
    dahan: int = 0
    blight: int = 0
    presence: tuple[tuple[str, int], ...] = ()
    ravage: bool = False
    build: bool = False
    at: tuple[float, float] | None = None

    def __post_init__(self) -> None:
        if self.terrain not in TERRAINS:
            raise SkirmishError(f"land {self.id!r}: unknown terrain {self.terrain!r} (one of {', '.join(TERRAINS)})")
        for k in PIECES:
            if getattr(self, k) < 0:
                raise SkirmishError(f"land {self.id!r}: {k} cannot be negative, got {getattr(self, k)}")
        object.__setattr__(self, "neighbours", tuple(self.neighbours))
        object.__setattr__(self, "presence", _counts(self.presence))
        if any(v < 0 for _, v in self.presence):
            raise SkirmishError(f"land {self.id!r}: presence cannot be negative")

    def __repr__(self) -> str:
        pieces = " ".join(f"{k}={getattr(self, k)}" for k in PIECES if getattr(self, k))
        pres = " ".join(f"{s}:{n}" for s, n in self.presence)
        marks = "".join(m for m, on in ((" ravage", self.ravage), (" build", self.build)) if on)
        return (f"Land({self.id!r} {self.terrain}{' coastal' if self.coastal else ''}"
                f"{' ' + pieces if pieces else ''}{' presence ' + pres if pres else ''}{marks})")

    @property
    def invaders(self) -> int:
        return self.explorers + self.towns + self.cities

    @property
    def damage(self) -> int:
        """S-RAVAGE: 1 per explorer, 2 per town, 3 per city."""
        return sum(getattr(self, k) * d for k, d in INVADERS.items())

    def presence_of(self, spirit: str) -> int:
        return dict(self.presence).get(spirit, 0)

    def sacred_site(self, spirit: str) -> bool:
        return self.presence_of(spirit) >= SACRED_SITE

    def with_presence(self, spirit: str, count: int) -> Land:
        p = dict(self.presence)
        p[spirit] = count
        return replace(self, presence=_counts(p))

    def pieces(self) -> dict[str, int]:
        return {k: getattr(self, k) for k in PIECES}

    def to_json(self) -> dict[str, Any]:
        """The ``island invade --json`` shape of one region."""
        return {**{k: getattr(self, k) for k in PIECES}, "presence": dict(self.presence),
                "ravage": self.ravage, "build": self.build}


@dataclass(frozen=True)
class Island:
    """The lands and the game's counters (S-FEAR, S-BLIGHT, S-ROUND).

    ``explore`` is the invaders' explore order: per round, the terrain(s) explored.
    ``spirits`` are every spirit in the game (a spirit whose presence is all gone
    loses, S-BLIGHT). ``energy`` and ``range`` drive the simple spirit powers of
    :mod:`.spirits`.
    """

    lands: tuple[Land, ...]
    explore: tuple[tuple[str, ...], ...] = ()
    fear: int = 0
    fear_effects: int = 0
    blighted: bool = False
    blighted_at: int = BLIGHTED_AT
    defeat_at: int = DEFEAT_AT
    spirits: tuple[str, ...] = ()
    energy: int = 2
    range: int = 1
    round: int = 1
    spirit_energy: tuple[tuple[str, int], ...] = field(default=())

    def __post_init__(self) -> None:
        object.__setattr__(self, "lands", tuple(self.lands))
        ids = [land.id for land in self.lands]
        if len(set(ids)) != len(ids):
            dup = next(i for i in ids if ids.count(i) > 1)
            raise SkirmishError(f"two regions with id {dup!r}")
        known = set(ids)
        for land in self.lands:
            for n in land.neighbours:
                if n not in known:
                    raise SkirmishError(f"region {land.id!r} borders {n!r}, which is not a region")
                if n == land.id:
                    raise SkirmishError(f"region {land.id!r} borders itself")
                if land.id not in self._by_id[n].neighbours:
                    raise SkirmishError(f"the border {land.id!r}-{n!r} is named on one side only; use island() "
                                        "to make borders symmetric")
        spirits = dict.fromkeys(self.spirits)
        for land in self.lands:
            spirits.update(dict.fromkeys(s for s, _ in land.presence))
        object.__setattr__(self, "spirits", tuple(spirits))

    def __repr__(self) -> str:
        return (f"Island({len(self.lands)} lands, round {self.round}, fear {self.fear}, blight {self.blight}"
                f"{' (blighted)' if self.blighted else ''})")

    # -- lands ------------------------------------------------------------------------------
    @cached_property
    def _by_id(self) -> dict[str, Land]:
        return {land.id: land for land in self.lands}

    @cached_property
    def _index(self) -> dict[str, int]:
        return {land.id: i for i, land in enumerate(self.lands)}

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(land.id for land in self.lands)

    def has(self, region: str) -> bool:
        return region in self._by_id

    def land(self, region: str) -> Land:
        try:
            return self._by_id[region]
        except KeyError:
            close = difflib.get_close_matches(str(region), list(self._by_id), n=3)
            hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
            raise UnknownIdError(f"no region with id {region!r}{hint}") from None

    def with_lands(self, changed: Iterable[Land]) -> Island:
        """A copy with some lands replaced (by id)."""
        new = {land.id: land for land in changed}
        return replace(self, lands=tuple(new.get(land.id, land) for land in self.lands))

    def borders(self) -> tuple[tuple[str, str], ...]:
        """Each border once, as ``(a, b)`` in land order."""
        idx = self._index
        return tuple((land.id, n) for land in self.lands for n in land.neighbours if idx[land.id] < idx[n])

    # -- S-ISLAND: distance -----------------------------------------------------------------------
    @cached_property
    def _bfs_cache(self) -> dict[str, dict[str, int]]:
        return {}

    def distances_from(self, region: str) -> dict[str, int]:
        """Fewest region steps from ``region`` to every land it connects to (breadth-first; kept)."""
        out = self._bfs_cache.get(region)
        if out is None:
            self.land(region)
            out = {region: 0}
            queue = deque([region])
            while queue:
                cur = queue.popleft()
                for nb in self._by_id[cur].neighbours:
                    if nb not in out:
                        out[nb] = out[cur] + 1
                        queue.append(nb)
            self._bfs_cache[region] = out
        return out

    def steps(self, a: str, b: str) -> float:
        """S-ISLAND: fewest region steps from ``a`` to ``b`` (adjacent = 1; ``inf`` if unconnected)."""
        self.land(b)
        return float(self.distances_from(a).get(b, float("inf")))

    def path(self, a: str, b: str) -> tuple[str, ...]:
        """A shortest chain of regions from ``a`` to ``b`` (both included; neighbours tried in order)."""
        to_b = self.distances_from(b)
        if a not in to_b:
            self.land(a)
            raise SkirmishError(f"no chain of borders joins region {a!r} to {b!r}")
        out = [a]
        while out[-1] != b:
            out.append(min(self._by_id[out[-1]].neighbours, key=lambda n: to_b.get(n, float("inf"))))
        return tuple(out)

    def within(self, region: str, steps: int) -> tuple[str, ...]:
        """Lands within ``steps`` of ``region``, in land order."""
        d = self.distances_from(region)
        return tuple(i for i in self.ids if d.get(i, steps + 1) <= steps)

    # -- counters -------------------------------------------------------------------------------------
    @property
    def blight(self) -> int:
        """S-BLIGHT: the blight on the island (it starts at 4, one in each of four regions)."""
        return sum(land.blight for land in self.lands)

    @property
    def terror(self) -> int:
        """S-FEAR: the terror level, 0 at the start, +1 for each 48 fear (at most 2)."""
        return min(2, self.fear // FEAR_PER_TERROR)

    def presence(self, spirit: str) -> int:
        return sum(land.presence_of(spirit) for land in self.lands)

    def energy_of(self, spirit: str) -> int:
        return dict(self.spirit_energy).get(spirit, 0)

    def explore_for(self, round_: int) -> tuple[str, ...]:
        """The terrain(s) the invaders explore in round ``round_`` (1-based), from the explore order."""
        if not 1 <= round_ <= len(self.explore):
            raise SkirmishError(f"the explore order has {len(self.explore)} entr{'y' if len(self.explore) == 1 else 'ies'};"
                                f" round {round_} has none (add it to [island] explore = [...])")
        return self.explore[round_ - 1]

    def to_json(self) -> dict[str, Any]:
        return {"regions": {land.id: land.to_json() for land in self.lands}, "fear": self.fear,
                "blight": self.blight, "terror": self.terror, "blighted": self.blighted, "round": self.round}


def island(lands: Iterable[Land], **counters: Any) -> Island:
    """An :class:`Island` from lands whose borders may be named on one side only:
    every border is made symmetric (neighbours keep the order first named)."""
    lands = list(lands)
    nbrs: dict[str, dict[str, None]] = {land.id: dict.fromkeys(land.neighbours) for land in lands}
    for land in lands:
        for n in land.neighbours:
            if n in nbrs and n != land.id:
                nbrs[n].setdefault(land.id)
    return Island(tuple(replace(land, neighbours=tuple(nbrs[land.id])) for land in lands), **counters)
