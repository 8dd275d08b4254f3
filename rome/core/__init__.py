"""Layer 0 of rome-harness: the shared contract, registry, encoder cache, parser and data helpers.

Data flows texts -> perturbations -> metrics (``rome``, ``baselines``) -> suites -> reports.
Everything here may be imported by every later layer; nothing here imports a later layer.
"""
