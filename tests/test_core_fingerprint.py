"""Signatures change when a number can change (issue #11): code edits and weight swaps miss the cache.

Everything is done on copies in a temporary folder: a metric module written there, copies of
RoMe's committed weights; nothing committed is modified.
"""

from __future__ import annotations

import importlib
import os
import shutil
import sys
from pathlib import Path

import pytest

from rome.core import fingerprint
from rome.core.cache import ScoreCache
from rome.core.engine import FitCorpus, ScoringEngine
from rome.core.registry import build_metric, register, unregister

METRIC_SOURCE = '''
import numpy as np

from rome.core.contract import Metric

class Constant(Metric):
    """A metric whose every score is VALUE (edited by the test)."""

    name = "constant_for_test"
    calls = 0

    def _score_pairs(self, hypotheses, references):
        type(self).calls += len(hypotheses)
        return np.full(len(hypotheses), VALUE)
'''


def write_metric(folder: Path, value: str) -> type:
    path = folder / "fingerprint_metric_4711.py"
    path.write_text(METRIC_SOURCE.replace("VALUE", value), encoding="utf-8")
    if "fingerprint_metric_4711" in sys.modules:
        module = importlib.reload(sys.modules["fingerprint_metric_4711"])
    else:
        module = importlib.import_module("fingerprint_metric_4711")
    register("constant_for_test")(module.Constant)
    return module.Constant


@pytest.fixture(autouse=True)
def no_bytecode(monkeypatch):
    """Modules edited and reloaded within one second keep their size and mtime: Python would reuse the
    stale ``.pyc`` (seen on a fresh clone), so these tests compile from source every time."""
    monkeypatch.setattr(sys, "dont_write_bytecode", True)


@pytest.fixture
def metric_folder(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    unregister("constant_for_test")
    sys.modules.pop("fingerprint_metric_4711", None)


PAIRS = (["the hotel is cheap", "a quiet bar"], ["the hotel is inexpensive", "a bar"])


def _score(cache: ScoreCache) -> list[float]:
    pairs = list(zip(*PAIRS))
    engine = ScoringEngine({"constant": build_metric("constant_for_test")}, cache)
    return engine.score(pairs, FitCorpus.of("two pairs", pairs))["constant"].tolist()


def test_editing_a_metric_source_misses_the_cache(metric_folder):
    cache = ScoreCache(metric_folder / "scores.sqlite")
    first = write_metric(metric_folder, "0.25")
    assert _score(cache) == [0.25, 0.25]
    assert _score(cache) == [0.25, 0.25]
    assert first.calls == 2 and cache.hits == 2  # the second call came from the cache
    edited = write_metric(metric_folder, "0.75")  # same length: only the content differs
    assert _score(cache) == [0.75, 0.75]
    assert edited.calls == 2, "the edited metric was scored, not served from the cache"


def test_an_edit_keeping_size_and_modification_time_still_changes_the_digest(tmp_path):
    """A file system with coarse timestamps (or a restored mtime) must not serve a stale digest."""
    path = tmp_path / "module.py"
    path.write_text("VALUE = 0.25\n", encoding="utf-8")
    before = fingerprint.file_digest(path)
    stat = path.stat()
    path.write_text("VALUE = 0.75\n", encoding="utf-8")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert path.stat().st_size == stat.st_size and path.stat().st_mtime_ns == stat.st_mtime_ns
    assert fingerprint.file_digest(path) != before


def test_an_old_file_is_hashed_once_a_fresh_one_every_time(tmp_path, monkeypatch):
    path = tmp_path / "old.py"
    path.write_text("x = 1\n", encoding="utf-8")
    first = fingerprint.file_digest(path)
    assert not any(key[0] == str(path.resolve()) for key in fingerprint._memo)  # just written: racy
    monkeypatch.setattr(fingerprint, "RACY_S", 0.0)  # as if written long ago (ctime cannot be set back)
    assert fingerprint.file_digest(path) == first
    reads = []
    real_open = Path.open

    def counting_open(self, *args, **kwargs):
        reads.append(self)
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", counting_open)
    assert fingerprint.file_digest(path) == first and reads == []  # memoised: one stat, no read


# -- RoMe: scorer and grammar weights by hash -----------------------------------------------
@pytest.fixture
def weights_copy(tmp_path, monkeypatch):
    """RoMe's committed weights copied to a temporary folder that the scorer loader reads."""
    from rome.metric import scorer

    folder = tmp_path / "weights"
    shutil.copytree(scorer.WEIGHTS_DIR, folder, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    monkeypatch.setattr(scorer, "WEIGHTS_DIR", folder)
    return folder


def flip_last_digit(path: Path) -> None:
    """Change one weight of a JSON weights file by one unit in its last printed digit."""
    text = path.read_text(encoding="utf-8")
    index = max(i for i, ch in enumerate(text) if ch.isdigit())
    path.write_text(text[:index] + str((int(text[index]) + 1) % 10) + text[index + 1:], encoding="utf-8")


@pytest.mark.parametrize("variant,feature_set", [("ted", "ted"), ("grammar", "full")])
def test_swapping_the_scorer_weights_changes_rome_signature(weights_copy, variant, feature_set):
    from rome.metric import RoMe

    committed = str(RoMe(variant=variant).signature())
    flip_last_digit(weights_copy / f"scorer_{feature_set}.json")
    changed = str(RoMe(variant=variant).signature())
    assert changed != committed
    field = next(f for f in changed.split("|") if f.startswith("scorer:"))
    assert field not in committed  # the scorer field itself names the new weights
    assert RoMe(variant="emd_std").signature() == RoMe(variant="emd_std").signature()


def test_swapping_the_grammar_weights_changes_rome_signature(tmp_path):
    from rome.metric import RoMe
    from rome.metric.grammar import DEFAULT_WEIGHTS

    copy = tmp_path / DEFAULT_WEIGHTS.name
    shutil.copy(DEFAULT_WEIGHTS, copy)
    shutil.copy(DEFAULT_WEIGHTS.with_suffix(".json"), copy.with_suffix(".json"))

    def grammar_field(metric) -> str:
        return next(f for f in str(metric.signature()).split("|") if f.startswith("grammar:"))

    committed = grammar_field(RoMe())
    assert grammar_field(RoMe(grammar=str(copy))) == committed  # same bytes, same signature
    data = bytearray(copy.read_bytes())
    data[-1] ^= 0x01  # one bit of the last tensor
    copy.write_bytes(bytes(data))
    assert grammar_field(RoMe(grammar=str(copy))) != committed


@pytest.mark.slow
def test_a_user_grammar_classifier_signs_by_its_weights(tmp_path):
    from rome.core.errors import InputError
    from rome.metric import RoMe
    from rome.metric.grammar import DEFAULT_WEIGHTS, GrammarClassifier

    copy = tmp_path / "mine.safetensors"
    shutil.copy(DEFAULT_WEIGHTS, copy)
    shutil.copy(DEFAULT_WEIGHTS.with_suffix(".json"), copy.with_suffix(".json"))
    mine = GrammarClassifier.load(copy)
    signed = str(RoMe(grammar=mine).signature())
    assert "grammar:user:mine.safetensors:" in signed
    data = bytearray(copy.read_bytes())
    data[-1] ^= 0x01
    copy.write_bytes(bytes(data))
    assert str(RoMe(grammar=GrammarClassifier.load(copy)).signature()) != signed

    class NoFingerprint:
        def prob_acceptable(self, texts):
            return [0.5 for _ in texts]

    with pytest.raises(InputError, match="fingerprint"):
        RoMe(grammar=NoFingerprint()).signature()


def test_a_classifier_changed_in_memory_changes_rome_signature(tmp_path):
    import torch

    from rome.metric import RoMe
    from rome.metric.grammar import DEFAULT_WEIGHTS, GrammarClassifier

    classifier = GrammarClassifier.load(DEFAULT_WEIGHTS)
    before = str(RoMe(grammar=classifier).signature())
    with torch.no_grad():
        classifier.module.head.bias += 1.0  # e.g. fine-tuned further in a notebook
    assert str(RoMe(grammar=classifier).signature()) != before


# -- perturbations: a source change rebuilds the cached suite cases ---------------------------
PERTURBATION_SOURCE = '''
from perturbations.base import Perturbation, Result, Variant

class Doubler(Perturbation):
    kind = "doubler_for_test"
    calls = 0

    def _apply(self, text, rng):
        type(self).calls += 1
        words = text.split()
        return Result(text, (Variant(" ".join(words + words[-COUNT:]), self.kind, "decrease"),))
'''


def test_a_perturbation_source_change_rebuilds_cached_suite_cases(tmp_path, monkeypatch):
    from suites.harness import Decrease, Novikova, Suite
    from suites.harness.runner import SuiteRun
    from suites.harness.spec import perturbation_fingerprint

    folder = tmp_path / "myperturbations"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))
    cache = ScoreCache(tmp_path / "scores.sqlite")

    def build(count: int):
        (folder / "doubler_4711.py").write_text(PERTURBATION_SOURCE.replace("COUNT", str(count)), encoding="utf-8")
        if "doubler_4711" in sys.modules:
            return importlib.reload(sys.modules["doubler_4711"]).Doubler
        return importlib.import_module("doubler_4711").Doubler

    try:
        def run(cls):
            suite = Suite(name="fingerprint_test", data=Novikova(), n=5, seed=1, perturbation=cls(),
                          metrics=["bleu"], checks=[Decrease()])
            return SuiteRun(suite, cache=cache).cases

        one = build(1)
        first = run(one)
        assert one.calls >= 5 and len(first) == 5
        one.calls = 0
        assert run(one) == first and one.calls == 0  # cached: not perturbed again
        before = perturbation_fingerprint(one())
        two = build(2)
        assert perturbation_fingerprint(two()) != before
        second = run(two)
        assert two.calls >= 5 and second != first
        assert all(len(b.variant.split()) == len(a.variant.split()) + 1 for a, b in zip(first, second))
    finally:
        sys.modules.pop("doubler_4711", None)


def test_a_helper_the_perturbation_imports_is_part_of_its_fingerprint(tmp_path, monkeypatch):
    """Perturbations share helpers (``passive.py`` -> ``_clause.py``): editing a helper a perturbation
    imports re-keys it; a file beside it that it does not import does not (its cached cases stay valid)."""
    from suites.harness.spec import perturbation_fingerprint

    package = tmp_path / "pkg_4712"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "_helper.py").write_text("HELPER = 1\n", encoding="utf-8")
    source = PERTURBATION_SOURCE.replace("COUNT", "1") + "\n\ndef _uses_helper():\n    from pkg_4712 import _helper\n"
    (package / "doubler.py").write_text(source, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        doubler = importlib.import_module("pkg_4712.doubler").Doubler()
        before = perturbation_fingerprint(doubler)
        (package / "_unrelated.py").write_text("OTHER = 1\n", encoding="utf-8")
        assert perturbation_fingerprint(doubler) == before
        (package / "_helper.py").write_text("HELPER = 2\n", encoding="utf-8")
        assert perturbation_fingerprint(doubler) != before
    finally:
        for name in ("pkg_4712.doubler", "pkg_4712"):
            sys.modules.pop(name, None)


# -- one fingerprint: every project module imported, transitively, and the data files read -----
@pytest.fixture
def rome_copy(tmp_path, monkeypatch):
    """The ``rome`` package's sources copied to a temporary folder that fingerprints read instead of the
    checkout's (the modules running stay the checkout's: only the hashed files are the copies)."""
    import rome

    copy = tmp_path / "rome"
    shutil.copytree(Path(rome.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__", "weights", "*.json",
                                                                                      "*.safetensors", "datasets"))
    monkeypatch.setitem(fingerprint._root_memo, "rome", [copy])
    return copy


def _touch(path: Path) -> None:
    """A code edit (a comment would not count: fingerprints ignore comments)."""
    path.write_text(path.read_text(encoding="utf-8") + "\n_EDITED_FOR_TEST = 1\n", encoding="utf-8")


def test_editing_a_module_a_perturbation_imports_from_another_package_changes_its_fingerprint(rome_copy):
    """passive.py imports rome/core/parsing.py (through _clause.py / _protected.py), outside perturbations/."""
    from perturbations.registry import build_perturbation
    from suites.harness.spec import perturbation_fingerprint

    passive = build_perturbation("passive")
    closure = fingerprint.module_closure(type(passive))
    assert "rome.core.parsing" in closure and "rome.core.cache" not in closure
    assert not any(name.startswith("rome.data") for name in closure)  # no perturbation reads a corpus
    assert closure["rome.core.parsing"] == (rome_copy / "core" / "parsing.py").resolve()
    before = perturbation_fingerprint(passive)
    _touch(rome_copy / "core" / "cache.py")  # not imported by the perturbation: its cached cases stay valid
    assert perturbation_fingerprint(passive) == before
    _touch(rome_copy / "core" / "parsing.py")
    assert perturbation_fingerprint(passive) != before


def test_editing_the_data_a_module_reads_changes_its_fingerprint(tmp_path, monkeypatch):
    """rome.data.novikova names the Novikova files it reads (``fingerprint_files``): code that imports it
    (RoMe's scorer training) is fingerprinted with their content."""
    import rome.data.novikova as novikova
    import rome.training.scorer as training
    from rome.core.paths import data_dir

    copy = tmp_path / "datasets"
    shutil.copytree(data_dir() / "novikova2017", copy / "novikova2017")
    monkeypatch.setattr(novikova, "data_dir", lambda: copy)
    assert "rome.data.novikova" in fingerprint.module_closure(training)
    before = fingerprint.code_fingerprint(training)
    bagel = copy / "novikova2017" / "bagel.jsonl"
    bagel.chmod(0o644)
    bagel.write_bytes(bagel.read_bytes().replace(b"riverside", b"riversidE", 1))
    assert fingerprint.code_fingerprint(training) != before


def test_a_metric_code_hash_covers_the_project_modules_it_imports_transitively(rome_copy):
    """MoverScore imports the encoder, which imports rome/core/hub.py: editing hub.py re-signs MoverScore."""
    from baselines.moverscore import MoverScore
    from baselines.sacrebleu_metrics import BLEU

    metric = MoverScore()
    assert "rome.core.hub" in fingerprint.module_closure(*type(metric).__mro__)
    mover, bleu = metric.code_fingerprint(), BLEU().code_fingerprint()
    _touch(rome_copy / "core" / "hub.py")
    assert metric.code_fingerprint() != mover
    assert BLEU().code_fingerprint() == bleu  # BLEU imports no encoder


def test_editing_a_suite_data_file_rebuilds_its_cached_cases(tmp_path):
    """The case-cache key holds the data file's hash: same path and settings, new content, new cases."""
    from suites.harness import Decrease, JsonlPairs, Suite
    from suites.harness.runner import SuiteRun

    class Doubled(__import__("perturbations.base", fromlist=["Perturbation"]).Perturbation):
        kind = "doubled_for_test"
        calls = 0

        def _apply(self, text, rng):
            from perturbations.base import Result, Variant

            type(self).calls += 1
            return Result(text, (Variant(text + " " + text, self.kind, "decrease"),))

    data = tmp_path / "pairs.jsonl"
    data.write_text('{"id": "a", "reference": "the hotel is cheap", "original": "a cheap hotel"}\n', encoding="utf-8")
    cache = ScoreCache(tmp_path / "scores.sqlite")

    def cases():
        suite = Suite(name="data_hash_test", data=JsonlPairs(str(data)), perturbation=Doubled(), metrics=["bleu"],
                      checks=[Decrease()])
        return SuiteRun(suite, cache=cache).cases

    first = cases()
    assert cases() == first and Doubled.calls == 1  # the second run came from the case cache
    data.write_text('{"id": "a", "reference": "the hotel is cheap", "original": "an inexpensive hotel"}\n',
                    encoding="utf-8")
    second = cases()
    assert Doubled.calls == 2 and second[0].original == "an inexpensive hotel"


def test_the_fingerprint_does_not_depend_on_where_the_checkout_sits(tmp_path, monkeypatch):
    """Files were hashed in the order of their absolute paths, so a data file outside the checkout (the
    shared Novikova files) came before or after the code depending on where the checkout sat: a CI clone or
    a git worktree gave every card of a data-reading perturbation another fingerprint (STALE)."""
    import importlib.util
    import sys

    from rome.core.fingerprint import code_fingerprint

    data = tmp_path / "mmm" / "rows.jsonl"
    data.parent.mkdir()
    data.write_text('{"a": 1}\n')
    prints = []
    for place in ("aaa", "zzz"):  # a checkout sorting before, then after, the data folder
        folder = tmp_path / place
        folder.mkdir()
        (folder / "reader.py").write_text("def fingerprint_files():\n    return []\n")
        spec = importlib.util.spec_from_file_location(f"reader_{place}", folder / "reader.py")
        module = importlib.util.module_from_spec(spec)
        monkeypatch.setitem(sys.modules, f"reader_{place}", module)
        spec.loader.exec_module(module)
        prints.append(code_fingerprint(module, files=[data]))
    assert prints[0] == prints[1]
