"""The bundled Eldfall game that uses deployment, spells and States
(scenarios/eldfall/tower-deploy.toml) plays from the CLI (E-DEPLOY, E-AURA-CAST, E-TMPL)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skirmish.cli import main

TOWER = str(Path(__file__).resolve().parents[2] / "scenarios" / "eldfall" / "tower-deploy.toml")


@pytest.mark.parametrize("policy", ["random", "red=greedy,blue=random"])
def test_e_deploy_bundled_tower_blue_deploys_in_its_zone_then_plays_to_a_result(capsys, policy: str) -> None:
    assert main(["play", TOWER, "--seed", "3", "--policy", policy, "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    deploys = [e for e in lines if e.get("role") == "deploy"]
    assert sorted(e["model"] for e in deploys) == ["hunter", "raider", "witch"]
    for e in deploys:  # the north strip of the 20" table ([game] zones, 8" deep)
        x, y, _ = e["at"]
        assert 0 <= x <= 20 and 12 <= y <= 20
    assert lines.index(deploys[-1]) < min(i for i, e in enumerate(lines) if e.get("role") == "activation")
    result = lines[-1]
    assert set(result["states"]) == {"guard", "archer", "seer", "raider", "hunter", "witch"}
    assert result["winner"] in ("red", "blue", None)


def test_e_aura_cast_bundled_tower_mages_cast_their_aura_spell_in_some_game(capsys) -> None:
    casts = []
    for seed in range(4):
        assert main(["play", TOWER, "--seed", str(seed), "--json"]) == 0
        lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
        casts += [e for e in lines if e.get("action", {}).get("kind") == "cast"]
    assert casts and {e["model"] for e in casts} <= {"seer", "witch"}
    assert all(e["action"]["weapon"] == "Flare" for e in casts)


def test_e_tmpl_bundled_tower_templates_are_placed_and_hit_what_they_cover(capsys) -> None:
    """The tower's guard (a flamer) and hunter (fire pots) place templates in some game;
    each Hit is on a model its template covered, never on the user."""
    placed = []
    for seed in range(3):
        assert main(["play", TOWER, "--seed", str(seed), "--policy", "greedy", "--json"]) == 0
        for e in (json.loads(x) for x in capsys.readouterr().out.splitlines()):
            covered: list[str] = []
            for ex in e.get("result", {}).get("exchanges", []):
                if ex.get("kind") == "template":
                    covered = [h["id"] for h in ex["template"]["affected"]]
                    assert e["model"] not in covered
                    placed.append((e["model"], ex["template"]["template"]))
                elif ex.get("exchange") == "template" and e["role"] == "activation":
                    assert ex["target"] in covered
    assert {m for m, _ in placed} == {"guard", "hunter"}
    assert {t for _, t in placed} == {"spray-small", "circle-small"}
