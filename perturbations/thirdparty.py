"""Lazy, offline imports of textattack and checklist: the one place that knows their quirks.

Both are named dependencies but awkward offline; ``scripts/install_extras.sh`` installs them without flair
and jupyter, and their imports need the following:

* textattack 0.3.11 imports ``flair`` at module level (and subclasses ``flair.data.Tokenizer``) although
  flair is only used by its flair taggers; flair needs ``transformers<5``. A tiny stand-in module named
  ``flair`` (:func:`_flair_stand_in`, not a copy of flair) is registered while textattack imports. Its
  first import also calls ``nltk.download``/``stanza.download`` and logging's ``dictConfig``, and builds
  a default ``StopwordModification`` from ``nltk.corpus.stopwords``: it reads the project's function words
  instead (:class:`_FunctionWordsCorpus`; the perturbations pass them explicitly anyway).
* checklist's ``Perturb`` imports ``pattern.en``, which looks for WordNet, ``wordnet_ic`` and
  ``sentiwordnet`` on NLTK's path and reads an information-content file at import (stand-ins from
  :func:`rome.core.nltk_data.pattern_stand_ins`), and whose first call raises ``RuntimeError: generator
  raised StopIteration`` (PEP 479) once: we warm it up.

Every such stand-in and patch lives only while the import runs (:func:`_import_scope`): afterwards
``sys.modules`` holds no stand-in ``flair``, ``nltk.download``, logging, the environment, the warning
filters, NLTK's path and its corpus loaders are what they were, so a user's code in the same process
sees none of it. The packages keep what they bound while importing (textattack's references to the
stand-in, which only its flair taggers use; pattern's own WordNet readers).

Callers use :func:`textattack` / :func:`checklist_perturb`, which raise :class:`ThirdPartyMissing`
(a :class:`~rome.core.errors.ResourceMissingError`) with an install hint, or :func:`available` to
pick a reduced pure-Python path and say what is lost.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import logging
import os
import sys
import threading
import types
import warnings
from collections.abc import Iterator
from typing import Any

from rome.core.errors import ResourceMissingError

INSTALL_HINT = "install it with `bash scripts/install_extras.sh PYTHON` (see README)"
#: the modules the flair stand-in registers (and removes again)
FLAIR_MODULES = ("flair", "flair.data", "flair.models")
#: NLTK's corpus loaders pattern binds at import: it gets loaders of its own, NLTK's stay untouched
PATTERN_CORPORA = ("wordnet", "wordnet_ic", "sentiwordnet")
#: NLTK's corpus loaders the imports read, replaced while they run
SCOPED_CORPORA = ("stopwords", *PATTERN_CORPORA)
_lock = threading.RLock()
_modules: dict[str, Any] = {}
_errors: dict[str, str] = {}


class ThirdPartyMissing(ResourceMissingError):
    """textattack or checklist cannot be imported here."""


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


def _flair_importable() -> bool:
    """Whether a real flair imports here (then textattack uses it and no stand-in is needed)."""
    if importlib.util.find_spec("flair") is None:
        return False
    try:
        importlib.import_module("flair")
    except (ImportError, AttributeError):  # broken against transformers 5: a name it imports, or reads, is gone
        for name in FLAIR_MODULES:
            sys.modules.pop(name, None)
        return False
    return True


class _FunctionWordsCorpus:
    """``nltk.corpus.stopwords`` while textattack imports: the function words, for the default
    ``StopwordModification`` its augmentation recipes build at import (NLTK's own list is not installed)."""

    def words(self, fileids: str | None = None) -> list[str]:
        from perturbations.language.function_words import FUNCTION_WORDS

        return sorted(FUNCTION_WORDS)


def _pattern_corpora() -> dict[str, Any]:
    """Corpus loaders of pattern's own: the project's WordNet reader, and loaders built as NLTK builds
    ``wordnet_ic`` and ``sentiwordnet`` (they load, from the stand-ins, while pattern imports)."""
    from nltk.corpus.reader import SentiWordNetCorpusReader, WordNetICCorpusReader
    from nltk.corpus.util import LazyCorpusLoader

    from rome.core import nltk_data

    return {"wordnet": nltk_data.wordnet(),
            "wordnet_ic": LazyCorpusLoader("wordnet_ic", WordNetICCorpusReader, r".*\.dat"),
            "sentiwordnet": LazyCorpusLoader("sentiwordnet", SentiWordNetCorpusReader, "SentiWordNet_3.0.0.txt",
                                             encoding="utf-8")}


@contextlib.contextmanager
def _import_scope(flair: bool = False, pattern: bool = False) -> Iterator[None]:
    """What textattack's (``flair``) or checklist's (``pattern``) import needs, undone when it ends.

    Inside: the flair stand-in in ``sys.modules`` (unless a real flair imports), ``nltk.download`` and
    ``stanza.download`` as no-ops (offline they only fail slowly), INFO logging off, and for pattern the
    project's WordNet and the stand-ins at the front of NLTK's path, with corpus loaders of its own in
    ``nltk.corpus`` for pattern to bind. After: all of that, the environment, the warning filters and the
    loggers' state as they were.
    """
    import nltk
    import nltk.corpus

    from rome.core import nltk_data

    wordnet_root = nltk_data.register()
    saved_path, saved_env = list(nltk.data.path), dict(os.environ)
    saved_corpora = {name: getattr(nltk.corpus, name) for name in SCOPED_CORPORA}
    saved_calls = [(nltk, "download", nltk.download)]
    stanza = sys.modules.get("stanza")
    if stanza is not None and hasattr(stanza, "download"):
        saved_calls.append((stanza, "download", stanza.download))
    loggers = {lg: (lg.disabled, lg.level, list(lg.handlers)) for lg in logging.Logger.manager.loggerDict.values()
               if isinstance(lg, logging.Logger)}
    root = (logging.root.level, list(logging.root.handlers), logging.root.manager.disable)
    stand_in: dict[str, types.ModuleType] = {}
    with warnings.catch_warnings():  # the filters the imports add (spaCy's, IPython's) are dropped after
        try:
            nltk.download = lambda *a, **k: False
            if stanza is not None and hasattr(stanza, "download"):
                stanza.download = lambda *a, **k: None
            logging.disable(logging.INFO)  # textattack logs its post-install at INFO
            if flair and "flair" not in sys.modules and not _flair_importable():
                module = _flair_stand_in()
                stand_in = {"flair": module, "flair.data": module.data, "flair.models": module.models}
                sys.modules.update(stand_in)
            if flair:
                nltk.corpus.stopwords = _FunctionWordsCorpus()
            if pattern:
                nltk.data.path[:0] = [str(wordnet_root), str(nltk_data.pattern_stand_ins())]
                for name, loader in _pattern_corpora().items():
                    setattr(nltk.corpus, name, loader)
            yield
        finally:
            for owner, name, value in saved_calls:
                setattr(owner, name, value)
            for name, module in stand_in.items():
                if sys.modules.get(name) is module:
                    del sys.modules[name]
            nltk.data.path[:] = saved_path
            for name, loader in saved_corpora.items():
                setattr(nltk.corpus, name, loader)
            for key in set(os.environ) - set(saved_env):
                del os.environ[key]
            os.environ.update({k: v for k, v in saved_env.items() if os.environ.get(k) != v})
            logging.root.setLevel(root[0])
            logging.root.handlers[:] = root[1]
            logging.disable(root[2])
            # textattack's dictConfig disables every logger created before it: their state comes back
            for lg, (disabled, level, handlers) in loggers.items():
                lg.disabled, lg.handlers[:] = disabled, handlers
                lg.setLevel(level)


def _import(name: str, loader, **scope: bool) -> Any:
    with _lock:
        if name in _modules:
            return _modules[name]
        if name in _errors:
            raise ThirdPartyMissing(_errors[name])
        try:
            with _import_scope(**scope):
                module = loader()
        except ResourceMissingError:
            raise
        except Exception as exc:  # ImportError, or a broken install failing at import
            _errors[name] = f"{name} is not usable here ({type(exc).__name__}: {exc}); {INSTALL_HINT}"
            raise ThirdPartyMissing(_errors[name]) from exc
        _modules[name] = module
        return module


def _load_textattack():
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
    return _import("textattack", _load_textattack, flair=True)


def checklist_perturb():
    """CheckList's ``Perturb`` class, imported offline with pattern warmed up."""
    return _import("checklist", _load_checklist, pattern=True)


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
