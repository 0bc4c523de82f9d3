"""Small Eldfall game tables for the game tests."""

from __future__ import annotations

WEAPONS = """
[weapons.sword]
name = "Sword"
reach = 1
pw = 10
stk = "STA"

[weapons.bow]
name = "Bow"
bands = [[10, 0], [20, -3]]
pw = 9
attribute = "ACC"
"""


def model(mid: str, side: str, at: tuple[float, float], facing: float = 0, weapons: str = '["sword"]',
          attrs: str = "AGI = 6, SPD = 4, STA = 2, MEL = 12, ACC = 11, ARM = 1, HP = 2", extra: str = "") -> str:
    return (f'[[models]]\nid = "{mid}"\nside = "{side}"\nsize = "M"\nat = [{at[0]}, {at[1]}]\nfacing = {facing}\n'
            f"weapons = {weapons}\nattributes = {{ {attrs} }}\n{extra}\n")


def skirmish_text(game: str = "") -> str:
    """Two models a side on a 14" table with a wall in the middle."""
    models = (model("r1", "red", (3, 4), 0) + model("r2", "red", (3, 10), 0, '["bow", "sword"]')
              + model("b1", "blue", (11, 4), 180) + model("b2", "blue", (11, 10), 180, '["bow"]'))
    scenery = '[[scenery]]\nid = "wall"\nrect = [6.5, 6, 7.5, 8]\nheight = 3\n'
    return f"format = 1\n{WEAPONS}\n{game}\n[table]\nsize = [14, 14]\n{scenery}\n{models}"


def piece(pid: str, rect: tuple[float, float, float, float], height: float, walkable: bool = False) -> str:
    """A ``[[scenery]]`` box (a walkable top to climb onto or jump from, or a wall)."""
    return (f'[[scenery]]\nid = "{pid}"\nrect = [{", ".join(f"{v:g}" for v in rect)}]\nheight = {height:g}\n'
            + ("walkable = true\n" if walkable else ""))
