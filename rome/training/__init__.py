"""How RoMe's learned parts are trained (never imported by the metric itself).

``python -m rome.training.grammar`` trains the grammatical-acceptability classifier on CoLA;
``python -m rome.training.scorer`` trains the scorer network on self-supervised pairs from the
data layer's scorer-training split. :mod:`negatives` and :mod:`grammar_corruptions` build their
training examples, with code kept apart from ``perturbations/`` on purpose: the suites test
with those perturbations, so the scorer must not learn from the same generator.
"""
