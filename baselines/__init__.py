"""Baseline metrics behind the shared contract (``rome.core.contract``).

Each module wraps the library that defines the metric (sacrebleu, nltk, bert-score,
moverscore) and is tested against it. Modules are found through the
``rome_harness.metrics`` entry points, never imported eagerly.
"""
