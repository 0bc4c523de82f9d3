"""Eldfall Chronicles rules: profiles, modifiers, d20 dice, exact odds."""
