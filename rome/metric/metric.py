"""RoMe as a metric of the harness: features (§3.1-3.3), the scorer (§3.4), the ablations (Table 5).

``RoMe()`` is the paper's full metric. The Table 5 rows are variants with their own names:

=================  ===================================================  ==================
name               what scores                                          paper row
=================  ===================================================  ==================
``rome/emd_std``   ``1 - EMD`` with ``d = 1 - cos`` (no alignment)      RoMe with EMD_std
``rome/align``     ``F_sem`` with hard alignment, hard position factor  + EMD_align
``rome/soft``      ``F_sem`` as §3.1 (alignment + soft penalisation)    + EMD_soft
``rome/ted``       scorer over ``(F_sem, F_ted)``                       + TED-SE
``rome/grammar``   scorer over ``(F_sem, F_ted, F_g)``                  + Grammar (= rome)
``rome/paper``     the paper's configuration (below)                    RoMe as published
=================  ===================================================  ==================

``rome/paper`` is the published RoMe on this project's encoder, parser, grammar classifier and
training data: ``F_sem`` of ``rome/soft`` (hard alignment + soft penalty), TED-SE over the
parser's own trees, ``F_g``, all without this project's word rules (plain cosines, plain TF-IDF
weights, no voice rule), combined by the paper's unconstrained two-layer feed-forward network
(``scorer_paper.json``, ``python -m rome.training.scorer --form paper``).

The scorers read the ``F_sem`` of ``rome/emd_std`` and subtract learned penalties for low
``F_ted`` and ``F_g`` from it (:class:`rome.metric.scorer.PenaltyScorer`). They read
``rome/emd_std``'s ``F_sem`` because, with MiniLM and word weights that are
distributions, the hard alignment and the position penalty lost accuracy on every development
set measured (passive rewrites, entity swaps, DEMETR; docs/rome.md, "Departures"), so the
full metric keeps the paper's EMD, features and scorer but not those two steps.

The grammar classifier (``rome.metric.grammar``) is loaded only when a variant needs ``F_g``;
while its weights are missing, ``rome`` and ``rome/grammar`` raise a one-line
:class:`ResourceMissingError` rather than invent a value, and ``rome/ted`` still works.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from rome.core.contract import Metric, Reference, has_visible_text, normalize_pairs
from rome.core.encoder import get_encoder
from rome.core.errors import InputError, ResourceMissingError
from rome.core.fingerprint import file_digest
from rome.core.parsing import get_parser
from rome.metric.grammar import (
    DEFAULT_WEIGHTS,
    GrammarClassifier,
    default_precision,
    load_default,
    weights_fingerprint,
)
from rome.metric.profiling import step
from rome.metric.scorer import Scorer, load_scorer, weights_path
from rome.metric.semantic import DELTA, GENERAL_IDF_PATH, IdfTable, semantic_similarity
from rome.metric.tree_edit import THETA, ted_similarity
from rome.metric.words import SKIPPED_POS, Words, analyse

#: variant -> (semantic mode, scorer feature set or None when F_sem is the score)
VARIANTS: dict[str, tuple[str, str | None]] = {
    "emd_std": ("std", None),
    "align": ("align", None),
    "soft": ("soft", None),
    "ted": ("std", "ted"),
    "grammar": ("std", "full"),
    "paper": ("soft", "paper"),
}
#: scorer feature sets that read F_g
GRAMMAR_SETS = ("full", "paper")


#: the damage the grammar classifier was pre-trained to call damaged (``rome.training.grammar_corruptions.DAMAGES``,
#: restated here because the metric never imports its training code; a test keeps the two equal)
GRAMMAR_DAMAGES = ("swap", "delete", "insert", "inflect", "move", "repeat")
#: the scorer's kind of positive training pair (``rome.training.negatives``): every other kind it records is damage
SCORER_POSITIVE_KIND = "paraphrase"


@dataclass(frozen=True)
class Components:
    """One pair's features and final score (Table 2's columns); ``None`` where not computed."""

    f_sem: float
    f_ted: float | None
    f_g: float | None
    score: float

    def as_dict(self) -> dict[str, float | None]:
        return asdict(self)


def load_grammar(source=None, precision: str | None = None):
    """The grammatical-acceptability classifier of §3.3, or a clear error when it cannot be had.

    ``source``: ``None`` (the committed weights), a ``.safetensors`` weights file of this
    project's format, a hub name or local directory of a sequence-classification CoLA model,
    or a classifier object with ``prob_acceptable(texts)`` (and, for its signature, ``fingerprint()``).
    ``precision``: of this project's classifier's pass (:func:`rome.metric.grammar.default_precision`
    when ``None``).
    """
    if source is not None and not isinstance(source, str | Path):
        return source
    try:
        if source is None:
            return load_default(precision)
        if str(source).endswith(".safetensors"):
            return GrammarClassifier.load(source, precision=precision)
        return GrammarClassifier.from_pretrained(str(source))
    except (OSError, ResourceMissingError) as exc:
        raise ResourceMissingError(
            f"RoMe needs the grammar classifier for F_g: {exc}; "
            "--metric rome/ted scores RoMe without the grammar feature"
        ) from exc


class RoMe(Metric):
    """RoMe (Rony et al.): EMD semantics, TED-SE syntax and grammaticality, combined by a network.

    Word weights are TF-IDF with ``idf="wordnet"`` (default: a fixed general-English table, so a
    pair's score never depends on the rest of the batch), ``idf="pair"`` (the pair's own two
    sentences, the first implementation) or ``idf_corpus`` (idf from the user's texts).
    """

    name = "rome"
    uses_encoder = True
    score_range = (0.0, 1.0)

    def __init__(
        self,
        model: str | None = None,
        layer: int | None = None,
        parser: str | None = None,
        variant: str = "grammar",
        delta: float = DELTA,
        theta: float = THETA,
        idf_corpus: Sequence[str] | None = None,
        grammar=None,
        idf: str = "wordnet",
    ) -> None:
        if variant not in VARIANTS:
            raise InputError(f"RoMe variant must be one of {', '.join(VARIANTS)}, got {variant!r}")
        self.variant = variant
        self.mode, self.feature_set = VARIANTS[variant]
        if variant != "grammar":
            self.name = f"rome/{variant}"
        self.encoder = get_encoder(model)
        self.layer, self.parser_name = layer, parser
        self.delta, self.theta = float(delta), float(theta)
        if idf not in ("wordnet", "pair"):
            raise InputError(f"RoMe idf must be 'wordnet' or 'pair', got {idf!r}")
        self.idf_mode = idf
        self._idf_corpus = list(idf_corpus) if idf_corpus is not None else None
        self._idf: IdfTable | None = None
        self._scorer: Scorer | None = None
        self._grammar_source = grammar
        self._grammar = grammar if grammar is not None and not isinstance(grammar, str | Path) else None
        #: this project's classifier's precision, read once: the signature and the pass always agree
        self._precision = (default_precision() if self.uses_grammar and self._grammar_weights_file() is not None
                           else None)

    # -- lazily loaded parts ----------------------------------------------------------------
    @property
    def parser(self):
        return get_parser(self.parser_name, entities=False)

    @property
    def uses_ted(self) -> bool:
        return self.feature_set is not None

    @property
    def uses_grammar(self) -> bool:
        return self.feature_set in GRAMMAR_SETS

    @property
    def rules(self) -> bool:
        """This project's word rules (lemmas, numbers, voice); ``rome/paper`` computes without them."""
        return self.variant != "paper"

    @property
    def scorer(self) -> Scorer | None:
        if self.feature_set is not None and self._scorer is None:
            self._scorer = load_scorer(self.feature_set)
        return self._scorer

    @property
    def grammar(self):
        if self._grammar is None:
            self._grammar = load_grammar(self._grammar_source, self._precision)
        return self._grammar

    def _idf_table(self) -> IdfTable | None:
        """The idf of every pair; ``None`` for ``idf="pair"`` (each pair fits its own)."""
        if self._idf_corpus is not None and self._idf is None:
            parsed = self.parser.parse([t.strip() for t in self._idf_corpus])
            self._idf = IdfTable(
                [[t.text.lower() for t in p.tokens if t.pos not in SKIPPED_POS] for p in parsed]
            )
        if self._idf is None and self.idf_mode == "wordnet":
            self._idf = IdfTable.general()
        return self._idf

    # -- scoring --------------------------------------------------------------------------------
    def features(self, hypotheses: list[str], references: list[str]) -> np.ndarray:
        """(n, 3) matrix of ``F_sem, F_ted, F_g``; columns this variant does not use are NaN."""
        if self.uses_grammar:
            _ = self.grammar  # fail before the expensive steps when the classifier is missing
        words = analyse([*references, *hypotheses], self.encoder, self.parser, self.layer)
        idf = self._idf_table()
        out = np.full((len(hypotheses), 3), np.nan)
        for row, (hyp, ref) in enumerate(zip(hypotheses, references)):
            out[row, :2] = self._pair_features(words[ref], words[hyp], idf)
        if self.uses_grammar:
            unique = list(dict.fromkeys(hypotheses))
            with step("grammar"):
                probs = dict(zip(unique, np.asarray(self.grammar.prob_acceptable(unique), dtype=np.float64)))
            out[:, 2] = [probs[h] for h in hypotheses]
        return out

    def _pair_features(self, ref: Words, hyp: Words, idf: IdfTable | None) -> tuple[float, float]:
        table = idf if idf is not None else IdfTable([ref.keys, hyp.keys], name="pair")
        with step("semantic_emd"):
            f_sem = semantic_similarity(ref, hyp, self.mode, self.delta, table, self.rules).f_sem
        if not self.uses_ted:
            return f_sem, np.nan
        with step("ted_se"):
            return f_sem, ted_similarity(ref, hyp, self.theta, self.rules)

    def _combine(self, feats: np.ndarray) -> np.ndarray:
        if self.scorer is None:
            return feats[:, 0]
        with step("scorer"):
            return self.scorer(feats[:, : len(self.scorer.features)])

    def _score_pairs(self, hypotheses: list[str], references: list[str]) -> np.ndarray:
        if self.uses_grammar:
            _ = self.grammar  # fail early, naming the missing part
        if self.feature_set is not None:
            _ = self.scorer
        return self._combine(self.features(hypotheses, references))

    # -- explanations -----------------------------------------------------------------------
    def components(self, hypothesis: str, reference: Reference) -> Components:
        """The features and final score of one pair (the best reference when several)."""
        hyps, refs = normalize_pairs([hypothesis], [reference])
        candidates = [ref for ref in refs[0] if has_visible_text(ref)]  # empty as the contract's score() sees it
        if not has_visible_text(hypothesis) or not candidates:
            return Components(0.0, None, None, self.worst_score)
        feats = self.features([hypothesis] * len(candidates), candidates)
        scores = self._combine(feats)
        best = int(np.argmax(scores))
        f_sem, f_ted, f_g = (None if np.isnan(v) else float(v) for v in feats[best])
        return Components(float(f_sem), f_ted, f_g, float(scores[best]))

    def explain(self, hypothesis: str, reference: Reference) -> dict[str, float]:
        """Table 2's row for one pair: the components and the final score, by display name."""
        parts = self.components(hypothesis, reference)
        out = {f"{self.name}.F_sem (EMD)": parts.f_sem}
        if parts.f_ted is not None:
            out[f"{self.name}.F_ted (TED-SE)"] = parts.f_ted
        if parts.f_g is not None:
            out[f"{self.name}.F_g (grammar)"] = parts.f_g
        out[self.name] = parts.score
        return out

    def _signature_fields(self) -> list[tuple[str, object]]:
        fields: list[tuple[str, object]] = [
            ("model", self.encoder.signature_name),
            ("layer", self.layer if self.layer is not None else "last"),
            ("emd", self.mode),
            ("delta", self.delta),
            ("idf", f"corpus:{len(self._idf_corpus)}" if self._idf_corpus is not None else self.idf_mode),
        ]
        if not self.rules:
            fields.append(("word-rules", "none"))
        if self.uses_ted:
            fields += [("ted", "zhang-shasha"), ("theta", self.theta), ("parser", self.parser.name)]
            fields.append(("scorer", f"{self.feature_set}:{file_digest(weights_path(self.feature_set))[:12]}"))
        if self.uses_grammar:
            fields.append(("grammar", self._grammar_fingerprint()))
            fields.append(("grammar-precision", self._grammar_precision()))
            fields.append(("scorer-grammar", self.scorer.meta.get("grammar_weights", "unknown")))
        return fields

    def trained_on_families(self) -> list[str]:
        """The damage a learned part of this RoMe was trained to penalise, by name (none for the untrained
        variants): the scorer's negative kinds (``shuffle``, ``truncation``, ...) and the harness perturbation
        kinds its weights list as theirs (``repetition``, ``entity``, ...), and, when it uses F_g, the grammar
        classifier's pre-training damage (:data:`GRAMMAR_DAMAGES`). Which report rows such damage covers (a
        suite, a DEMETR category) is the reports' reading (``reports.robustness``)."""
        if self.feature_set is None:
            return []
        meta = self.scorer.meta
        negatives = [k for k in meta.get("test_mean_score_by_kind", {}) if k != SCORER_POSITIVE_KIND]
        grammar = GRAMMAR_DAMAGES if self.uses_grammar else ()
        return sorted({*meta.get("perturbation_families", []), *negatives, *grammar})

    def _grammar_weights_file(self) -> Path | None:
        """The weights file of this project's format the classifier loads from (the committed one or a named
        ``.safetensors``); ``None`` for a hub model or a given object."""
        source = self._grammar_source
        if source is None:
            return DEFAULT_WEIGHTS
        if isinstance(source, str | Path) and str(source).endswith(".safetensors"):
            return Path(source)
        return None

    def _grammar_precision(self) -> str:
        """The precision of the classifier's pass: the one read at construction for a weights file (without
        loading it), a given classifier's own, float32 for one that names none (a hub model)."""
        if self._precision is not None:
            return self._precision
        return getattr(self.grammar, "precision", "float32")

    def _grammar_fingerprint(self) -> str:
        """The classifier by the hash of its weights, without loading the committed one (warm runs)."""
        # a weights file: the same fingerprint whether or not it is loaded yet, so a signature taken before
        # scoring equals one taken after (cache keys stay stable)
        weights = self._grammar_weights_file()
        if weights is not None:
            return weights_fingerprint(weights)
        fingerprint = getattr(self.grammar, "fingerprint", None)
        if not callable(fingerprint):
            raise InputError("a grammar classifier given to RoMe needs a fingerprint() method naming its "
                             "weights, so that cached scores change when it does")
        return f"user:{fingerprint()}"

    def fingerprint_files(self) -> list[Path]:
        """RoMe's steps, the shared encoder and parser wrappers, and the weights this variant uses."""
        from rome.core import encoder, parsing

        files = [*Path(__file__).parent.glob("*.py"), Path(encoder.__file__), Path(parsing.__file__)]
        if self.idf_mode == "wordnet" and self._idf_corpus is None:
            files.append(GENERAL_IDF_PATH)
        if self.feature_set is not None:
            files.append(weights_path(self.feature_set))
        return files


def _variant(factory):
    """Mark a Table 5 factory as encoder-based, like :class:`RoMe` (``--model`` applies to it)."""
    factory.uses_encoder = True
    return factory


@_variant
def rome_emd_std(**options) -> RoMe:
    """Table 5, row 1: plain EMD over contextual word vectors."""
    return RoMe(variant="emd_std", **options)


@_variant
def rome_align(**options) -> RoMe:
    """Table 5, row 2: EMD with the hard one-to-one semantic word alignment."""
    return RoMe(variant="align", **options)


@_variant
def rome_soft(**options) -> RoMe:
    """Table 5, row 3: aligned EMD with soft penalisation, i.e. ``F_sem`` of §3.1."""
    return RoMe(variant="soft", **options)


@_variant
def rome_ted(**options) -> RoMe:
    """Table 5, row 4: the scorer over ``F_sem`` and ``F_ted``."""
    return RoMe(variant="ted", **options)


@_variant
def rome_grammar(**options) -> RoMe:
    """Table 5, row 5: the full RoMe (``F_sem``, ``F_ted``, ``F_g``)."""
    return RoMe(variant="grammar", **options)


@_variant
def rome_paper(**options) -> RoMe:
    """RoMe as published (§3.1-3.4): aligned, softly penalised EMD, plain TED-SE, grammar, the network."""
    return RoMe(variant="paper", **options)


_default: RoMe | None = None


def components(hypothesis: str, reference: Reference) -> Components:
    """``F_sem``, ``F_ted``, ``F_g`` and the score of one pair with the default full RoMe."""
    global _default
    if _default is None:
        _default = RoMe()
    return _default.components(hypothesis, reference)
