"""Scripts: the declared actions a scenario plays out, read strictly from ``[[script]]``.

A scenario file may carry an array of tables ``[[script]]``, one declared action
each, in the order they happen (docs/simulation.md):

```toml
[[script]]
actor = "yumi"
do = "attack"             # move | attack | template | measure
target = "brute"
weapon = "Longbow"        # optional: default the actor's first weapon that reaches
reaction = "dodge"        # attack | dodge | none (default none)
```
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, cast

from ..errors import ScenarioError
from ..maps.table import Table
from ..scenario import fields as F
from ..scenario.fields import Entry, show
from ..scenario.load import load

Do = Literal["move", "attack", "template", "measure"]
Reaction = Literal["attack", "dodge", "none"]


@dataclass(frozen=True)
class Action:
    """One declared action. Fields not used by its kind stay None."""

    index: int
    actor: str
    do: Do
    target: str | None = None  # attack, measure
    weapon: str | None = None  # attack: the actor's weapon
    reaction: Reaction = "none"  # attack, template: what the target(s) do
    reaction_weapon: str | None = None  # attack with reaction = "attack"
    modifiers: tuple[int, ...] = ()  # extra fixed modifiers of the actor's roll
    to: tuple[float, float] | str | None = None  # move: destination point, or a model to reach
    via: tuple[tuple[float, float], ...] | None = None  # move: a declared path
    run: bool = False  # move: Run (2 × SPD) instead of Walk
    template: str | None = None  # template: circle-small, spray-large, ...
    on: str | None = None  # template: the main target
    at: tuple[float, float] | None = None  # template: a centre point
    toward: str | tuple[float, float] | None = None  # spray direction
    pw: int | None = None  # template: Power of the ability
    attribute: str | None = None  # template: attribute a Dodge-able hit is made with (for the log)

    def describe(self) -> str:
        if self.do == "move":
            dest = self.to if self.to is not None else (self.via[-1] if self.via else None)
            return f"{self.actor} {'runs' if self.run else 'moves'} to {dest}"
        if self.do == "attack":
            return f"{self.actor} attacks {self.target}" + (f" with {self.weapon}" if self.weapon else "")
        if self.do == "template":
            where = self.on or self.at or self.toward
            return f"{self.actor} places {self.template} on {where}"
        return f"{self.actor} measures to {self.target}"


@dataclass(frozen=True)
class Script:
    actions: tuple[Action, ...]
    source: str = ""

    def __len__(self) -> int:
        return len(self.actions)


ACTION_KEYS = {
    "move": ("to", "via", "run"),
    "attack": ("target", "weapon", "reaction", "reaction_weapon", "modifiers"),
    "template": ("template", "on", "at", "toward", "pw", "reaction", "attribute"),
    "measure": ("target",),
}


def _point_or_id(value: Any) -> str | tuple[float, float]:
    if isinstance(value, str):
        return F.ident(value)
    x, y = F.point(value)
    return (x, y)


def parse_script(raw: Any, table: Table, source: str = "<script>") -> Script:
    """Validate ``[[script]]`` entries against ``table`` (ids, weapons, kinds of action)."""
    if not isinstance(raw, list):
        raise ScenarioError(f"{source}: script: expected an array of tables ([[script]]), got {show(raw)}")
    actions = []
    for i, item in enumerate(raw):
        e = Entry(source, f"script[{i}]", item)
        actor = e.take("actor", F.ident)
        e.label = f'{e.label} (actor "{actor}")'
        if actor not in table.model_ids:
            raise e.error("actor", f"no model with id {show(actor)} on the table")
        do = cast(Do, e.take("do", F.one_of(*ACTION_KEYS)))
        e.take("turn", F.integer, None)  # optional label for the reader; the order is the file's
        kw: dict[str, Any] = {}
        if do == "move":
            if e.has("to") == e.has("via"):
                raise e.error(None, "a move gives exactly one of to = [x, y] or via = [[x, y], ...]")
            if e.has("to"):
                kw["to"] = e.take("to", _point_or_id)
                if isinstance(kw["to"], str) and kw["to"] not in table.model_ids:
                    raise e.error("to", f"no model with id {show(kw['to'])} on the table")
            else:
                kw["via"] = tuple(tuple(p) for p in e.take("via", F.list_of(F.point, min_n=1, what="a list of [x, y] points")))
            kw["run"] = e.take("run", F.boolean, False)
        elif do in ("attack", "measure"):
            kw["target"] = e.take("target", F.ident)
            if kw["target"] not in table.model_ids:
                raise e.error("target", f"no model with id {show(kw['target'])} on the table")
            if kw["target"] == actor:
                raise e.error("target", "a model cannot target itself")
            if do == "attack":
                kw["weapon"] = e.take("weapon", F.string, None)
                if kw["weapon"] is not None and table.model(actor).weapon(kw["weapon"]) is None:
                    names = ", ".join(w.name for w in table.model(actor).weapons) or "none"
                    raise e.error("weapon", f"{actor} has no weapon {show(kw['weapon'])} (it has: {names})")
                kw["reaction"] = e.take("reaction", F.one_of("attack", "dodge", "none"), "none")
                kw["reaction_weapon"] = e.take("reaction_weapon", F.string, None)
                if kw["reaction_weapon"] is not None and table.model(kw["target"]).weapon(kw["reaction_weapon"]) is None:
                    raise e.error("reaction_weapon", f"{kw['target']} has no weapon {show(kw['reaction_weapon'])}")
                kw["modifiers"] = tuple(e.take("modifiers", F.list_of(F.integer, what="a list of whole numbers"), []))
        else:  # template
            kw["template"] = e.take("template", F.ident)
            if not (e.has("on") or e.has("at") or e.has("toward")):
                raise e.error(None, "a template needs on = \"id\", at = [x, y] or toward = \"id\" / [x, y]")
            kw["on"] = e.take("on", F.ident, None)
            if kw["on"] is not None and kw["on"] not in table.model_ids:
                raise e.error("on", f"no model with id {show(kw['on'])} on the table")
            at = e.take("at", F.point, None)
            kw["at"] = tuple(at) if at is not None else None
            kw["toward"] = e.take("toward", _point_or_id, None)
            kw["pw"] = e.take("pw", F.integer)
            kw["reaction"] = e.take("reaction", F.one_of("dodge", "none"), "dodge")
            kw["attribute"] = e.take("attribute", F.ident, None)
        e.done()
        actions.append(Action(i, actor, do, **kw))
    return Script(tuple(actions), source)


def load_with_script(path: str | Path) -> tuple[Table, Script]:
    """Load a scenario file and its ``[[script]]`` (an empty script when it has none; the
    table keeps the entries as read, ``catalogue.script``)."""
    table = load(path)
    if not isinstance(table, Table):
        raise ScenarioError(f"{path}: scripts run on the continuous table (map = \"table\")", kind="map_kind")
    return table, parse_script(list(table.catalogue.script), table, str(path))
