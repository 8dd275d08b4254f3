"""The metric contract: validation, empty hypotheses, multi-reference, signatures, registry."""

from __future__ import annotations

import sys
import textwrap

import numpy as np
import pytest

from rome.core import registry
from rome.core.contract import Metric, Signature, normalize_pairs
from rome.core.errors import InputError


class WordOverlap(Metric):
    """A tiny metric used to test the base class: fraction of hypothesis words in the reference."""

    name = "word-overlap"

    def _score_pairs(self, hypotheses, references):
        out = []
        for h, r in zip(hypotheses, references):
            words = h.split()
            out.append(sum(w in r.split() for w in words) / len(words))
        return np.array(out)

    def _signature_fields(self):
        return [("tok", "space")]


def test_signature_renders_like_sacrebleu():
    sig = WordOverlap().signature()
    assert str(sig).startswith("word-overlap|tok:space|harness:")
    assert sig.as_dict()["tok"] == "space"
    assert str(Signature("x")) == "x"


def test_empty_hypothesis_gets_worst_score_not_nan():
    scores = WordOverlap().score(["", "   ", "a b"], ["a", "a", "a c"])
    assert scores.tolist() == [0.0, 0.0, 0.5]
    assert scores.dtype == np.float64


def test_multi_reference_takes_the_best():
    m = WordOverlap()
    assert m.score_one("a b", ["c d", "a x", "a b"]) == 1.0
    assert m.score(["a b", "c"], [["a"], "c"]).tolist() == [0.5, 1.0]


def test_lower_is_better_takes_the_minimum():
    class Distance(WordOverlap):
        name = "distance"
        higher_is_better = False

        def _score_pairs(self, hypotheses, references):
            return 1.0 - super()._score_pairs(hypotheses, references)

    assert Distance().score_one("a b", ["c d", "a x"]) == 0.5
    assert Distance().score_one("", "x") == 1.0  # empty: top of the range is worst


@pytest.mark.parametrize(
    ("hyps", "refs", "message"),
    [
        (None, ["a"], "must be"),
        (["a"], None, "must be"),
        ("abc", ["a"], "not a single string"),
        (["a", "b"], ["a"], "2 hypotheses but 1 references"),
        ([3], ["a"], "hypothesis #0 must be a string"),
        (["a"], [None], "reference #0"),
        (["a"], [[]], "reference #0"),
        (["a"], [["x", 5]], "reference #0 must be a string"),
    ],
)
def test_bad_input_is_a_clear_error(hyps, refs, message):
    with pytest.raises(InputError, match=message):
        normalize_pairs(hyps, refs)


#: texts that show nothing: zero-width space, byte-order mark, NUL, soft hyphen, a lone combining mark, mixes
INVISIBLE = ["\u200b", "\ufeff", "\x00", "\u00ad", "\u0301", " \u200b\u00ad \u2060 "]


class Recording(WordOverlap):
    """WordOverlap that keeps every text the contract hands to ``_score_pairs``."""

    name = "recording"

    def __init__(self):
        self.seen: list[str] = []

    def _score_pairs(self, hypotheses, references):
        self.seen += [*hypotheses, *references]
        return super()._score_pairs(hypotheses, references)


@pytest.mark.parametrize("blank", INVISIBLE)
def test_text_without_visible_characters_is_empty_on_either_side(blank):
    """Issue "ground" #4/#13: the contract decides once that text with no visible character is empty:
    such a hypothesis, or a pair whose references are all such text, gets the worst score, and no
    metric ever sees it (a blank reference beside a real one is dropped)."""
    metric = Recording()
    scores = metric.score([blank, "a b", "a b", "a\u0301 b"], ["a", blank, [blank, "a b"], "a\u0301 b"])
    assert scores.tolist() == [0.0, 0.0, 1.0, 1.0]
    assert blank not in metric.seen and all(text.strip() for text in metric.seen)


@pytest.mark.parametrize("text", ["a\ud800", "\udfff"])
def test_a_lone_surrogate_is_refused_by_the_contract(text):
    """Issue "ground" #12: a lone surrogate reached the metric (BLEU silently 0, RoMe a TypeError)."""
    with pytest.raises(InputError, match="hypothesis #0.*surrogate"):
        WordOverlap().score([text], ["a"])
    with pytest.raises(InputError, match="reference #1.*surrogate"):
        WordOverlap().score(["a", "b"], ["a", ["b", text]])


def test_build_metrics_refuses_a_bare_string():
    """Issue "ground" #12: ``build_metrics("bleu", None)`` iterated the string ("unknown metric 'b'")."""
    with pytest.raises(InputError, match="list of metric names"):
        registry.build_metrics("bleu", None)
    with pytest.raises(InputError, match="list of metric names"):
        registry.expand_metric_names("bleu")
    assert list(registry.build_metrics(["bleu"])) == ["bleu"]


def test_nan_from_a_metric_is_refused():
    class Broken(WordOverlap):
        name = "broken"

        def _score_pairs(self, hypotheses, references):
            return np.full(len(hypotheses), np.nan)

    with pytest.raises(RuntimeError, match="NaN"):
        Broken().score(["a"], ["a"])


def test_runtime_registration_and_unknown_names():
    registry.register("word-overlap")(WordOverlap)
    try:
        assert "word-overlap" in registry.available_metrics()
        assert registry.build_metric("word-overlap").score_one("a", "a") == 1.0
        # --model reaches encoder-based metrics only; an option a metric does not take is an error
        assert registry.build_metrics(["word-overlap"], model="ignored")["word-overlap"].score_one("a", "a") == 1.0
        with pytest.raises(InputError, match="takes no option 'modle'"):
            registry.build_metric("word-overlap", modle="x")
        assert registry.expand_metric_names(["word-overlap", "bleu", "word-overlap"]) == ["word-overlap", "bleu"]
    finally:
        registry.unregister("word-overlap")
    with pytest.raises(InputError, match="unknown metric 'nope'"):
        registry.build_metric("nope")
    with pytest.raises(TypeError):
        registry.register("bad")(int)


def test_builtin_metrics_are_entry_points():
    names = registry.available_metrics()
    assert {"bleu", "chrf", "ter", "meteor"} <= set(names)
    assert all("/" not in n for n in registry.available_metrics(include_variants=False))


def test_third_party_entry_point_plugin(tmp_path, monkeypatch):
    """A package installed with an entry point in ``rome_harness.metrics`` is found by name."""
    pkg = tmp_path / "my_metric_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(
        textwrap.dedent(
            """
            import numpy as np
            from rome.core.contract import Metric

            class LengthRatio(Metric):
                name = "length-ratio"

                def _score_pairs(self, hypotheses, references):
                    return np.array([min(len(h), len(r)) / max(len(h), len(r)) for h, r in zip(hypotheses, references)])
            """
        )
    )
    dist = tmp_path / "my_metric_pkg-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: my-metric-pkg\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[rome_harness.metrics]\nlength-ratio = my_metric_pkg:LengthRatio\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert "length-ratio" in registry.available_metrics()
    metric = registry.build_metric("length-ratio")
    assert metric.score(["abcd", ""], ["ab", "x"]).tolist() == [0.5, 0.0]
    sys.modules.pop("my_metric_pkg", None)
