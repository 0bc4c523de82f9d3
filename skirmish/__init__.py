"""skirmish: a continuous-space engine for miniatures skirmish games."""

__version__ = "0.1.0"
