"""Skip a test whose optional extra is missing, or fail it where the install promised the extra.

``tox`` sets ``ROME_REQUIRE_EXTRAS=1``: there ``scripts/install.sh`` has installed every test
extra (moverscore + pyemd, zss, ray, selenium, textattack, checklist), so a missing one is a
broken install and must turn the run red instead of hiding behind a skip. A plain ``pytest``
in a partial environment still skips, saying what to install. The system browser for the
annotation test is a Debian package (only root can install it), so it has its own switch,
``ROME_REQUIRE_BROWSER=1``.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import NoReturn

import pytest

REQUIRE_EXTRAS = "ROME_REQUIRE_EXTRAS"
REQUIRE_BROWSER = "ROME_REQUIRE_BROWSER"


def required(variable: str = REQUIRE_EXTRAS) -> bool:
    return os.environ.get(variable, "").strip() not in ("", "0", "false", "no")


def missing(reason: str, variable: str = REQUIRE_EXTRAS, module_level: bool = False) -> NoReturn:
    """Skip with ``reason``, or fail with it when ``variable`` says the install provides this."""
    if required(variable):
        pytest.fail(f"{reason} ({variable}=1: the install should provide it; rerun scripts/install.sh)",
                    pytrace=False)
    pytest.skip(reason, allow_module_level=module_level)


def import_or_missing(name: str, reason: str, module_level: bool = False) -> ModuleType:
    """``pytest.importorskip`` that fails instead of skipping under ``ROME_REQUIRE_EXTRAS=1``."""
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        missing(f"{reason} ({exc})", module_level=module_level)
