"""Lazy, offline imports of textattack and checklist: the one place that knows their quirks.

Both are named dependencies but awkward offline (../shared/ENVIRONMENT.md, scripts/install_extras.sh):

* textattack 0.3.11 imports ``flair`` at module level (and subclasses ``flair.data.Tokenizer``) although
  flair is only used by its flair taggers; flair needs ``transformers<5``. We register a tiny stand-in
  module named ``flair`` (:func:`_flair_stand_in`, not a copy of flair) before importing it. Its first
  import also calls ``nltk.download``/``stanza.download``; we silence those calls while importing.
* checklist's ``Perturb`` imports ``pattern.en``, which looks for WordNet, ``wordnet_ic`` and
  ``sentiwordnet`` in NLTK's data path (``rome.core.nltk_data`` writes them) and whose first call
  raises ``RuntimeError: generator raised StopIteration`` (PEP 479) once: we warm it up.

Callers use :func:`textattack` / :func:`checklist_perturb`, which raise :class:`ThirdPartyMissing`
(a :class:`~rome.core.errors.ResourceMissingError`) with an install hint, or :func:`available` to
pick a reduced pure-Python path and say what is lost.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import os
import sys
import threading
import types
from typing import Any

from rome.core.errors import ResourceMissingError

INSTALL_HINT = "install it with `bash scripts/install_extras.sh PYTHON` (see README)"
_lock = threading.RLock()
_modules: dict[str, Any] = {}
_errors: dict[str, str] = {}


class ThirdPartyMissing(ResourceMissingError):
    """textattack or checklist cannot be imported here."""


def _offline_env() -> None:
    for key in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_DATASETS_OFFLINE"):
        os.environ.setdefault(key, "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    from rome.core import nltk_data

    nltk_data.ensure()


def _flair_stand_in() -> types.ModuleType:
    """A minimal ``flair`` for textattack's import-time references; taggers say flair is absent."""

    def _absent(*_args: Any, **_kwargs: Any) -> Any:
        raise ThirdPartyMissing("flair is not installed (textattack's flair taggers are unavailable)")

    class Tokenizer:  # textattack subclasses it (TextAttackFlairTokenizer)
        def tokenize(self, text: str) -> list[str]:
            raise NotImplementedError

    class Sentence:
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            _absent()

    class SequenceTagger:
        load = staticmethod(_absent)

    flair = types.ModuleType("flair")
    flair.__rome_stand_in__ = True  # type: ignore[attr-defined]
    flair.device = "cpu"  # type: ignore[attr-defined]
    data, models = types.ModuleType("flair.data"), types.ModuleType("flair.models")
    data.Tokenizer, data.Sentence, models.SequenceTagger = Tokenizer, Sentence, SequenceTagger  # type: ignore[attr-defined]
    flair.data, flair.models = data, models  # type: ignore[attr-defined]
    return flair


def _register_flair() -> None:
    if "flair" in sys.modules:
        return
    try:
        importlib.import_module("flair")
    except Exception:  # not installed, or broken against transformers 5
        flair = _flair_stand_in()
        sys.modules.update({"flair": flair, "flair.data": flair.data, "flair.models": flair.models})


@contextlib.contextmanager
def _no_downloads():
    """Turn ``nltk.download``/``stanza.download`` into no-ops (offline they only fail slowly)."""
    import nltk

    saved = [(nltk, "download", nltk.download)]
    nltk.download = lambda *a, **k: False
    stanza = sys.modules.get("stanza")
    if stanza is not None and hasattr(stanza, "download"):
        saved.append((stanza, "download", stanza.download))
        stanza.download = lambda *a, **k: None
    # textattack's import logs its post-install at INFO and calls logging.config.dictConfig, which
    # disables every logger created before it: keep INFO quiet, then re-enable those loggers.
    enabled = [lg for lg in logging.Logger.manager.loggerDict.values()
               if isinstance(lg, logging.Logger) and not lg.disabled]
    previous = logging.root.manager.disable
    logging.disable(logging.INFO)
    try:
        yield
    finally:
        for owner, name, value in saved:
            setattr(owner, name, value)
        logging.disable(previous)
        for lg in enabled:
            lg.disabled = False


def _import(name: str, loader) -> Any:
    with _lock:
        if name in _modules:
            return _modules[name]
        if name in _errors:
            raise ThirdPartyMissing(_errors[name])
        try:
            _offline_env()
            with _no_downloads():
                module = loader()
        except ResourceMissingError:
            raise
        except Exception as exc:  # ImportError, or a broken install failing at import
            _errors[name] = f"{name} is not usable here ({type(exc).__name__}: {exc}); {INSTALL_HINT}"
            raise ThirdPartyMissing(_errors[name]) from exc
        _modules[name] = module
        return module


def _load_textattack():
    _register_flair()
    import textattack
    import textattack.transformations  # noqa: F401  (swaps and constraints used by the perturbations)

    logging.getLogger("textattack").setLevel(logging.WARNING)
    return textattack


def _load_checklist():
    from checklist.perturb import Perturb
    from pattern.en import conjugate

    # pattern's first call raises PEP 479's RuntimeError once; later calls work
    with contextlib.suppress(RuntimeError):
        conjugate("be", "3sg")
    return Perturb


def textattack():
    """The ``textattack`` package, imported offline (≈ 8 s the first time: torch/transformers)."""
    return _import("textattack", _load_textattack)


def checklist_perturb():
    """CheckList's ``Perturb`` class, imported offline with pattern warmed up."""
    return _import("checklist", _load_checklist)


def available(name: str) -> bool:
    """Whether ``name`` ("textattack" or "checklist") imports here; never raises."""
    loader = {"textattack": textattack, "checklist": checklist_perturb}[name]
    try:
        loader()
    except ThirdPartyMissing:
        return False
    return True


def missing_reason(name: str) -> str | None:
    """Why ``name`` is unavailable (after :func:`available` returned False), else ``None``."""
    return None if available(name) else _errors.get(name, f"{name} is not available")


def numpy_seeded(seed: int, fn, *args, **kwargs):
    """Call a CheckList function under ``np.random.seed(seed)``, restoring NumPy's global state: CheckList
    draws from NumPy's global generator, and the caller's NumPy randomness must stay untouched."""
    import numpy as np

    state = np.random.get_state()
    np.random.seed(seed)
    try:
        return fn(*args, **kwargs)
    finally:
        np.random.set_state(state)
