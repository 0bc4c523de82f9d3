"""The island as a map (S-ISLAND): region steps against a slow oracle on random graphs,
groups of pieces as models, and the island format's strict loader."""

from __future__ import annotations

import math
import tomllib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import skirmish
from skirmish import Regions, ScenarioError, SkirmishError, UnknownIdError
from skirmish.rules.spiritisland import Land, island
from skirmish.scenario.island import island_from_dict, island_to_toml

from conftest import SCENARIOS, doc_paths, mutated

ISLAND = SCENARIOS / "island.toml"


def oracle(n: int, edges: set[tuple[int, int]]) -> np.ndarray:
    """All-pairs steps by Floyd–Warshall over the adjacency matrix: slow and obviously right."""
    d = np.full((n, n), math.inf)
    np.fill_diagonal(d, 0)
    for a, b in edges:
        d[a, b] = d[b, a] = 1
    for k in range(n):
        d = np.minimum(d, d[:, [k]] + d[[k], :])
    return d


@st.composite
def graphs(draw):
    n = draw(st.integers(1, 12))
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
    edges = set(draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs)))) if pairs else set()
    one_sided = {(a, b) if draw(st.booleans()) else (b, a) for a, b in edges}  # borders named on one side
    return n, edges, one_sided


def _regions(n: int, one_sided: set[tuple[int, int]]) -> Regions:
    lands = [Land(f"r{i}", "jungle", neighbours=tuple(f"r{b}" for a, b in sorted(one_sided) if a == i),
                  dahan=1) for i in range(n)]
    return Regions(island(lands))


@pytest.mark.slow
@given(graphs())
@settings(max_examples=200, deadline=None)
def test_s_island_distance_is_the_fewest_steps_against_an_oracle(g):
    n, edges, one_sided = g
    m = _regions(n, one_sided)
    want = oracle(n, edges)
    for a in range(n):
        for b in range(n):
            got = m.steps(f"r{a}", f"r{b}")
            assert got == want[a, b]
            if got != math.inf:
                path = m.path(f"r{a}", f"r{b}")
                assert len(path) == got + 1 and path[0] == f"r{a}" and path[-1] == f"r{b}"
                assert all(y in m.neighbours(x) for x, y in zip(path, path[1:]))
    ids, mat = m.distance_matrix()  # one dahan group per region, in region order
    assert ids == tuple(f"dahan@r{i}" for i in range(n)) and np.array_equal(mat, want)


@given(graphs())
@settings(max_examples=100, deadline=None)
def test_s_island_borders_are_symmetric_whichever_side_names_them(g):
    n, edges, one_sided = g
    m = _regions(n, one_sided)
    for a, b in edges:
        assert f"r{b}" in m.neighbours(f"r{a}") and f"r{a}" in m.neighbours(f"r{b}")
    assert len(m.island.borders()) == len(edges)


def test_s_island_groups_of_pieces_are_the_models_and_regions_are_places_too():
    m = skirmish.load(ISLAND)
    assert isinstance(m, Regions) and m.kind == "regions" and m.unit == "steps"
    assert m.side_of("towns@coast-2") == "invaders" and m.side_of("dahan@wood") == "dahan"
    assert m.side_of("river@wood") == "river" and m.group("river@wood").count == 2
    assert m.distance("coast-1", "reef") == 3 and m.distance("explorers@coast-1", "reef") == 3
    assert m.in_contact("towns@coast-2", "coast-2") and not m.in_contact("coast-1", "coast-2")
    assert not any(i.startswith("blight@") for i in m.model_ids)
    with pytest.raises(UnknownIdError, match="no group of pieces or region with id 'coast-l'; did you mean .*'coast-1'"):
        m.distance("coast-l", "reef")


def test_s_island_unconnected_regions_are_infinitely_far():
    m = Regions(island([Land("a", "sands"), Land("b", "sands", neighbours=("c",)), Land("c", "jungle")]))
    assert m.steps("a", "b") == math.inf and m.steps("b", "c") == 1
    with pytest.raises(SkirmishError, match="no chain of borders"):
        m.path("a", "c")


def test_s_island_movement_is_refused_with_the_reason():
    m = skirmish.load(ISLAND)
    with pytest.raises(SkirmishError, match="does not answer a movement range: pieces on the island do not move"):
        m.movement_range("explorers@coast-1")
    for method, arg in ((m.plan_move, "peak"), (m.check_move, [])):
        with pytest.raises(SkirmishError, match="skirmish island distance") as e:
            method("river@wood", arg)
        assert e.value.kind == "map_kind"


def test_s_island_move_and_los_at_the_command_line_speak_of_regions(capsys):
    from skirmish.cli import main
    assert main(["move", str(ISLAND), "river@wood", "--to", "peak"]) == 2  # (not read as grid coordinates)
    assert "the island's region map does not answer a planned move" in capsys.readouterr().err
    assert main(["los", str(ISLAND), "river@wood", "earth@marsh"]) == 0
    assert "they stand in different regions" in capsys.readouterr().out


def test_s_island_layout_places_every_region_inside_the_unit_square_deterministically():
    m = _regions(6, {(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 0)})
    pos = m.positions
    assert set(pos) == set(m.island.ids) and all(0 <= x <= 1 and 0 <= y <= 1 for x, y in pos.values())
    assert pos == _regions(6, {(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 0)}).positions
    pts = np.array(list(pos.values()))
    gaps = np.linalg.norm(pts[:, None] - pts[None], axis=2)[np.triu_indices(6, 1)]
    assert gaps.min() > 0.05  # spread out, not piled up


# -- the loader --------------------------------------------------------------------------------------

BASE = """format = 1
map = "regions"
[[regions]]
id = "a"
terrain = "jungle"
coastal = true
{a}
[[regions]]
{b}
"""
B = 'id = "b"\nterrain = "sands"\nadjacent = ["a"]'


def load_text(a: str = "", b: str = "", top: str = "") -> Regions:
    text = BASE.format(a=a, b=b or B)
    if top:
        text = text.replace('map = "regions"\n', f'map = "regions"\n{top}\n', 1)
    return skirmish.loads(text, "isle.toml")


def test_loader_reads_an_island_and_makes_borders_symmetric():
    m = load_text(a="explorers = 2\ndahan = 1\nravage = true\npresence = { river = 2 }", b=B + "\ncities = 1\nbuild = true")
    a, b = m.region("a"), m.region("b")
    assert a.neighbours == ("b",) and b.neighbours == ("a",)
    assert (a.explorers, a.dahan, a.ravage, a.presence) == (2, 1, True, (("river", 2),))
    assert (b.cities, b.build, b.coastal) == (1, True, False)
    assert m.island.spirits == ("river",) and m.source == "isle.toml"


@pytest.mark.parametrize("a, b, top, where, what", [
    ("", 'id = "b"\nterrain = "forest"', "", 'regions[1] (id "b"): terrain', 'unknown terrain "forest"'),
    ("", 'id = "b"\nterrain = "jungel"', "", 'regions[1] (id "b"): terrain', 'did you mean "jungle"'),
    ('adjacent = ["b", "z"]', "", "", 'regions[0] (id "a"): adjacent', 'unknown region "z"'),
    ('adjacent = ["b", "a"]', "", "", 'regions[0] (id "a"): adjacent', "does not border itself"),
    ("explorers = -1", "", "", 'regions[0] (id "a"): explorers', "0 or more, got -1"),
    ("", B + "\nblight = -2", "", 'regions[1] (id "b"): blight', "0 or more, got -2"),
    ("presence = { river = -1 }", "", "", 'regions[0] (id "a").presence: river', "0 or more"),
    ("presence = { dahan = 1 }", "", "", 'regions[0] (id "a").presence: dahan', "may not be called"),
    ("", 'id = "a"\nterrain = "sands"', "", "regions[1]: id", 'duplicate id "a"'),
    ("", 'id = "b"\nterrain = "sands"', "", 'regions[1] (id "b"): adjacent',  # (check said ok: "borders none")
     'no chain of borders joins it to "a": an island is one piece of land'),
    ("towns = 1.5", "", "", 'regions[0] (id "a"): towns', "whole number"),
    ("colour = 3", "", "", 'regions[0] (id "a"): colour', "unknown key"),
    ("", "", '[island]\nexplore = ["jungle", "forest"]', "island: explore", "item 2"),
    ("", "", "[island]\nblighted_at = 13\ndefeat_at = 10", "island: defeat_at", "lose at a blight above"),
    ("", "", 'mode = "standard"', "mode", "belong to the table"),
])
def test_loader_refusals_name_file_entry_and_field(a, b, top, where, what):
    if top.startswith("mode"):  # a top-level key: before the first table
        with pytest.raises(ScenarioError) as exc:
            skirmish.loads(BASE.format(a=a, b=B).replace("format = 1\n", f"format = 1\n{top}\n"), "isle.toml")
    else:
        with pytest.raises(ScenarioError) as exc:
            load_text(a, b, top)
    msg = str(exc.value)
    assert msg.startswith("isle.toml: ") and where in msg and what in msg, msg


def test_loader_refuses_a_region_id_with_an_at_sign_and_a_file_without_regions():
    with pytest.raises(ScenarioError, match=r"regions\[0\]: id: a region id may not contain '@'"):
        skirmish.loads('format = 1\nmap = "regions"\n[[regions]]\nid = "a@b"\nterrain = "sands"\n', "x.toml")
    with pytest.raises(ScenarioError, match="x.toml: regions: required"):
        skirmish.loads('format = 1\nmap = "regions"\n', "x.toml")


def test_loader_round_trips_the_shipped_island_and_a_played_one():
    import random
    from skirmish.rules.spiritisland import invader_phase

    m = skirmish.load(ISLAND)
    assert island_from_dict(tomllib.loads(island_to_toml(m)), "again.toml") == m
    after = Regions(invader_phase(m.island, None, random.Random(2)).island, m.name)
    assert island_from_dict(tomllib.loads(island_to_toml(after))) == after


@pytest.mark.parametrize("doc", ["spiritisland.md", "island-format.md"])
def test_island_docs_examples_run(doc, monkeypatch):
    import doctest

    from conftest import ROOT

    monkeypatch.chdir(ROOT)
    result = doctest.testfile(str(ROOT / "docs" / doc), module_relative=False)
    assert result.attempted >= 3 and result.failed == 0


# -- fuzz: mutated island files load or are refused with a ScenarioError, nothing else ----------------

ISLAND_DOC = tomllib.loads(ISLAND.read_text())
_scalars = st.one_of(st.booleans(), st.integers(-5, 5), st.floats(allow_nan=True), st.text(max_size=8),
                     st.sampled_from(["jungle", "sands", "coast-1", "wood", "r@x", "dahan", ""]))
_values = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                                            max_size=3), max_leaves=8)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.sampled_from([p for p in doc_paths(ISLAND_DOC) if p]), _values,
       st.booleans())
def test_mutated_island_files_load_or_refuse_naming_the_file(path, value, delete):
    data = mutated(ISLAND_DOC, path, value, delete)
    try:
        m = island_from_dict(data, "fuzz.toml")
    except ScenarioError as exc:
        assert str(exc).startswith("fuzz.toml: ")
    else:
        assert island_from_dict(tomllib.loads(island_to_toml(m))) == m
