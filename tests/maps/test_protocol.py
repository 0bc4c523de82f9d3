"""One protocol, every map: the same tests run over the continuous table, the grid of rooms
and the island of regions.

Each map answers the questions of ``skirmish.maps.base.Map`` in its own way (inches
between hitboxes on the table, steps between rooms on the grid); the shape of the
answers and their invariants are the same, so the CLI and the viewer read one shape.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import pytest

import skirmish
from skirmish import MAPS, Map, SkirmishError, UnknownIdError
from skirmish.maps.results import LineOfSight, MovePlan, MoveRange

from conftest import SCENARIOS, table_text


@dataclass(frozen=True)
class Case:
    """A map under test and what differs by kind: the contact tolerance and "where a model is"."""

    map: Map
    contact_tolerance: float
    here: Callable[[Map, str], Any]


TABLE = """
[[scenery]]
id = "wall"
rect = [9, 2, 9.5, 14]
height = 3
[[models]]
id = "akane"
side = "red"
size = "M"
at = [5, 8]
attributes = { SPD = 4, AGI = 6 }
[[models]]
id = "brute"
side = "blue"
size = "L"
at = [6.4173, 8]
facing = 180
attributes = { SPD = 4 }
[[models]]
id = "yumi"
side = "red"
size = "S"
at = [4, 3]
facing = 90
attributes = { SPD = 5 }
[[models]]
id = "hidden"
side = "blue"
size = "M"
at = [13, 8]
facing = 180
attributes = { SPD = 4 }
"""


def _table() -> Case:
    t = skirmish.loads(table_text(TABLE), "protocol.toml")
    return Case(t, skirmish.CONTACT_TOLERANCE, lambda m, i: (m.model(i).x, m.model(i).y))


def _grid() -> Case:
    g = skirmish.load(SCENARIOS / "party-hard-maze.toml")
    return Case(g, 0.0, lambda m, i: m.room_of(i))


def _regions() -> Case:
    r = skirmish.load(SCENARIOS / "island.toml")
    return Case(r, 0.0, lambda m, i: m.region_of(i))


CASES = {"table": _table(), "grid": _grid(), "regions": _regions()}


@pytest.fixture(params=sorted(CASES), scope="module")
def case(request) -> Case:
    return CASES[request.param]


def pairs(m: Map, limit: int = 12) -> list[tuple[str, str]]:
    ids = m.model_ids
    return list(itertools.islice(((a, b) for a in ids for b in ids if a != b), limit))


def test_protocol_kind_is_registered_and_has_a_unit(case):
    m = case.map
    assert MAPS[m.kind] is type(m) and isinstance(m, Map)
    assert isinstance(m.unit, str) and m.unit


def test_protocol_model_ids_are_unique_and_each_has_a_side(case):
    ids = case.map.model_ids
    assert len(ids) >= 3 and len(set(ids)) == len(ids)
    sides = {case.map.side_of(i) for i in ids}
    assert len(sides) >= 2 and all(isinstance(s, str) and s for s in sides)
    for a, b in itertools.product(ids, ids):
        assert case.map.friends(a, b) == (case.map.side_of(a) == case.map.side_of(b))


def test_protocol_distance_is_zero_to_self_symmetric_and_not_negative(case):
    m = case.map
    for a in m.model_ids:
        assert m.distance(a, a) == pytest.approx(0.0, abs=case.contact_tolerance)
    for a, b in itertools.combinations(m.model_ids, 2):
        d = m.distance(a, b)
        assert d >= 0 and d == pytest.approx(m.distance(b, a))


def test_protocol_distance_matrix_agrees_with_distance(case):
    m = case.map
    ids, mat = m.distance_matrix()
    assert tuple(ids) == tuple(m.model_ids)
    assert isinstance(mat, np.ndarray) and mat.shape == (len(ids), len(ids))
    assert np.allclose(mat, mat.T) and np.allclose(np.diag(mat), 0, atol=case.contact_tolerance)
    for i, j in itertools.product(range(len(ids)), repeat=2):
        if i != j:
            assert mat[i, j] == pytest.approx(m.distance(ids[i], ids[j]), abs=1e-9)


def test_protocol_contact_is_reflexive_symmetric_and_means_touching(case):
    m = case.map
    for a in m.model_ids:
        assert m.in_contact(a, a)
    touching = 0
    for a, b in itertools.combinations(m.model_ids, 2):
        c = m.in_contact(a, b)
        assert c == m.in_contact(b, a)
        assert c == (m.distance(a, b) <= case.contact_tolerance)
        touching += c
    assert touching >= 1, "the fixture map should have at least one pair in contact"


def test_protocol_line_of_sight_answers_one_shape(case):
    m = case.map
    keys = None
    for a, b in pairs(m):
        r = m.line_of_sight(a, b)
        assert isinstance(r, LineOfSight) and (r.frm, r.to) == (a, b)
        assert bool(r) == r.visible
        assert r.reason in ("clear", "out_of_arc", "blocked") and (r.reason == "clear") == r.visible
        if not r.visible:
            assert r.witness is None
        doc = r.to_json()
        json.dumps(doc, allow_nan=False)
        keys = keys or set(doc)
        assert set(doc) == keys == {"from", "to", "visible", "witness", "reason", "blockers", "tolerance",
                                    "visible_fraction", "arc", "stage", "certified"}


def test_protocol_line_of_sight_to_itself_is_refused(case):
    a = case.map.model_ids[0]
    with pytest.raises(SkirmishError, match="itself"):
        case.map.line_of_sight(a, a)


@pytest.mark.parametrize("query", ["distance", "in_contact", "line_of_sight", "side_of"])
def test_protocol_unknown_ids_are_refused_naming_them(case, query):
    m = case.map
    known = m.model_ids[0]
    args = ("nobody",) if query == "side_of" else (known, "nobody")
    with pytest.raises(UnknownIdError, match="nobody"):
        getattr(m, query)(*args)
    if query != "side_of":
        with pytest.raises(UnknownIdError, match="nobody"):
            getattr(m, query)("nobody", known)


def test_protocol_unknown_id_suggests_a_close_match(case):
    real = case.map.model_ids[1]
    with pytest.raises(UnknownIdError, match=f"did you mean '{real}'"):
        case.map.distance(case.map.model_ids[0], real + "x")


def _movement(case: Case, call: Callable[[], Any]) -> Any:
    try:
        return call()
    except SkirmishError as exc:
        if "does not answer" in str(exc):
            pytest.skip(f"the {case.map.kind} map does not answer movement yet")
        raise


def test_protocol_movement_answers_one_shape(case):
    m = case.map
    for mid in m.model_ids[:3]:
        rng = _movement(case, lambda: m.movement_range(mid))
        assert isinstance(rng, MoveRange) and rng.model == mid and rng.area >= 0 and rng.budget >= 0
        json.dumps(rng.to_json(), allow_nan=False)
        plan = _movement(case, lambda: m.plan_move(mid, case.here(m, mid)))
        assert isinstance(plan, MovePlan) and plan.model == mid and plan.points
        assert plan.legal == (not plan.violations)
        json.dumps(plan.to_json(), allow_nan=False)


def test_protocol_movement_refuses_unknown_ids(case):
    m = case.map
    mid = m.model_ids[0]
    _movement(case, lambda: m.movement_range(mid))
    with pytest.raises(UnknownIdError, match="nobody"):
        m.movement_range("nobody")
    with pytest.raises(UnknownIdError, match="nobody"):
        m.plan_move("nobody", case.here(m, mid))
