"""Tolerances of movement on the table, shared by Walk, Run, Climb and Jump."""

#: Heights closer than this (inches) are the same surface.
Z_TOL = 1e-3
#: Two pieces closer than this touch (E-CONTACT); the table's CONTACT_TOLERANCE.
CONTACT = 1e-3

#: The longest table side and the greatest height skirmish accepts, in inches (20 ft):
#: larger tables, and points further off, are refused rather than searched for minutes.
MAX_EXTENT = 240.0
