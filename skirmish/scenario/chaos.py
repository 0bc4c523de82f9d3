"""The Chaos Party duel file (docs/chaos-format.md): players, their characters as
token counts, stores, the bag and the variants; checked against C-BUILD and C-TOKENS.

>>> duel = load_duel("scenarios/chaosparty/first-duel.toml")
>>> [p.id for p in duel.players], len(duel.players[0].characters)
(['red', 'blue'], 4)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import RuleInputError, ScenarioError
from ..rules.chaosparty.build import Duel, check_character
from ..rules.chaosparty.tokens import COLOURS, SLOTS, Character, Player, Tokens, Variants
from . import fields as F
from .fields import Entry, show
from .load import parse_toml, read_source

FORMAT = 1
GAME = "chaosparty"


def load_duel(path: str | Path) -> Duel:
    """Load and check a duel file."""
    return loads_duel(read_source(path, "duel"), str(path))


def loads_duel(text: str, source: str = "<string>") -> Duel:
    """Check duel text (``source`` names it in error messages)."""
    return duel_from_dict(parse_toml(text, source), source)


def _count(value: Any) -> int:
    n = F.integer(value)
    if n < 0:
        raise ValueError(f"expected a token count (0 or more), got {show(n)}")
    return n


def _tokens(entry: Entry) -> Tokens:
    t = Tokens(**{c: entry.take(c, _count, 0) for c in COLOURS})
    entry.done()
    return t


def duel_from_dict(data: dict[str, Any], source: str = "<dict>") -> Duel:
    """A :class:`Duel` from parsed TOML; every refusal names the file, the entry and the field."""
    top = Entry(source, "", data)
    fmt = top.take("format", F.integer)
    if fmt != FORMAT:
        raise top.error("format", f"expected {FORMAT} (the only format this version reads), got {show(fmt)}")
    if not isinstance(data.get("game"), str) and any(k in data for k in ("table", "map", "models", "regions", "rooms")):
        raise ScenarioError(f'{source}: a scenario with a map, not a Chaos Party duel (a duel file says '
                            f'game = "{GAME}"): `skirmish play` plays it')
    game = top.take("game", F.string)
    if game != GAME:
        raise top.error("game", f'expected "{GAME}" (a Chaos Party duel), got {show(game)}')
    name = top.take("name", F.string, "")
    variant_names = top.take("variants", F.list_of(F.one_of("unlimited", "superiority"), what="a list of variants"),
                             [])
    variants = Variants(unlimited="unlimited" in variant_names, superiority="superiority" in variant_names)
    max_turns = top.take("max_turns", F.integer, 200)
    if max_turns < 1:
        raise top.error("max_turns", f"expected 1 or more, got {max_turns}")
    bag = _tokens(top.child("bag")) if top.has("bag") else Tokens()
    raw_players = top.take("players", F.list_of(lambda v: v, min_n=2, what="a list of [[players]] (two or more)"))
    players = []
    for i, raw in enumerate(raw_players):
        pe = Entry(source, f"players[{i}]", raw)
        pid = pe.take("id", F.ident)
        pe.label = f'players[{i}] (id "{pid}")'
        store = _tokens(pe.child("store")) if pe.has("store") else Tokens()
        chars = []
        for j, rc in enumerate(pe.take("characters", F.list_of(lambda v: v, what="a list of characters"))):
            ce = Entry(source, f"{pe.label}: characters[{j}]", rc)
            cid = ce.take("id", F.ident)
            ce.label = f'{pe.label}: characters[{j}] (id "{cid}")'
            c = Character(cid, **{s: ce.take(s, _count, 0) for s in SLOTS})
            ce.done()
            try:
                check_character(c, variants)
            except RuleInputError as exc:
                raise ce.error(None, str(exc).split(": ", 1)[1]) from None
            chars.append(c)
        pe.done()
        players.append(Player(pid, tuple(chars), store))
    top.done()
    try:
        return Duel(name, tuple(players), bag, variants, max_turns)
    except RuleInputError as exc:
        raise ScenarioError(f"{source}: {exc}") from None


