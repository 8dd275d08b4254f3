"""Test set-up: offline always (a test must never wait for a network), and hermetic.

Every test process gets its own empty score cache and output folder (``ROME_CACHE_DIR``,
``ROME_OUT``; subprocesses inherit them), so no test reads scores a previous run, another
project checkout or the user left in ``~/.cache/rome-harness``, and nothing is written into
the working directory: a second ``tox`` run starts from the same state as the first.
"""

import os
import shutil
import tempfile
from pathlib import Path

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
os.environ["HF_DATASETS_OFFLINE"] = "1"
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("MPLBACKEND", "Agg")

_SANDBOX = Path(tempfile.mkdtemp(prefix="rome-tests-"))
os.environ["ROME_CACHE_DIR"] = str(_SANDBOX / "cache")
os.environ["ROME_OUT"] = str(_SANDBOX / "out")


def pytest_sessionfinish(session, exitstatus):
    shutil.rmtree(_SANDBOX, ignore_errors=True)


def pytest_collection_modifyitems(session, config, items):
    """Tests marked ``long`` or ``slow`` run first: on two workers (tox) the long ones then overlap while the
    short ones fill in around them, instead of one long test running alone at the end."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None and item.get_closest_marker("slow") is None)
