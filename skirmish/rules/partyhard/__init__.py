"""Party Hard rules: elements, damage, shield, effects, the fight loop."""
