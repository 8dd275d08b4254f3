"""The case pipeline: walk a suite's texts in their seeded order, perturb, keep the first ``n`` cases.

Its own module so that both the suite runner (:mod:`suites.harness.runner`, which scores and checks the cases)
and ``rome validity``'s redraw of the cards (:mod:`suites.harness.validity`) build cases the same way without
importing each other.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from perturbations.base import Perturbation, text_rng
from rome.core.cache import ScoreCache
from rome.core.contract import HARNESS_VERSION
from suites.harness.data import SourcePair
from suites.harness.spec import Suite, data_fingerprint, perturbation_fingerprint

#: sample size of a data source declared with ``n=None`` (use every pair)
UNLIMITED = 10**9


@dataclass(frozen=True)
class Case:
    case_id: str
    suite: str
    kind: str
    expectation: str
    reference: str
    original: str
    variant: str
    source_id: str
    edits: list[dict[str, Any]] = field(default_factory=list)
    #: a challenge item's severity (empty for perturbation cases)
    severity: str = ""
    #: the perturbation's own estimate that the variant is valid (``variant.meta["p_valid"]``), when it gives one
    p_valid: float | None = None


@dataclass
class BuildStats:
    requested: int
    built: int = 0
    texts_tried: int = 0
    #: texts the perturbation changed (a text may give several cases)
    texts_changed: int = 0
    skipped: Counter = field(default_factory=Counter)
    from_cache: bool = False
    #: the suite's bound on texts tried, when the sample stopped there short of ``requested``
    stopped_at_max_texts: int | None = None

    def as_dict(self) -> dict[str, Any]:
        requested = None if self.requested >= UNLIMITED else self.requested
        return {"n_requested": requested, "n_cases": self.built, "texts_tried": self.texts_tried,
                "texts_changed": self.texts_changed, "stopped_at_max_texts": self.stopped_at_max_texts,
                "skip_reasons": dict(self.skipped.most_common(8)), "cases_from_cache": self.from_cache}


def edit_key(case: Case) -> str:
    """What a case changed, as one string (``old -> new`` per edit): two cases with the same key made the
    same edit, whatever text it was made in."""
    return " | ".join(f"{e['old']} -> {e['new']}" for e in case.edits) or f"{case.original} -> {case.variant}"


def coverage(cases: Sequence[Case], stats: BuildStats | None) -> dict[str, Any]:
    """How much of the corpus a perturbation reached and how varied its edits are: the share of texts
    tried that it changed, the number of distinct edits, and the share of cases holding the most
    frequent one (a row of 200 cases that all swap *cheap* for *inexpensive* tests one edit, not 200)."""
    keys = Counter(edit_key(c) for c in cases)
    top, top_count = keys.most_common(1)[0] if keys else ("", 0)
    tried = stats.texts_tried if stats else 0
    changed = stats.texts_changed if stats else 0
    return {"texts_tried": tried, "texts_changed": changed,
            "changed_share": changed / tried if tried else None,
            "distinct_edits": len(keys), "cases": len(cases),
            "top_edit": top, "top_edit_share": top_count / len(cases) if cases else None}


def _warmed(pairs: Iterator[SourcePair], perturbation: Perturbation, batch: int = 128) -> Iterator[SourcePair]:
    """Yield ``pairs``, parsing each batch's originals in one call first when the perturbation parses.

    Perturbations that parse (``Perturbation.parses``: passive, adjective, entity, textfooler,
    contractions) parse one text per ``apply``; spaCy parses a batch (``nlp.pipe``) about four times
    faster, and the shared parser's cache then serves each ``apply``. Selective perturbations (the
    passive changes about one text in twenty) walk thousands of texts, so this is most of a cold run.
    """
    while chunk := list(itertools.islice(pairs, batch)):
        if perturbation.parses:
            from rome.core.parsing import get_parser

            get_parser(perturbation.parser_name).parse([p.original for p in chunk])
        yield from chunk


def build_cases(
    suite: Suite, n: int, cache: ScoreCache | None = None, perturbation: Perturbation | None = None
) -> tuple[list[Case], BuildStats]:
    """Walk the suite's data in its seeded order, perturb, and keep the first ``n`` cases (fewer when the
    suite's ``max_texts`` texts were tried first).

    Built cases are stored in the cache under the data (its settings and its files' hash), sample size
    and the perturbation's fingerprint (settings, code and data files), so a warm rerun does not
    perturb again and any change to what built them rebuilds them; a walk that stopped short of its
    sample size serves any larger one.
    """
    perturbation = perturbation or suite.build_perturbation()
    key_fields = {"data": suite.data.describe(), "data_files": data_fingerprint(suite.data), "n": n,
                  "seed": suite.seed, "perturbation": perturbation_fingerprint(perturbation),
                  "variants_per_text": suite.variants_per_text, "harness": HARNESS_VERSION, "suite": suite.name,
                  "max_texts": suite.max_texts}
    key = hashlib.sha256(json.dumps(key_fields, sort_keys=True).encode()).hexdigest()
    # a walk that stopped short of its n (the data ran out or max_texts was reached) gives the same cases
    # for any larger n: stored once more under the key without n, so a card's draw reuses a suite's walk
    short_key = hashlib.sha256(json.dumps({**key_fields, "n": "short"}, sort_keys=True).encode()).hexdigest()
    stats = BuildStats(requested=n)
    stored = None
    if cache is not None:
        stored = cache.get_payload(key)
        if stored is None and (short := cache.get_payload(short_key)) is not None and len(short["cases"]) < n:
            stored = short
    if stored is not None:
        stats.built, stats.from_cache = len(stored["cases"]), True
        stats.texts_tried, stats.skipped = stored["texts_tried"], Counter(stored["skipped"])
        stats.texts_changed = stored.get("texts_changed", 0)
        stats.stopped_at_max_texts = stored.get("stopped_at_max_texts")
        return [Case(**c) for c in stored["cases"]], stats
    cases: list[Case] = []
    for pair in _warmed(iter(suite.data.pairs(suite.seed)), perturbation):
        if len(cases) >= n:
            break
        if suite.max_texts is not None and stats.texts_tried >= suite.max_texts:
            stats.stopped_at_max_texts = suite.max_texts
            break
        stats.texts_tried += 1
        result = perturbation.apply(pair.original, text_rng(suite.seed, pair.source_id))
        variants = [v for v in result.variants if v.text.strip() and v.text != pair.original]
        if not variants:
            stats.skipped[result.skipped or "no changed variant"] += 1
            continue
        stats.texts_changed += 1
        for k, variant in enumerate(variants[: suite.variants_per_text]):
            if len(cases) >= n:
                break
            cases.append(Case(
                case_id=f"{pair.source_id}-{k}", suite=suite.name, kind=variant.kind,
                expectation=variant.expectation, reference=pair.reference, original=pair.original,
                variant=variant.text, source_id=pair.source_id,
                edits=[asdict(e) for e in variant.edits], p_valid=_p_valid(variant),
            ))
    stats.built = len(cases)
    if cache is not None:
        payload = {"cases": [asdict(c) for c in cases], "texts_tried": stats.texts_tried,
                   "texts_changed": stats.texts_changed, "skipped": dict(stats.skipped),
                   "stopped_at_max_texts": stats.stopped_at_max_texts}
        cache.put_payload(key, payload)
        if len(cases) < n:
            cache.put_payload(short_key, payload)
    return cases, stats


def _p_valid(variant: Any) -> float | None:
    value = (getattr(variant, "meta", None) or {}).get("p_valid")
    return None if value is None else float(value)


def challenge_cases(suite: Suite, n: int) -> tuple[list[Case], BuildStats]:
    """Cases straight from a challenge set: original = good, variant = bad, kind = category.

    A single reference stays a string (as in every other suite); several are a tuple.
    """
    from rome.data.challenge import sample_total

    data, items = suite.data.load(suite.seed, suite.n_per_category)
    items = sample_total(items, n if n < UNLIMITED else None, suite.seed)
    stats = BuildStats(requested=n, texts_tried=sum(f.records for f in data.files), skipped=data.skipped)
    cases = [Case(case_id=item.id, suite=suite.name, kind=item.category, expectation="decrease",
                  reference=item.reference[0] if len(item.reference) == 1 else item.reference,
                  original=item.good, variant=item.bad, source_id=item.group, severity=item.severity)
             for item in items]
    stats.built = len(cases)
    return cases, stats
