"""Committed trained weights (small): the grammar classifier and the scorer network."""
