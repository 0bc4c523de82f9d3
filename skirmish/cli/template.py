"""``skirmish template FILE NAME ...``: who an AoE template hits, and where to place it best
(E-TMPL, E-TMPL-CIRCLE, E-TMPL-SPRAY, E-TMPL-STK, E-MODE)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from ..errors import SkirmishError
from ..maps.template_results import BestTemplate, Placement, TemplateResult, TemplateVolley
from ..rules.eldfall.templates import TEMPLATES, template_spec
from ..units import MM_PER_INCH
from ._commands import COMMANDS
from ._output import add_json_flag, emit_json
from ._scenario import add_scenario_args, load_table, require_table
from ._values import flag_length

if TYPE_CHECKING:
    from ..maps.table import Table

EPILOG = """examples (M = scenarios/mill-ambush.toml):
  skirmish template M circle-small --on brute                   centred on a model (its main target)
  skirmish template M circle-large --at 12,14 [--z 3]           centred on a point (no main target)
  skirmish template M spray-small --by akane --toward brute     a spray from akane at brute
  skirmish template M spray-large --by akane --toward 20,9 --json
  skirmish template M circle-small --by akane --best [--on brute] [--json]     the best placement
  skirmish template M circle-small --by akane --on raider-1 --on raider-2 --strike 2   several (E-TMPL-STK)

JSON schema and every interpretation: docs/templates.md"""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "template", help=COMMANDS["template"],
        description="Resolve an area-of-effect template (E-TMPL): the models it affects with why (coverage, "
        "height band, LoS witness from the centre point or the attacker; only scenery blocks), the models "
        "under it that are spared with why, whether the main target is covered, and the outline. Templates: "
        + ", ".join(TEMPLATES) + ".",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_scenario_args(p)
    p.add_argument("name", metavar="TEMPLATE", help="template name: " + ", ".join(TEMPLATES))
    p.add_argument("--on", action="append", default=[], metavar="ID",
                   help="main target: a circle is centred on it (or, with --at, must cover it); a spray points "
                   "at it. Repeat for several templates")
    p.add_argument("--at", action="append", default=[], metavar="X,Y",
                   help="circle centre (inches); repeat for several templates")
    p.add_argument("--z", metavar="Z", help="surface height for --at without a main target "
                   "(default: the top of the scenery under the point, else 0)")
    p.add_argument("--by", metavar="ID", help="the user: a spray's attacker; never hit by its own template")
    p.add_argument("--toward", action="append", default=[], metavar="ID|X,Y",
                   help="where a spray points: a model (its main target) or a point; repeatable")
    p.add_argument("--direction", action="append", default=[], type=float, metavar="DEG",
                   help="a spray's direction, degrees counter-clockwise from +x; repeatable")
    p.add_argument("--best", action="store_true",
                   help="find the placement for --by that covers a main target (--on, or the best enemy) and "
                   "hits the most enemies and the fewest friends")
    p.add_argument("--enemy-weight", type=float, default=1.0, metavar="W", help="score per enemy hit (default 1)")
    p.add_argument("--friend-weight", type=float, default=1.0, metavar="W",
                   help="score lost per friend hit (default 1)")
    p.add_argument("--reach", metavar="LEN", help="with --best: only main targets within this E-DIST of --by")
    p.add_argument("--spacing", default="0.05", metavar="LEN",
                   help="with --best for a circle: lattice spacing where LoS varies inside a face, at least 0.01 in (default 0.05 in)")
    p.add_argument("--strike", type=int, metavar="N", help="the ability's Strike: at most N templates (E-TMPL-STK)")
    p.add_argument("--dodge", action="store_true",
                   help="also say, per affected model, whether its Agility is halved for the Dodge (E-DODGE)")
    p.add_argument("--declared", action="store_true",
                   help="the template resolves a declared action (required in standard and realism mode, E-MODE)")
    add_json_flag(p)
    p.set_defaults(func=run)


def _xy(text: str, what: str) -> tuple[float, float]:
    parts = text.split(",")
    if len(parts) != 2:
        raise SkirmishError(f"{what}: expected X,Y in inches (e.g. 12,14), got {text!r}")
    return (flag_length(what, parts[0], negative=True), flag_length(what, parts[1], negative=True))


def _toward(text: str) -> str | tuple[float, float]:
    if "," in text:
        return _xy(text, "--toward")
    return text


def placements(args: argparse.Namespace, kind: str) -> list[Placement]:
    """The placements the arguments describe (one per template)."""
    ons = list(args.on)
    z = None if args.z is None else flag_length("--z", args.z)
    if kind == "circle":
        if args.toward or args.direction:
            raise SkirmishError(f"{args.name} is placed by its centre: use --on ID or --at X,Y "
                                "(--toward and --direction aim a spray)")
        ats = [_xy(a, "--at") for a in args.at]
        if ats:
            if ons and len(ons) != len(ats):
                raise SkirmishError("pair each --at with one --on (its main target), or give no --on")
            if ons and z is not None:
                raise SkirmishError("--z is for a circle without a main target: it lies on its main target's surface")
            return [Placement(on=ons[i] if ons else None, at=a, z=z) for i, a in enumerate(ats)]
        if z is not None:
            raise SkirmishError("--z goes with --at X,Y")
        if not ons:
            raise SkirmishError(f"place the {args.name}: --on ID (centred on a model) or --at X,Y")
        return [Placement(on=o) for o in ons]
    if args.at or z is not None:
        raise SkirmishError(f"{args.name} is not placed at a point: aim it with --toward ID|X,Y or --direction DEG")
    aims: list[Placement] = [Placement(toward=_toward(t)) for t in args.toward]
    aims += [Placement(direction=d) for d in args.direction]
    if aims:
        if ons and len(ons) != len(aims):
            raise SkirmishError("pair each --toward/--direction with one --on (its main target), or give no --on")
        return [Placement(on=ons[i], toward=a.toward, direction=a.direction) if ons else a
                for i, a in enumerate(aims)]
    if not ons:
        raise SkirmishError(f"aim the {args.name}: --toward ID|X,Y, --direction DEG or --on ID")
    return [Placement(on=o) for o in ons]


def run(args: argparse.Namespace) -> int:
    spec = template_spec(args.name)
    args.name = spec.name
    table = require_table(load_table(args), "skirmish template")
    if args.best:
        if not args.by:
            raise SkirmishError("--best needs the user: --by ID")
        if args.at or args.toward or args.direction or args.z is not None:
            raise SkirmishError("--best chooses the placement itself: drop --at, --z, --toward and --direction")
        if len(args.on) > 1:
            raise SkirmishError("--best takes at most one --on (the main target)")
        if args.strike is not None:
            raise SkirmishError("--best places one template; --strike counts the templates you place (--on/--at/"
                                "--toward/--direction, E-TMPL-STK)")
        best = table.best_template(spec, by=args.by, on=args.on[0] if args.on else None,
                                   enemy_weight=args.enemy_weight, friend_weight=args.friend_weight,
                                   reach=None if args.reach is None else flag_length("--reach", args.reach),
                                   spacing=flag_length("--spacing", args.spacing), declared=args.declared)
        if args.json:
            emit_json(best.to_json())
        else:
            print_best(best, table)
        return 0
    pls = placements(args, spec.kind)
    if len(pls) == 1 and args.strike is None:
        pl = pls[0]
        r = table.template(spec, on=pl.on, at=pl.at, z=pl.z, by=args.by, toward=pl.toward, direction=pl.direction,
                           declared=args.declared, dodge=args.dodge)
        if args.json:
            emit_json(r.to_json())
        else:
            print_result(r, table)
        return 0
    volley = table.templates(spec, pls, by=args.by, strike=args.strike, declared=args.declared, dodge=args.dodge)
    if args.json:
        emit_json(volley.to_json())
    else:
        print_volley(volley, table)
    return 0


def _name(r: TemplateResult) -> str:
    spec = template_spec(r.template)
    return f"{r.template} ({spec.size * MM_PER_INCH:.0f} mm {r.kind})"


def _plane(r: TemplateResult, table: Table) -> str:
    """Where a circle lies: on the surface at its z, or, centred on a model that stands on
    none (hanging on a face, E-MOVE-CLIMB, or Flying), at the height of its base."""
    m = r.main_target
    if m is not None and ("Flying" in table.model(m).states or table.on_face(m) is not None):
        return f"at the height of {m}'s base, z {r.surface_z:g} (it stands on no surface)"
    return f"on the surface at z {r.surface_z:g}"


def print_result(r: TemplateResult, table: Table) -> None:
    if r.kind == "circle":
        assert r.center is not None
        print(f"{_name(r)} centred at ({r.center[0]:.2f}, {r.center[1]:.2f}) {_plane(r, table)}; "
              f"affects bases within ±{r.band:g}\" of it")
    else:
        assert r.tip is not None and r.direction is not None
        print(f"{_name(r)} by {r.by} toward {r.direction:.1f}° (narrow end at ({r.tip[0]:.2f}, {r.tip[1]:.2f})); "
              f"affects bases within ±{r.band:g}\" of z {r.surface_z:g}")
    if r.main_target is not None:
        if r.main_target_covered:
            how = "covered entirely" if r.main_target_rule == "covered" else \
                "too close to cover entirely: both long edges cross it (counts as covered)"
            print(f"main target {r.main_target}: {how}")
        else:
            print(f"main target {r.main_target}: NOT covered entirely — this placement is not legal for it (E-TMPL)")
    width = max([len(h.id) for h in r.affected] + [len(s.id) for s in r.spared] + [4])
    print(f"affected ({len(r.affected)}):" if r.affected else "affected: none")
    for h in r.affected:
        print(f"  {h.id:<{width}}  {h.why}")
    if r.spared:
        print(f"spared under the template ({len(r.spared)}):")
        for s in r.spared:
            print(f"  {s.id:<{width}}  {s.why}")


def print_volley(v: TemplateVolley, table: Table) -> None:
    for k, r in enumerate(v.results):
        print(f"-- template {k + 1} of {len(v.results)}{f' (Strike {v.strike})' if v.strike else ''}")
        print_result(r, table)
    hits = ", ".join(f"{m} x{n}" for m, n in v.counts.items()) or "nobody"
    print(f"templates per model (each suffered separately): {hits}")


def print_best(b: BestTemplate, table: Table) -> None:
    enemies = f"{b.enemies_hit} enem{'y' if b.enemies_hit == 1 else 'ies'} hit"
    friends = f"{b.friends_hit} friend{'' if b.friends_hit == 1 else 's'}"
    print(f"best placement for {b.result.by}: score {b.score:g} ({enemies}, {friends}; weights enemy "
          f"{b.enemy_weight:g}, friend {b.friend_weight:g})")
    print_result(b.result, table)
    s = b.search
    extra = f", {s.lattice_points} lattice points at {s.spacing:g}\"" if s.spacing else ""
    print(f"search: {s.method}; {s.candidates} candidates{extra}, {s.los_pairs} LoS pairs; "
          f"main targets tried: {', '.join(s.targets)}")
