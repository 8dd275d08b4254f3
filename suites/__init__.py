"""Layer 3: declarative robustness suites, run with pytest or ``rome suite``."""
