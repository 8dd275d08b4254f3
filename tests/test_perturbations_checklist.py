"""CheckList typos and contractions, and the offline import of textattack/checklist."""

from __future__ import annotations

import logging
import sys
from collections import Counter

import pytest
from require_extras import missing

from perturbations import thirdparty as _thirdparty
from perturbations.base import apply_edits
from perturbations.contractions import Contractions
from perturbations.typos import Typos

#: created at collection, before any test imports textattack (whose dictConfig disables loggers)
EARLY_LOGGER = logging.getLogger("rome.test.logger.before.textattack")


def need_checklist():
    if not _thirdparty.available("checklist"):
        missing(f"checklist not importable: {_thirdparty.missing_reason('checklist')}")
    return _thirdparty.checklist_perturb()


#: contractions read on the parse (more rows in perturbations/contractions/examples.py)
CONTRACTIONS = [
    ("She isn't here.", ["She is not here."]),
    ("We're late and they can't come.", ["We are late and they cannot come."]),
    ("It is what it is.", ["It's what it is."]),  # the stranded second "is" stays
    ("He is not happy.", ["He's not happy."]),
    ("I am sure that you are right.", ["I'm sure that you're right."]),
]


@pytest.mark.parametrize("text,expected", CONTRACTIONS)
def test_contractions_table(text, expected):
    result = Contractions().apply(text, 0)
    assert [v.text for v in result.variants] == expected
    for variant in result.variants:
        assert variant.expectation == "invariant" and variant.meta["backend"] == "spacy-rules"
        assert apply_edits(text, list(variant.edits)) == variant.text


def test_no_contraction_is_skipped():
    result = Contractions().apply("The hotel has a pool .", 0)
    assert not result.variants and "contract" in result.skipped


#: NL-Augmenter style: (text, slip, seed) -> expected variant
TYPO_TABLE = [
    ("The phone number of hotel X is 4152257377 .", "in_word", 0, "The phone number of ohtel X is 4152257377 ."),
    ("The phone number of hotel X is 4152257377 .", "in_word", 2, "Teh phone number of hotel X is 4152257377 ."),
    ("The phone number of hotel X is 4152257377 .", "space", 0, "The phone number o fhotel X is 4152257377 ."),
    ("The phone number of hotel X is 4152257377 .", "space", 2, "Th ephone number of hotel X is 4152257377 ."),
]


@pytest.mark.parametrize("text,slip,seed,expected", TYPO_TABLE)
def test_typo_table(text, slip, seed, expected):
    (variant,) = Typos(slip=slip).apply(text, seed).variants
    assert variant.text == expected and variant.expectation == "decrease" and variant.meta["slip"] == slip


@pytest.mark.parametrize("n_typos", [1, 3])
@pytest.mark.parametrize("slip", ["in_word", "space"])
def test_typos_are_neighbour_swaps_of_their_kind(slip, n_typos):
    p = Typos(n_typos=n_typos, slip=slip)
    text = "There are 182 restaurants near X that serve Italian food , call 4152257377 ."
    for seed in range(20):
        (variant,) = p.apply(text, seed).variants
        assert len(variant.text) == len(text) and Counter(variant.text) == Counter(text)
        differing = [i for i, (a, b) in enumerate(zip(text, variant.text)) if a != b]
        assert 2 <= len(differing) <= 2 * n_typos
        assert all(not text[i].isdigit() and text[i] != "X" for i in differing)  # digits and X untouched
        if slip == "in_word":
            assert all(text[i].isalpha() for i in differing)
            assert variant.text.split() != text.split() and len(variant.text.split()) == len(text.split())
        else:
            assert any(text[i] == " " for i in differing)
        assert apply_edits(text, list(variant.edits)) == variant.text
        assert p.apply(text, seed) == p.apply(text, seed)


def test_typos_touch_digits_only_when_asked():
    text = "Call 41 52 ."
    assert {Typos(slip="in_word", digits=True).apply(text, s).variants[0].text for s in range(10)} >= {"Call 14 52 ."}
    assert Typos(slip="in_word").apply("41 52 .", 0).skipped == "no place for a in-word slip"


def test_typo_cards_are_separate():
    assert Typos(slip="in_word").card_name() == "typos_in_word" and Typos(slip="space").card_name() == "typos_space"
    with pytest.raises(ValueError):
        Typos(slip="anywhere")


@pytest.mark.parametrize("text,reason", [("a", "no place"), ("aa", "no place"), ("", "empty")])
def test_typos_skip_with_reason(text, reason):
    assert reason in Typos().apply(text, 0).skipped


def test_textattack_imports_offline_with_flair_stand_in():
    """textattack imported against the flair stand-in keeps it (its flair taggers say flair is absent), but
    ``sys.modules`` does not: a user's ``import flair`` is not answered by it."""
    if not _thirdparty.available("textattack"):
        missing(f"textattack not importable: {_thirdparty.missing_reason('textattack')}")
    ta = _thirdparty.textattack()
    assert ta.shared.AttackedText("a b").words == ["a", "b"]
    flair = sys.modules["textattack.shared.attacked_text"].flair
    if getattr(flair, "__rome_stand_in__", False):
        assert not getattr(sys.modules.get("flair"), "__rome_stand_in__", False)
        with pytest.raises(_thirdparty.ThirdPartyMissing):
            flair.models.SequenceTagger.load("upos-fast")


def test_loggers_survive_textattack_import():
    """textattack's dictConfig disables existing loggers; the import helper re-enables them."""
    if not _thirdparty.available("textattack"):
        missing("textattack not importable")
    assert not EARLY_LOGGER.disabled


def test_pattern_is_warmed_up():
    need_checklist()
    from pattern.en import conjugate

    assert conjugate("be", "3sg") == "is"


SCOPE_SCRIPT = r"""
import json, logging, os, sys, warnings
import nltk, nltk.corpus
from perturbations import thirdparty
from perturbations.registry import build_perturbation
from rome.core import nltk_data
from rome.core.parsing import get_parser

# what the perturbations load besides textattack and checklist (spaCy, its model, WordNet), loaded first
get_parser().parse_one("John Smith visited Boston.")
nltk_data.wordnet()
before = {"env": dict(os.environ), "path": list(nltk.data.path), "download": nltk.download,
          "corpora": {n: getattr(nltk.corpus, n) for n in ("stopwords", "wordnet", "wordnet_ic", "sentiwordnet")},
          "filters": list(warnings.filters), "root": (logging.root.level, list(logging.root.handlers)),
          "early": logging.getLogger("rome.test.early")}
random_word = build_perturbation("random_word", use_textattack=True)
entity = build_perturbation("entity", use_checklist=True, pool={})
replaced = entity.apply("John Smith visited Boston yesterday.", 1).variants[0].meta["replacements"]
out = {"available": [thirdparty.available("textattack"), thirdparty.available("checklist")],
       "random_word": random_word.apply("The cheap hotel is near the park.", 1).variants[0].meta["backend"],
       "entity": sorted({r["source"] for r in replaced})}
out["flair"] = repr(sys.modules.get("flair"))
out["download_same"] = nltk.download is before["download"]
out["env_changed"] = sorted(k for k in set(os.environ) | set(before["env"]) if os.environ.get(k) != before["env"].get(k))
out["path_added"] = [p for p in nltk.data.path if p not in before["path"]]
out["path_order_kept"] = nltk.data.path[: len(before["path"])] == before["path"]
out["corpora_same"] = {n: getattr(nltk.corpus, n) is c for n, c in before["corpora"].items()}
out["filters_same"] = warnings.filters == before["filters"]
out["root_same"] = (logging.root.level, list(logging.root.handlers)) == before["root"]
out["early_logger_enabled"] = not before["early"].disabled
out["wordnet_last"] = nltk.data.path[-1] == str(nltk_data.data_dir())
print(json.dumps(out))
"""


@pytest.mark.slow
def test_third_party_stand_ins_and_patches_end_with_their_import(tmp_path):
    """After a textattack- and a CheckList-backed perturbation ran in a fresh process: no stand-in ``flair`` in
    ``sys.modules``; ``nltk.download``, the environment, NLTK's path and corpus loaders, the warning filters
    and logging as they were; pattern's stand-in files lie in the project's cache folder, never beside its
    WordNet (whose folder NLTK's path holds after the user's own, ``rome.core.nltk_data.register``)."""
    import json
    import os
    import subprocess

    if not (_thirdparty.available("textattack") and _thirdparty.available("checklist")):
        missing("textattack and checklist are needed for this test")
    env = {**os.environ, "ROME_NLTK_DATA": str(tmp_path / "nltk_data")}
    proc = subprocess.run([sys.executable, "-c", SCOPE_SCRIPT], capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["available"] == [True, True]
    assert out["random_word"] == "textattack" and out["entity"] == ["checklist"]
    assert out["flair"] == "None" and out["download_same"] and out["env_changed"] == []
    assert out["path_added"] == [] and out["path_order_kept"] and out["wordnet_last"]
    assert all(out["corpora_same"].values()), out["corpora_same"]
    assert out["filters_same"] and out["root_same"] and out["early_logger_enabled"]
    corpora = tmp_path / "nltk_data" / "corpora"
    assert sorted(p.name for p in corpora.iterdir()) == ["wordnet"]
    assert (tmp_path / "nltk_data" / "pattern-import" / "corpora" / "wordnet_ic" / "ic-brown.dat").is_file()


MISSING_SCRIPT = r"""
import json, sys
# a sentence the judge accepts a swap in (TextFooler abstains on most single sentences)
TEXTFOOLER_SOURCE = ("Apple's introduction of larger screens may have appealed to buyers who would "
                     "otherwise have purchased a Galaxy.")
sys.modules["textattack"] = None  # as if not installed: `import textattack` raises ImportError
sys.modules["checklist"] = None
from perturbations import thirdparty as _thirdparty
from perturbations.registry import build_perturbation
out = {"available": [_thirdparty.available("textattack"), _thirdparty.available("checklist")],
       "reason": _thirdparty.missing_reason("checklist")}
text = "John Smith isn't at the cheap restaurant in Boston."
for kind, opts in [("random_word", {}), ("typos", {}), ("contractions", {}), ("textfooler", {}),
                   ("entity", {"pool": {"GPE": ["Paris"]}})]:
    source = TEXTFOOLER_SOURCE if kind == "textfooler" else text
    variant = build_perturbation(kind, **opts).apply(source, 0 if kind == "textfooler" else 1).variants[0]
    out[kind] = {"meta": variant.meta, "text": variant.text}
print(json.dumps(out))
"""


@pytest.mark.slow
def test_every_kind_works_without_textattack_and_checklist():
    import json
    import subprocess

    proc = subprocess.run([sys.executable, "-c", MISSING_SCRIPT], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["available"] == [False, False]
    assert "install_extras.sh" in out["reason"]
    assert out["random_word"]["meta"]["backend"] == "python"
    assert out["typos"]["meta"]["slip"] == "in_word"
    assert out["contractions"]["text"] == "John Smith is not at the cheap restaurant in Boston."
    assert out["textfooler"]["meta"]["word_source"] == "wordnet-3.0"
    assert out["entity"]["text"] == "John Smith isn't at the cheap restaurant in Paris."
    assert "only the dataset pool" in out["entity"]["meta"]["note"]
