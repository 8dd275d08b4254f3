"""Collect suite files (``SUITE = Suite(...)``) as tests: one per metric x check.

The hooks live in :mod:`suites.harness.plugin`; re-exporting them here keeps the plugin
active for ``suites/`` only, so ``pytest tests`` is unaffected.
"""

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from suites.harness.plugin import (  # noqa: E402, F401
    pytest_addoption,
    pytest_collect_file,
    pytest_sessionfinish,
    pytest_terminal_summary,
)
