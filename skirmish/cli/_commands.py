"""The commands of the ``skirmish`` command line and their one-line help: each is the
module ``skirmish/cli/NAME.py``, whose ``register(subparsers)`` adds its sub-parser with
this help. The top-level help lists them from here, without importing their modules."""

COMMANDS: dict[str, str] = {
    "attack": "can A attack B as placed: LoS, reach band, cover, reaction and the exact odds",
    "chaos": "Chaos Party: exact odds of one attack, and whole duels",
    "check": "validate a scenario file and summarise it",
    "damage": "Party Hard damage (or healing) of one attack, term by term",
    "fight": "resolve a Party Hard fight in a room (seeded, logged)",
    "heatmap": "exposure heatmap: how many enemies see a model standing at each cell",
    "implant": "Implant solo: the d6 oracle's exact odds, seeded rolls and fights",
    "island": "Spirit island: the invaders' phase, distances, whole games",
    "los": "line of sight between two models, or all pairs, with its proof",
    "measure": "measure between two models (respects the measurement mode)",
    "move": "shortest legal path, check a declared path, or the movement range",
    "odds": "exact odds of an attack: Hits, Wounds, states",
    "play": "play whole games with policies (one logged game, or --games N)",
    "render": "draw the table to a PNG (headless, no display needed)",
    "roll": "roll one attack with a seed and print every die",
    "run": "play a scenario's [[script]] once, or many times",
    "template": "who an AoE template hits (and why), or its best placement",
    "view": "open the table in a window: select, see LoS, profile slices, measure, move, save",
}
