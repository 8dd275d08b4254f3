"""Set-up of the research scripts' own checks (``pytest scripts/research/tests``), run on demand.

They check the development tools of ``scripts/research/``, not the product: the product's test suite
(``tests/``) never imports a script. The same hermetic set-up as ``tests/conftest.py`` (offline, a fresh
score cache and output folder), and the research folder on the path so a test can load a script.
"""

import os
import shutil
import sys
import tempfile
from pathlib import Path

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
os.environ["HF_DATASETS_OFFLINE"] = "1"
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("MPLBACKEND", "Agg")

_SANDBOX = Path(tempfile.mkdtemp(prefix="rome-research-tests-"))
os.environ["ROME_CACHE_DIR"] = str(_SANDBOX / "cache")
os.environ["ROME_OUT"] = str(_SANDBOX / "out")
sys.path.insert(0, str(Path(__file__).resolve().parent))


def pytest_sessionfinish(session, exitstatus):
    shutil.rmtree(_SANDBOX, ignore_errors=True)
