"""Tolerances of movement on the table, shared by Walk, Run, Climb and Jump."""

#: Heights closer than this (inches) are the same surface.
Z_TOL = 1e-3
#: Two pieces closer than this touch (E-CONTACT); the table's CONTACT_TOLERANCE.
CONTACT = 1e-3
