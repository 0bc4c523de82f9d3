"""The ``[game]`` settings of a scenario and the attributes a game of Eldfall needs.

```toml
[game]
rounds = 5                      # E-ROUND (default 5)
first = "red"                   # the side Active first in every round (default: E-SETUP initiative roll)
vp_cap = 10                     # E-ROUND: more VP wins, capped at 10
vp = { brute = 3 }              # VP scored by taking a model out (default 1, E-ROUND without costs)
leaders = { red = "akane" }     # a Leader scores +1 VP (E-ROUND) and gives its Morale to initiative
zone_depth = 8                  # E-DEPLOY strip depth (inches)
zones = { red = "south", blue = [0, 28, 36, 36] }  # E-DEPLOY zones: an edge's strip or [x0, y0, x1, y1]
reroll = 1                      # E-ROLL-REROLL: every attack and Dodge may reroll up to k dice (REROLL=k)
```
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...errors import ScenarioError, UnitError
from ...maps.pieces import Model
from ...maps.table import Table
from ...rules.eldfall.rerolls import MAX_LOOKAHEAD_ROLLS, most_lookahead_rolls
from ...rules.eldfall.weapons import BUILTIN_WEAPONS, Weapon
from ...units import length
from .deploy import edge_zone

#: Attributes every model needs to be played (E-AP: STA; E-MOVE-KIND: SPD; E-WOUND: HP).
REQUIRED_ATTRIBUTES = ("STA", "SPD", "HP")
#: The Power given to the built-in weapons by :func:`with_builtin_power` (the values
#: scenarios/mill-ambush.toml declares; the rules give the built-ins none).
BUILTIN_POWER: Mapping[str, int] = {"sword": 10, "short-bow": 9}
KEYS = ("rounds", "first", "vp_cap", "vp", "leaders", "zone_depth", "zones", "reroll")
EDGES = ("south", "north", "west", "east")


@dataclass(frozen=True)
class GameSettings:
    """How a game is played: rounds, VP, Leaders, the first side, deployment depth and
    zones (per side: an edge name or a rectangle; empty: the second side chooses an
    edge), and the rerolls every attack and Dodge may make (E-ROLL-REROLL, 0: none)."""

    rounds: int = 5
    first: str | None = None
    vp_cap: int = 10
    vp: Mapping[str, int] = field(default_factory=dict, hash=False)
    leaders: Mapping[str, str] = field(default_factory=dict, hash=False)
    zone_depth: float = 8.0
    zones: Mapping[str, str | tuple[float, float, float, float]] = field(default_factory=dict, hash=False)
    reroll: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "vp", dict(self.vp))
        object.__setattr__(self, "leaders", dict(self.leaders))
        object.__setattr__(self, "zones", dict(self.zones))

    def model_vp(self, model_id: str) -> int:
        """VP the enemy scores when this model is Incapacitated or Dead (E-ROUND)."""
        base = self.vp.get(model_id, 1)
        return base + (1 if model_id in self.leaders.values() else 0)


def parse_settings(raw: Any, table: Table, source: str = "<scenario>") -> GameSettings:
    """Read a ``[game]`` table (None: the defaults) and check it against ``table``."""
    if raw is None:
        return GameSettings()
    where = f"{source}: [game]"
    models = {m.id: m for m in table.all_models()}
    sides = table.all_sides()
    if not isinstance(raw, dict):
        raise ScenarioError(f"{where}: expected a table of settings, got {raw!r}")
    unknown = sorted(set(raw) - set(KEYS))
    if unknown:
        raise ScenarioError(f"{where}: unknown key {unknown[0]!r}; known keys: {', '.join(KEYS)}")

    def whole(key: str, default: int, low: int) -> int:
        v = raw.get(key, default)
        if isinstance(v, bool) or not isinstance(v, int) or v < low:
            raise ScenarioError(f"{where}: {key} must be a whole number ≥ {low}, got {v!r}")
        return v

    rounds = whole("rounds", 5, 1)
    vp_cap = whole("vp_cap", 10, 1)
    first = raw.get("first")
    if first is not None and first not in sides:
        raise ScenarioError(f"{where}: first = {first!r} is not a side; the sides are {', '.join(sides)}")
    vp = raw.get("vp", {})
    if not isinstance(vp, dict):
        raise ScenarioError(f"{where}: vp must be a table {{model = points}}, got {vp!r}")
    for k, v in vp.items():
        if k not in models:
            raise ScenarioError(f"{where}: vp names {k!r}, which is no model on the table")
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ScenarioError(f"{where}: vp.{k} must be a whole number ≥ 0, got {v!r}")
    leaders = raw.get("leaders", {})
    if not isinstance(leaders, dict):
        raise ScenarioError(f"{where}: leaders must be a table {{side = model}}, got {leaders!r}")
    for s, m in leaders.items():
        if s not in sides or m not in models or models[m].side != s:
            raise ScenarioError(f"{where}: leaders.{s} = {m!r} must name a model of side {s!r}")
    try:
        depth = length(raw.get("zone_depth", 8.0))
    except UnitError as e:
        raise ScenarioError(f"{where}: zone_depth: {e}") from None
    if not depth > 0:
        raise ScenarioError(f"{where}: zone_depth must be a length above 0, got {raw.get('zone_depth')!r}")
    zones = raw.get("zones", {})
    if not isinstance(zones, dict) or (zones and set(zones) != set(sides)):
        raise ScenarioError(f"{where}: zones must name every side ({', '.join(sides)}) with an edge "
                            f"({', '.join(EDGES)}) or a rectangle [x0, y0, x1, y1], got {zones!r}")
    rects = {s: _zone(s, z, table, depth, where) for s, z in zones.items()}
    _check_zones(rects, zones, table, depth, where)
    reroll = whole("reroll", 0, 0)
    _check_reroll(reroll, table, where)
    return GameSettings(rounds, first, vp_cap, vp, leaders, depth,
                        {s: z if isinstance(z, str) else rects[s] for s, z in zones.items()}, reroll)


def _zone(side: str, z: Any, table: Table, depth: float, where: str) -> tuple[float, float, float, float]:
    """E-DEPLOY: side ``side``'s zone as written (an edge, or a rectangle of lengths), as a
    rectangle on the table."""
    if isinstance(z, str) and z in EDGES:
        return edge_zone(table, z, depth)
    try:
        if not isinstance(z, list) or len(z) != 4:
            raise ValueError
        x0, y0, x1, y1 = (length(v, allow_negative=True) for v in z)
    except (UnitError, ValueError, TypeError):
        raise ScenarioError(f"{where}: zones.{side} must be an edge ({', '.join(EDGES)}) or a rectangle "
                            f"[x0, y0, x1, y1] of lengths, got {z!r}") from None
    if not (x0 < x1 and y0 < y1):
        raise ScenarioError(f"{where}: zones.{side}: a rectangle [x0, y0, x1, y1] has x0 < x1 and y0 < y1, got {z!r}")
    if x0 < -1e-9 or y0 < -1e-9 or x1 > table.width + 1e-9 or y1 > table.depth + 1e-9:
        raise ScenarioError(f"{where}: zones.{side} {z!r} reaches off the {table.width:g} x {table.depth:g} in "
                            "table: a deployment zone lies on it")
    return (x0, y0, x1, y1)


def _check_zones(rects: Mapping[str, tuple[float, float, float, float]], zones: Mapping[str, Any], table: Table,
                 depth: float, where: str) -> None:
    """E-DEPLOY, where some model deploys (the reserve is not empty): each zone fits the
    widest base that deploys there, and two sides' zones do not overlap (a side would
    deploy among the enemy); where the second side picks an edge (no ``zones``), the
    depth leaves the two strips apart whichever it picks."""
    if not table.catalogue.reserve:
        return
    # (no zones: every side's strip is zone_depth deep, whichever edge it gets)
    strips = rects if zones else {s: (0.0, 0.0, depth, depth) for s in table.all_sides()}
    for side, (x0, y0, x1, y1) in strips.items():
        waiting = [m for m in table.catalogue.reserve if m.side == side]
        widest = max(waiting, key=lambda m: m.base_diameter, default=None)
        if widest is not None and min(x1 - x0, y1 - y0) < widest.base_diameter - 1e-9:
            what = f"zones.{side} ({zones[side]!r})" if zones else f"zone_depth = {depth:g} in"
            raise ScenarioError(f"{where}: {what} is narrower than {widest.id}'s base "
                                f"({widest.base_diameter:.3g} in), which deploys there: no spot would fit it")
    if not zones:
        half = min(table.width, table.depth) / 2
        if depth > half + 1e-9:
            raise ScenarioError(f"{where}: zone_depth = {depth:g} in: the two sides' strips along opposite edges "
                                f"would overlap on the {table.width:g} x {table.depth:g} in table (at most "
                                f"{half:g} in), or give zones")
        return
    items = list(rects.items())
    for i, (a, ra) in enumerate(items):
        for b, rb in items[i + 1:]:
            if min(ra[2], rb[2]) - max(ra[0], rb[0]) > 1e-9 and min(ra[3], rb[3]) - max(ra[1], rb[1]) > 1e-9:
                raise ScenarioError(f"{where}: zones.{a} ({zones[a]!r}) and zones.{b} ({zones[b]!r}) overlap with "
                                    f"zone_depth = {depth:g} in: a side would deploy among the enemy; give apart "
                                    "zones or a smaller zone_depth")


def _check_reroll(k: int, table: Table, where: str) -> None:
    """E-ROLL-REROLL: refuse a ``reroll = k`` under which some attack could not be rolled:
    a Reactive model attacking back (one die, E-STK-REACT) chooses its reroll by weighing
    every answer of the Active dice, and above ``MAX_LOOKAHEAD_ROLLS`` rolls the roll is
    refused (docs/dice.md). Checked for each weapon's full Strike at the worst attributes,
    so no attack of the game can be refused halfway through it."""
    if not k:
        return
    for m in table.all_models():
        for w in usable_weapons(m):
            if w.template is not None:
                continue
            dice = max(1, w.strike(m.attributes) or 1)
            weighed = most_lookahead_rolls(dice, k)
            if weighed > MAX_LOOKAHEAD_ROLLS:
                most = max(j for j in range(k) if most_lookahead_rolls(dice, j) <= MAX_LOOKAHEAD_ROLLS)
                raise ScenarioError(
                    f"{where}: reroll = {k}: {m.id}'s {w.name} rolls {dice} dice, and a model attacking back "
                    f"chooses its reroll by weighing every answer of them, up to {weighed:,} rolls (at most "
                    f"{MAX_LOOKAHEAD_ROLLS:,}); use reroll = {most} or less, or a weapon of fewer dice")


#: Attributes the rules read by name (E-PROFILE: Awareness, Dodge and falls AGI; Movement
#: SPD; AP and Strike STA; ARM; HP; Morale MOR; spells INT; the built-in weapons MEL, ACC).
RULE_ATTRIBUTES = ("AGI", "SPD", "STA", "ARM", "HP", "MOR", "INT", "MEL", "ACC")


def unused_notes(table: Table) -> tuple[str, ...]:
    """What a game of ``table`` would leave unused without a word: a weapon no model can
    attack with (no Power, or the attribute it rolls missing), a Strike named by an
    attribute the model lacks (it rolls 1 die), an attribute no rule or weapon of the file
    reads (a typo, most likely). For ``skirmish check``."""
    models = table.all_models()
    read = set(RULE_ATTRIBUTES) | {w.attribute for m in models for w in m.weapons} | \
        {w.stk for m in models for w in m.weapons if isinstance(w.stk, str)}
    notes: list[str] = []
    for m in models:
        usable = usable_weapons(m)
        for w in m.weapons:
            if w not in usable:  # (no Power, or the attribute it rolls missing)
                notes.append(f"{m.id}'s {w.name} has no Power (pw): a game never attacks with it" if w.pw is None else
                             f"{m.id}'s {w.name} rolls {w.attribute}, which {m.id} does not have: a game never "
                             "attacks with it")
            if isinstance(w.stk, str) and m.attributes.get(w.stk) is None:
                notes.append(f"{m.id}'s {w.name} has Strike {w.stk}, which {m.id} does not have: it rolls 1 die")
        for a in m.attributes:
            if a not in read:
                near = difflib.get_close_matches(a, sorted(read), n=1)
                notes.append(f"{m.id}'s {a} is read by no rule and no weapon here" +
                             (f" (a typo of {near[0]}?)" if near else ""))
    return tuple(notes)


def usable_weapons(model: Model) -> tuple[Weapon, ...]:
    """The weapons the model can attack with: a Power, and the attribute they roll
    against (a template weapon rolls none: it is placed, E-TMPL)."""
    return tuple(w for w in model.weapons
                 if w.pw is not None and (w.template is not None or model.attributes.get(w.attribute) is not None))


def check_playable(table: Table, source: str = "<scenario>") -> None:
    """Refuse a table the game cannot play: exactly two sides (neither named ``draw``), and every model with
    STA, SPD, HP and at least one weapon it can attack with (:func:`usable_weapons`:
    a Power, and the attribute it rolls against, or a template)."""
    sides = table.all_sides()
    if len(sides) != 2:
        raise ScenarioError(f"{source}: a game of Eldfall needs exactly two sides, found {len(sides)} "
                            f"({', '.join(sides) or 'no models'}); set side = ... on every model")
    if "draw" in sides:  # (the many-games report counts drawn games under "draw", beside the sides)
        raise ScenarioError(f"{source}: a side is named 'draw', the name the game's reports give drawn games; "
                            "rename the side (side = ... on its models)")
    for m in table.all_models():
        missing = [a for a in REQUIRED_ATTRIBUTES if m.attributes.get(a) is None]
        if missing:
            raise ScenarioError(f"{source}: model {m.id!r} has no {', '.join(missing)}; the game needs STA (AP), "
                                "SPD (Movement) and HP (Wounds): add them to its attributes or profile")
        if not usable_weapons(m):
            names = ", ".join(f"{w.name} ({'no Power' if w.pw is None else f'pw {w.pw}'}, "
                              + (f"template {w.template})" if w.template else f"rolls {w.attribute})")
                              for w in m.weapons) or "none"
            raise ScenarioError(f"{source}: model {m.id!r} has no weapon it can attack with (weapons: {names}); "
                                "give a weapon a Power (pw = ...) in [weapons.<name>] and the model the attribute "
                                "it rolls against")


def with_builtin_power(table: Table, powers: Mapping[str, int] = BUILTIN_POWER) -> Table:
    """The table with every built-in weapon that has no Power (the ``sword`` and
    ``short-bow`` of a generated table, unchanged from ``BUILTIN_WEAPONS``) given the Power
    in ``powers``; declared weapons, and built-ins a scenario redeclared, are kept."""
    for key in powers:
        if key not in BUILTIN_WEAPONS:
            raise ScenarioError(f"builtin power: {key!r} is not a built-in weapon "
                                f"(built-ins: {', '.join(BUILTIN_WEAPONS)})")
    swap = {BUILTIN_WEAPONS[k]: dataclasses.replace(BUILTIN_WEAPONS[k], pw=int(pw)) for k, pw in powers.items()}
    def armed(ms: tuple[Model, ...]) -> tuple[Model, ...]:
        return tuple(dataclasses.replace(m, weapons=tuple(swap.get(w, w) if w.pw is None else w for w in m.weapons))
                     for m in ms)

    cat = dataclasses.replace(table.catalogue, reserve=armed(table.catalogue.reserve))
    return dataclasses.replace(table, models=armed(table.models), catalogue=cat)


def load_game(path: str) -> tuple[Table, GameSettings, Any]:
    """A scenario file as a game: its table (checked playable), ``[game]`` settings and
    ``[[script]]`` (empty when it has none)."""
    from ...sim.script import load_with_script

    table, script = load_with_script(path)  # (the table keeps [game] as read: catalogue.game)
    check_playable(table, str(path))
    return table, parse_settings(table.catalogue.game, table, str(path)), script
