"""GRUEN (Zhu & Bhat, Findings of EMNLP 2020): reference-free linguistic quality, offline.

The score of an output is ``min(1, max(0, y_g + y_r + y_f))`` over its sentences (Punkt), with the
paper's modules and constants (§3), each also a variant of its own:

* **grammaticality** ``y_g``: per sentence ``s_i`` a likelihood feature ``l_i`` plus a grammar
  acceptance feature ``g_i``, averaged over the sentences (the paper's ``sum_i (l_i + g_i) / n``),
  then ``max(0, y / 8 + 0.5)`` (the authors' released rescaling; the paper gives no constants).

  - ``l_i`` (``gruen/likelihood``): the paper's unigram approximation, ``sum_j log p(w_j | the rest)``
    with each word piece masked in turn (a pseudo-log-likelihood), from the project's context model
    (:mod:`baselines.context`: all-mpnet-base-v2's layer 6 and a masked-LM head) instead of BERT-base,
    mapped as the release maps its BERT score: ``exp(-0.5 * perplexity)`` with the perplexity
    ``exp(-sum / pieces)``. Where the release departs from the paper, the paper is followed: the
    release reads BERT *without masking* (``labels=input_ids``: each token is predicted while
    visible) and averages the perplexities of an output's sentences before mapping them; here each
    piece is masked and each sentence mapped before the average. ``gruen/likelihood`` reports the
    feature alone as the geometric-mean piece probability ``1 / perplexity`` (the same order on
    one-sentence outputs; ``exp(-0.5 * perplexity) / 8`` vanishes next to 0.5 in double precision
    once the perplexity passes about 70, so the rescaled form would tie most outputs).
  - ``g_i`` (``gruen/grammar``): the project's CoLA classifier (:mod:`rome.metric.grammar`, MiniLM
    fine-tuned on CoLA) instead of a fine-tuned BERT-base: its single acceptability logit ``z`` is
    used as the class-1 logit of the equivalent two-way head, ``z / 2`` (the release adds the raw
    class-1 logit). ``gruen/grammar`` is ``y_g`` from this feature alone.
* **non-redundancy** ``y_r`` (``gruen/redundancy``): for every pair of sentences, one flag per
  feature past its threshold: longest common substring > 80 % of the shorter sentence's
  characters; that substring's word count > 80 % of the shorter sentence's words; edit distance
  < 60 % of the longer sentence's characters; common words > 80 % of the shorter sentence's
  words; ``y_r = -0.1 x flags``. As in the authors' release, the features are read only when one
  sentence of the pair has at least 5 words, and an identical or contained sentence counts 4 flags.
* **focus** ``y_f`` (``gruen/focus``): Word Mover Similarity ``exp(-WMD)`` (Kusner et al. 2015)
  of each pair of adjacent sentences, on the shared encoder's token vectors (the paper does not
  name its word vectors; the release uses spaCy's ``en_core_web_md``, not available here); a pair
  below 0.05 costs -0.1, once per output, as in the release.
* **structure and coherence** (sentence-order prediction with ALBERT) is **left out**: no
  ALBERT checkpoint ships in a package here, and the paper's ablation (§5.1) finds it adds little.

Sentence splitting and clean-up follow the authors' release: dots get a space after them,
``3. 5``-like splits of numbers become ``UNK``, and sentences of fewer than two words (punctuation
removed) are dropped. Punkt runs untrained (nltk's default parameters), because Punkt's English
model is a download. docs/baselines.md has the measured effect of each departure.
"""

from __future__ import annotations

import functools
import math
import re
import string
import threading
from collections import OrderedDict
from collections.abc import Sequence
from difflib import SequenceMatcher
from itertools import combinations
from pathlib import Path

import numpy as np

from rome.core.contract import Metric

#: GRUEN's parts: the grammaticality module's two features (likelihood ``l_i``, grammar acceptance
#: ``g_i``), then the non-redundancy and focus modules
PARTS = ("likelihood", "grammar", "redundancy", "focus")
#: ``gruen``'s parts: the likelihood feature only in ``gruen/paper`` (:class:`GRUEN`'s docstring says why)
DEFAULT_PARTS = ("grammar", "redundancy", "focus")
GRAMMATICALITY_FEATURES = ("likelihood", "grammar")
#: the release's map of a sentence's perplexity to the likelihood feature: ``exp(-LIKELIHOOD_DECAY * ppl)``
LIKELIHOOD_DECAY = 0.5
#: the release's rescaling of the grammaticality score: ``max(0, y / GRAMMAR_DIVISOR + GRAMMAR_OFFSET)``
GRAMMAR_DIVISOR, GRAMMAR_OFFSET = 8.0, 0.5
#: sentences whose pseudo-log-likelihood is kept per process (:func:`clear_likelihood_cache`)
LIKELIHOOD_CACHE_SIZE = 65536
#: §3: a redundancy flag and a focus penalty each cost 0.1
PENALTY = 0.1
#: §3 thresholds of the four inter-sentence features (fractions of the shorter / longer sentence)
SUBSTRING_SHARE, SUBSTRING_WORDS_SHARE, EDIT_SHARE, COMMON_WORDS_SHARE = 0.8, 0.8, 0.6, 0.8
#: the release reads the four features only when a sentence of the pair has this many words
MIN_WORDS_FOR_FEATURES = 5
#: §3: adjacent sentences whose word mover similarity is below this cost a focus penalty
FOCUS_THRESHOLD = 0.05
_PUNCT_TABLE = str.maketrans("", "", string.punctuation)
_NUMBER_SPLIT = re.compile(r"(\d+)\. (\d+)")
_likelihood_cache: OrderedDict[tuple[str, str], tuple[float, int]] = OrderedDict()
_likelihood_lock = threading.Lock()


# -- sentences ------------------------------------------------------------------------------
def clean_text(text: str) -> str:
    """The release's clean-up: newlines and dots end sentences, spaces collapse, split numbers -> UNK."""
    text = text.strip()
    for old, new in (("\n\n", ". "), ("\n", ". "), ("..", "."), (".", ". "), (". . ", ". "), (".  . ", ". ")):
        text = new.join(text.split(old))
    text = re.sub(r" {2,}", " ", text)
    match = _NUMBER_SPLIT.search(text)
    while match:
        text = text.replace(match.group(), "UNK")
        match = _NUMBER_SPLIT.search(text)
    return text.strip()


@functools.lru_cache(maxsize=1)
def _sentence_splitter():
    """One Punkt tokenizer for the process: a new one compiles (and ReDoS-checks) its regular expressions
    on its first text, which took five times as long as the splitting itself."""
    from nltk.tokenize.punkt import PunktSentenceTokenizer

    return PunktSentenceTokenizer()


def split_sentences(text: str) -> list[str]:
    """Punkt sentences of the cleaned text that keep at least two words once punctuation is removed."""
    sentences = _sentence_splitter().tokenize(clean_text(text))
    return [s for s in sentences if len(s.translate(_PUNCT_TABLE).split()) > 1]


# -- non-redundancy ---------------------------------------------------------------------------
def redundancy_flags(a: str, b: str) -> int:
    """How many of the four features say sentences ``a`` and ``b`` repeat each other (0-4)."""
    import editdistance

    a, b = a.strip(), b.strip()
    if a in b or b in a:
        return 4
    words_a, words_b = a.split(), b.split()
    if max(len(words_a), len(words_b)) < MIN_WORDS_FOR_FEATURES:
        return 0
    match = SequenceMatcher(None, a, b, autojunk=False).find_longest_match(0, len(a), 0, len(b))
    shorter_words = min(len(words_a), len(words_b))
    flags = int(match.size > SUBSTRING_SHARE * min(len(a), len(b)))
    flags += int(len(a[match.a : match.a + match.size].split()) > SUBSTRING_WORDS_SHARE * shorter_words)
    flags += int(editdistance.eval(a, b) < EDIT_SHARE * max(len(a), len(b)))
    flags += int(sum(w in words_b for w in words_a) > COMMON_WORDS_SHARE * shorter_words)
    return flags


def redundancy_score(sentences: Sequence[str]) -> float:
    """``-0.1 x`` the flags over every pair of sentences."""
    return -PENALTY * sum(redundancy_flags(a, b) for a, b in combinations(sentences, 2))


# -- focus --------------------------------------------------------------------------------------
def word_mover_similarity(a: np.ndarray, b: np.ndarray) -> float:
    """``exp(-WMD)``: uniform mass on each side's L2-normalised token vectors, Euclidean ground
    distance (POT). Unit vectors are the encoder's cosine geometry (as BERTScore and MoverScore
    read it); they bound WMD by 2, so the similarity is at least ``exp(-2)`` = 0.135."""
    import ot

    a = a / np.maximum(np.linalg.norm(a, axis=1, keepdims=True), 1e-12)
    b = b / np.maximum(np.linalg.norm(b, axis=1, keepdims=True), 1e-12)
    cost = np.sqrt(np.maximum(((a[:, None, :] - b[None, :, :]) ** 2).sum(-1), 0.0)).astype(np.float64)
    mass_a, mass_b = np.full(len(a), 1.0 / len(a)), np.full(len(b), 1.0 / len(b))
    return float(np.exp(-ot.emd2(mass_a, mass_b, cost)))


# -- likelihood ----------------------------------------------------------------------------------
def likelihood_feature(mean_log_prob: float) -> float:
    """The release's likelihood feature of a sentence, ``exp(-0.5 * perplexity)``, from its mean log-probability
    per word piece (perplexity ``exp(-mean)``); 0 for a sentence without pieces."""
    if not math.isfinite(mean_log_prob):
        return 0.0
    return math.exp(-LIKELIHOOD_DECAY * math.exp(-mean_log_prob))


def clear_likelihood_cache() -> None:
    """Forget every cached pseudo-log-likelihood (the bench times each metric cold)."""
    with _likelihood_lock:
        _likelihood_cache.clear()


def sentence_log_probs(sentences: Sequence[str]) -> dict[str, float]:
    """Mean log-probability per word piece of each distinct sentence, each piece masked in turn (the
    context model's pseudo-log-likelihood over its pieces); ``-inf`` for a sentence without pieces.

    Kept per process by the model's signature: ``gruen`` and ``gruen/likelihood`` of one run share the pass."""
    from baselines.context.model import get_context_model

    model = get_context_model()
    key = model.signature()
    distinct = list(dict.fromkeys(sentences))
    with _likelihood_lock:
        found = {s: _likelihood_cache[(key, s)] for s in distinct if (key, s) in _likelihood_cache}
    missing = [s for s in distinct if s not in found]
    if missing:
        computed = model.pseudo_log_likelihood(missing)
        found.update(zip(missing, computed))
        with _likelihood_lock:
            for sentence, value in zip(missing, computed):
                _likelihood_cache[(key, sentence)] = value
            while len(_likelihood_cache) > LIKELIHOOD_CACHE_SIZE:
                _likelihood_cache.popitem(last=False)
    return {s: (total / n if n else -math.inf) for s, (total, n) in found.items()}


def _per_output(values: np.ndarray, outputs: list[list[str]], empty: float) -> np.ndarray:
    """The mean of each output's sentences' ``values`` (flattened in order); ``empty`` for no sentence."""
    out, start = np.full(len(outputs), empty), 0
    for i, sentences in enumerate(outputs):
        if sentences:
            out[i] = float(values[start : start + len(sentences)].mean())
        start += len(sentences)
    return out


class GRUEN(Metric):
    """GRUEN's grammar acceptance, non-redundancy and focus modules; ``gruen/paper`` adds the likelihood
    feature (see the module docstring).

    Why ``gruen`` leaves the likelihood out: read through the context model, a sentence's pseudo-perplexity
    is in the hundreds, where the release's ``exp(-0.5 * perplexity) / 8`` is below double precision next to
    0.5, so the feature moved no BAGEL or SFHOTEL output's score by 5e-5 (docs/baselines.md), while it costs
    one encoder pass per word piece, about thirty times the rest of GRUEN. ``gruen/paper`` computes it."""

    name = "gruen"
    needs_reference = False
    score_range = (0.0, 1.0)
    parts: tuple[str, ...] = DEFAULT_PARTS

    def __init__(self) -> None:
        from rome.metric.grammar import default_precision

        self._classifier = None
        #: the CoLA classifier's precision, read once: the signature and the pass always agree
        self._precision = default_precision()

    # -- models, loaded on the first score ------------------------------------------------------
    @property
    def classifier(self):
        if self._classifier is None:
            from rome.metric.grammar import load_default

            self._classifier = load_default(self._precision)
        return self._classifier

    def fingerprint_files(self) -> list[Path]:
        from rome.core import encoder
        from rome.metric import grammar

        return [Path(encoder.__file__), Path(grammar.__file__), grammar.DEFAULT_WEIGHTS,
                grammar.DEFAULT_WEIGHTS.with_suffix(".json")]

    def models(self) -> list[str]:
        """The models the scores come from, by signature: the context model for the likelihood feature, the
        shared encoder (MiniLM) under the CoLA classifier and the focus module. The robustness table marks
        the rows whose perturbation chose its variants with one of them."""
        found = []
        if "likelihood" in self.parts:
            from baselines.context.model import get_context_model

            found.append(get_context_model().signature())
        if {"grammar", "focus"} & set(self.parts):
            from rome.core.encoder import get_encoder

            found.append(get_encoder().name)
        return found

    # -- modules ----------------------------------------------------------------------------------
    def sentence_features(self, outputs: list[list[str]]) -> np.ndarray:
        """``l_i + g_i`` per sentence (flattened over the outputs, in order), with the features this metric has."""
        flat = [s for sentences in outputs for s in sentences]
        values = np.zeros(len(flat))
        if not flat:
            return values
        if "likelihood" in self.parts:
            log_probs = sentence_log_probs(flat)
            values += [likelihood_feature(log_probs[s]) for s in flat]
        if "grammar" in self.parts:
            values += self.classifier.logits(flat) / 2.0
        return values

    def grammar_scores(self, outputs: list[list[str]]) -> np.ndarray:
        """``y_g`` per output: the mean of its sentences' ``l_i + g_i``, rescaled as the release does."""
        means = _per_output(self.sentence_features(outputs), outputs, empty=0.0)
        return np.maximum(0.0, means / GRAMMAR_DIVISOR + GRAMMAR_OFFSET)

    def likelihood_scores(self, outputs: list[list[str]]) -> np.ndarray:
        """The likelihood feature alone, per output: the mean over its sentences of ``1 / perplexity`` (the
        geometric-mean probability of a word piece), 0 for an output without sentences."""
        flat = [s for sentences in outputs for s in sentences]
        log_probs = sentence_log_probs(flat) if flat else {}
        return _per_output(np.exp([log_probs[s] for s in flat]), outputs, empty=0.0)

    def focus_scores(self, outputs: list[list[str]]) -> np.ndarray:
        """``y_f`` per output: -0.1 when some pair of adjacent sentences is below the threshold."""
        out = np.zeros(len(outputs))
        multi = [i for i, sentences in enumerate(outputs) if len(sentences) > 1]
        if not multi:
            return out
        from rome.core.encoder import get_encoder

        texts = list(dict.fromkeys(s for i in multi for s in outputs[i]))
        vectors = {e.text: e.vectors[[k for k, span in enumerate(e.offsets) if span != (0, 0)]]
                   for e in get_encoder().encode(texts)}
        for i in multi:
            sims = [word_mover_similarity(vectors[a], vectors[b])
                    for a, b in zip(outputs[i], outputs[i][1:]) if len(vectors[a]) and len(vectors[b])]
            if sims and min(sims) < FOCUS_THRESHOLD:
                out[i] = -PENALTY
        return out

    def module_scores(self, hypotheses: Sequence[str]) -> dict[str, np.ndarray]:
        """Each module's score per hypothesis (sentences split once): ``grammar`` (``y_g``), ``redundancy``,
        ``focus``; the likelihood feature alone (``gruen/likelihood``) under ``likelihood``."""
        outputs = [split_sentences(h) for h in hypotheses]
        scores: dict[str, np.ndarray] = {}
        if self.parts == ("likelihood",):
            scores["likelihood"] = self.likelihood_scores(outputs)
        elif set(GRAMMATICALITY_FEATURES) & set(self.parts):
            scores["grammar"] = self.grammar_scores(outputs)
        if "redundancy" in self.parts:
            scores["redundancy"] = np.array([redundancy_score(s) for s in outputs])
        if "focus" in self.parts:
            scores["focus"] = self.focus_scores(outputs)
        return scores

    def _score_pairs(self, hypotheses: list[str], references: list[str]) -> np.ndarray:
        """The reference is ignored: GRUEN reads the output alone."""
        total = sum(self.module_scores(hypotheses).values())
        return np.clip(total, *self.score_range)

    def _score_multi(self, hypotheses: list[str], references: list[list[str]]) -> np.ndarray:
        return self._score_pairs(hypotheses, [""] * len(hypotheses))

    def _signature_fields(self) -> list[tuple[str, object]]:
        from rome.metric.grammar import weights_fingerprint

        lm = "none"
        if "likelihood" in self.parts:
            from baselines.context.model import get_context_model

            lm = f"{get_context_model().signature()}:pll:exp(-{LIKELIHOOD_DECAY}*ppl)"
        return [("modules", "+".join(self.parts)), ("lm", lm),
                ("cola", weights_fingerprint() if "grammar" in self.parts else "none"),
                ("cola-precision", self._precision if "grammar" in self.parts else "none"),
                ("focus", "wms:all-MiniLM-L6-v2" if "focus" in self.parts else "none"), ("sop", "none")]


class GRUENModule(GRUEN):
    """One GRUEN part alone, as the paper's ablations read them.

    Grammaticality from grammar acceptance alone stays in [0, 1], as does the likelihood feature; a penalty
    module's score is its penalty, in [-1, 0] (clipped at -1: ten flags, far past where the full score is 0
    anyway).
    """

    def __init__(self, part: str) -> None:
        super().__init__()
        if part not in PARTS:
            raise ValueError(f"no GRUEN part {part!r} (have: {', '.join(PARTS)})")
        self.parts = (part,)
        self.name = f"gruen/{part}"
        if part in ("redundancy", "focus"):
            self.score_range = (-1.0, 0.0)

    @property
    def worst_score(self) -> float:
        """An empty output: grammaticality and likelihood 0; nothing to repeat or lose focus on, so no penalty."""
        return 0.0


def gruen_paper() -> Metric:
    """``gruen/paper``: every module the paper has here, the likelihood feature included."""
    metric = GRUEN()
    metric.parts, metric.name = PARTS, "gruen/paper"
    return metric


def gruen_likelihood() -> Metric:
    """``gruen/likelihood``: the likelihood feature alone, ``1 / perplexity`` (the context model), in [0, 1]."""
    return GRUENModule("likelihood")


def gruen_grammar() -> Metric:
    """``gruen/grammar``: grammaticality from the grammar acceptance (CoLA) feature alone (see :class:`GRUEN`)."""
    return GRUENModule("grammar")


def gruen_redundancy() -> Metric:
    """``gruen/redundancy``: the non-redundancy penalty alone, in [-1, 0]."""
    return GRUENModule("redundancy")


def gruen_focus() -> Metric:
    """``gruen/focus``: the focus penalty alone, -0.1 or 0."""
    return GRUENModule("focus")


for _factory in (gruen_paper, gruen_likelihood, gruen_grammar, gruen_redundancy, gruen_focus):
    _factory.needs_reference = False  # read by the registry before building (rome score without references)
