"""Table analysis: questions about a whole table rather than one pair of models."""
