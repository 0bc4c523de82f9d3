"""The generated bundled scenario is what tools/make_scenarios.py writes: regenerating
it changes nothing (its weapons with a Power included, which `skirmish play` needs)."""

from __future__ import annotations

import importlib.util

from skirmish.scenario.load import load

from conftest import ROOT, SCENARIOS


def _tool():
    spec = importlib.util.spec_from_file_location("make_scenarios", ROOT / "tools" / "make_scenarios.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_dense_ruins_is_what_the_generator_writes(tmp_path, capsys):
    tool = _tool()
    bundled = (SCENARIOS / "dense-ruins.toml").read_text(encoding="utf-8")
    assert tool.dense_ruins() == bundled
    out = tmp_path / "again.toml"
    assert tool.main(["-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == bundled
    table = load(out)
    assert all(w.pw is not None for m in table.models for w in m.weapons)  # playable (E-ROLL-DMG needs PW)


def test_generator_writes_another_seed_to_stdout_and_leaves_the_bundled_file(capsys):
    tool = _tool()
    before = (SCENARIOS / "dense-ruins.toml").read_text(encoding="utf-8")
    assert tool.main(["-o", "-", "--seed", "7"]) == 0
    text = capsys.readouterr().out
    assert "(seed 7)" in text and text != before
    assert (SCENARIOS / "dense-ruins.toml").read_text(encoding="utf-8") == before
