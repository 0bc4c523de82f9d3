"""Game rules: pure functions over values (no geometry, no I/O)."""
