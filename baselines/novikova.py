"""The word-based metrics of Novikova et al. (2017, Table 3) as the authors computed them.

Their released per-output scores (``emnlp_data_medians.csv``: ``Bleu_1..4``, ``ROUGE_L``,
``CIDEr``) carry the names and the numbers of the MS-COCO caption toolkit, so these metrics use
that toolkit's own scorers from the ``pycocoevalcap`` package (pure Python: ``BleuScorer`` with
its 1e-9 / 1e-15 sentence smoothing, ``Rouge`` with beta 1.2, ``CiderScorer`` = CIDEr-D with
sigma 6 and idf over the corpus's references). The toolkit's tokenizer is Stanford's PTB
tokenizer in Java; :func:`coco_tokens` is nltk's Treebank tokenizer (the same rules, in
Python) followed by the toolkit's punctuation removal, on lower-cased text. NIST is nltk's
``sentence_nist`` (5-grams; mteval's formula, information weights from the sentence's own
references). Readability (the CSV's ``sys.read.flesch``) is not here: ``textstat`` counts
syllables with nltk's CMU dictionary, a download.

All are registered as ``novikova/<name>``: a ``/`` name is a variant, left out of
``--metric all`` (each adds a column to every suite and table); ask for them by name.
docs/baselines.md gives their agreement with the released CSV, output by output.
"""

from __future__ import annotations

import numpy as np

from baselines._corpus import CorpusFittedMetric
from rome.core.contract import Metric

#: the caption toolkit's PTBTokenizer drops these tokens
COCO_PUNCTUATION = frozenset({"''", "'", "``", "`", "-LRB-", "-RRB-", "-LCB-", "-RCB-", ".", "?", "!",
                              ",", ":", "-", "--", "...", ";"})


def coco_tokens(text: str) -> str:
    """Lower-cased Treebank tokens without the toolkit's punctuation, joined by spaces."""
    from nltk.tokenize import TreebankWordTokenizer

    return " ".join(t for t in TreebankWordTokenizer().tokenize(text.lower()) if t not in COCO_PUNCTUATION)


class CocoBLEU(Metric):
    """Sentence BLEU-n of the caption toolkit (``BleuScorer``, closest reference length), 0-1."""

    def __init__(self, n: int = 4) -> None:
        if n not in (1, 2, 3, 4):
            from rome.core.errors import InputError

            raise InputError(f"BLEU order must be 1-4, got {n}")
        self.n = n
        self.name = f"novikova/bleu{n}"

    def _score_multi(self, hypotheses: list[str], references: list[list[str]]) -> np.ndarray:
        from pycocoevalcap.bleu.bleu_scorer import BleuScorer

        scorer = BleuScorer(n=4)
        for hyp, refs in zip(hypotheses, references):
            scorer += (coco_tokens(hyp), [coco_tokens(r) for r in refs])
        _, per_order = scorer.compute_score(option="closest", verbose=0)
        return np.asarray(per_order[self.n - 1], dtype=np.float64)

    def _score_pairs(self, hypotheses: list[str], references: list[str]) -> np.ndarray:
        return self._score_multi(hypotheses, [[r] for r in references])

    def _signature_fields(self) -> list[tuple[str, object]]:
        return [("n", self.n), ("pycocoevalcap", _version("pycocoevalcap")), ("tok", "treebank-lc-nopunct"),
                ("ref_len", "closest")]


class CocoROUGEL(Metric):
    """ROUGE-L of the caption toolkit: LCS precision and recall, best of each over the
    references, combined as F with beta 1.2."""

    name = "novikova/rouge_l"

    def _score_multi(self, hypotheses: list[str], references: list[list[str]]) -> np.ndarray:
        from pycocoevalcap.rouge.rouge import Rouge

        rouge = Rouge()
        return np.array([rouge.calc_score([coco_tokens(h)], [coco_tokens(r) for r in refs])
                         for h, refs in zip(hypotheses, references)], dtype=np.float64)

    def _score_pairs(self, hypotheses: list[str], references: list[str]) -> np.ndarray:
        return self._score_multi(hypotheses, [[r] for r in references])

    def _signature_fields(self) -> list[tuple[str, object]]:
        return [("pycocoevalcap", _version("pycocoevalcap")), ("tok", "treebank-lc-nopunct"), ("beta", 1.2)]


class CocoCIDEr(CorpusFittedMetric):
    """CIDEr-D of the caption toolkit (``CiderScorer``: n 1-4, sigma 6, x10, clipped counts).

    Its document frequencies come from the references of the whole corpus (a pair's score
    depends on the others): those of each ``score`` call, or of the corpus given to
    :meth:`prepare`, as the engines do. Range 0-10.
    """

    name = "novikova/cider"
    batch_dependent = True
    score_range = (0.0, 10.0)

    def _fit(self, hypotheses: list[str], references: list[list[str]]):
        from pycocoevalcap.cider.cider_scorer import CiderScorer

        scorer = CiderScorer(n=4, sigma=6.0)
        for refs in references:
            scorer.cook_append(None, [coco_tokens(r) for r in refs])
        scorer.compute_doc_freq()
        return scorer.document_frequency, float(np.log(float(len(scorer.crefs))))

    def _score_multi(self, hypotheses: list[str], references: list[list[str]]) -> np.ndarray:
        document_frequency, ref_len = self._stats()
        scorer = _corpus_cider_scorer(ref_len)
        for hyp, refs in zip(hypotheses, references):
            scorer.cook_append(coco_tokens(hyp), [coco_tokens(r) for r in refs])
        scorer.document_frequency = document_frequency
        return np.asarray(scorer.compute_cider(), dtype=np.float64)

    def _score_pairs(self, hypotheses: list[str], references: list[str]) -> np.ndarray:
        return self._score_multi(hypotheses, [[r] for r in references])

    def _signature_fields(self) -> list[tuple[str, object]]:
        return [("pycocoevalcap", _version("pycocoevalcap")), ("tok", "treebank-lc-nopunct"), ("variant", "D"),
                ("sigma", 6.0), ("idf", "corpus-references")]


def _corpus_cider_scorer(corpus_ref_len: float):
    """A ``CiderScorer`` whose idf statistics are the corpus's, not the scoring call's.

    ``compute_score`` would recount document frequencies over this call's references, and
    ``compute_cider`` resets ``ref_len`` (log of the number of reference sets) to this call's
    count; here ``document_frequency`` is set by the caller and ``ref_len`` ignores the reset,
    so a chunk of a prepared corpus scores as the whole corpus would.
    """
    from pycocoevalcap.cider.cider_scorer import CiderScorer

    class CorpusCiderScorer(CiderScorer):
        @property
        def ref_len(self) -> float:
            return corpus_ref_len

        @ref_len.setter
        def ref_len(self, value) -> None:
            pass

    return CorpusCiderScorer(n=4, sigma=6.0)


class NIST(Metric):
    """nltk's ``sentence_nist`` (n up to 5) on the caption toolkit's tokens; 0 for no overlap.

    nltk weighs each n-gram by its information in the sentence's own references (mteval reads
    the whole reference corpus), so a lone reference gives every n-gram weight 0.
    """

    name = "novikova/nist"
    score_range = (0.0, float("inf"))

    def _score_multi(self, hypotheses: list[str], references: list[list[str]]) -> np.ndarray:
        from nltk.translate.nist_score import sentence_nist

        out = []
        for hyp, refs in zip(hypotheses, references):
            hyp_tokens = coco_tokens(hyp).split()
            ref_tokens = [coco_tokens(r).split() for r in refs]
            # nltk divides by the hypothesis's count of each order's n-grams, so a hypothesis shorter
            # than 5 words stops at its own length: the longer orders have no n-gram to add (mteval's 0)
            out.append(sentence_nist(ref_tokens, hyp_tokens, n=min(5, len(hyp_tokens))) if hyp_tokens else 0.0)
        return np.asarray(out, dtype=np.float64)

    def _score_pairs(self, hypotheses: list[str], references: list[str]) -> np.ndarray:
        return self._score_multi(hypotheses, [[r] for r in references])

    @property
    def worst_score(self) -> float:
        return 0.0

    def _signature_fields(self) -> list[tuple[str, object]]:
        import nltk

        return [("nltk", nltk.__version__), ("n", 5), ("tok", "treebank-lc-nopunct")]


def _version(package: str) -> str:
    from importlib.metadata import version

    return version(package)


def bleu1() -> Metric:
    """``novikova/bleu1``: the caption toolkit's sentence BLEU-1."""
    return CocoBLEU(1)


def bleu2() -> Metric:
    """``novikova/bleu2``: the caption toolkit's sentence BLEU-2."""
    return CocoBLEU(2)


def bleu3() -> Metric:
    """``novikova/bleu3``: the caption toolkit's sentence BLEU-3."""
    return CocoBLEU(3)


def bleu4() -> Metric:
    """``novikova/bleu4``: the caption toolkit's sentence BLEU-4."""
    return CocoBLEU(4)

