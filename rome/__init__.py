"""rome-harness: a robustness harness for text-generation metrics, and the RoMe metric.

``rome.core`` is the shared base layer (contract, registry, encoder, parser); the other
modules of this package implement the RoMe metric; the command line is ``reports.cli``.
"""

__version__ = "0.1.0"
