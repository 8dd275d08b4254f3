"""Validity cards: how often a perturbation does what its expectation says, judged by a careful reader.

A robustness verdict is only as good as the perturbation behind it: if half the "meaning kept"
variants change the meaning, a metric that drops on them is right, not fragile. Validity depends on
the texts as much as on the code (a synonym table fine on restaurant dialogue can change the meaning
of news), so a card belongs to one (perturbation, corpus): ``perturbations/cards/<corpus>/<name>.jsonl``,
and a row on a corpus without its own card is UNMEASURED, never given another corpus's figure. A
**card** is a committed JSONL file, one judged variant per line::

    {"card": "passive", "suite": "passive_form", "source_id": ..., "text": ..., "variant": ...,
     "edits": [...], "expectation": "invariant", "label": "valid", "note": "...",
     "fingerprint": "<perturbation_fingerprint at judging time>", "seed": 2026}

drawn with a seed from the suite's own data (:func:`draw_card`) and labelled against the rubric in
``docs/validity.md`` before any metric scored it. Labels: for ``invariant`` variants ``valid`` /
``meaning_changed`` / ``ungrammatical`` / ``awkward`` (only ``valid`` counts as valid); for
``decrease`` variants ``intended`` / ``not_changed`` / ``broken`` (only ``intended`` counts).
A card whose fingerprint differs from the code's is **stale** (the code changed since it was
judged); a perturbation without a card is **unmeasured**. Rates below :data:`INFORMATIVE` make a
robustness row uninformative. Intervals are Wilson 95 % (:func:`reports.stats.wilson_interval`).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reports.stats import wilson_interval
from rome.core.errors import InputError
from rome.core.files import OutputKind, safe_output
from rome.core.jsonl import read_jsonl

#: below this validity a robustness row says more about the perturbation than about the metrics
INFORMATIVE = 0.85
LABELS = {
    "invariant": ("valid", "meaning_changed", "ungrammatical", "awkward"),
    "decrease": ("intended", "not_changed", "broken"),
}
GOOD_LABEL = {"invariant": "valid", "decrease": "intended"}
CURRENT, STALE, UNMEASURED = "current", "STALE", "UNMEASURED"
#: variants a card is drawn with (per expectation with ``--per-expectation``): the size the shipped cards hold
CARD_SIZE = 60
#: a card, todo or labelled: the only file a card is written over
CARD_OUTPUT = OutputKind("a validity card", frozenset({"card", "variant", "expectation", "label"}))
#: what to do when a card to draw is already there
REDRAW_HINT = "pass --force to draw it again (any label already in it is lost)"
#: the cell of a side the corpus gives no variant of (so its row has no cases either)
NO_VARIANTS = "no variants"


def default_cards_dir() -> Path:
    import perturbations

    return Path(perturbations.__file__).resolve().parent / "cards"


def card_path(name: str, corpus: str, cards_dir: Path | None = None) -> Path:
    """Where card ``name`` judged on ``corpus`` lives: ``<cards>/<corpus>/<name>.jsonl``."""
    if not corpus or "/" in corpus or corpus.startswith("."):
        raise InputError(f"corpus name {corpus!r} cannot name a card folder")
    return (cards_dir or default_cards_dir()) / corpus / f"{name}.jsonl"


@dataclass
class CardStatus:
    """Validity of one card for one expectation, and whether the card still matches the code."""

    card: str
    expectation: str
    state: str
    n: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    fingerprint: str | None = None
    #: the card holds every variant the corpus gives (drawn with more asked for than exist)
    exhausted: bool = False

    @property
    def valid(self) -> int:
        return self.counts.get(GOOD_LABEL.get(self.expectation, ""), 0)

    @property
    def rate(self) -> float | None:
        return self.valid / self.n if self.n else None

    @property
    def interval(self) -> tuple[float, float] | None:
        return wilson_interval(self.valid, self.n) if self.n else None

    @property
    def informative(self) -> bool | None:
        return None if self.rate is None else self.rate >= INFORMATIVE

    def cell(self) -> str:
        """``91% [83, 96] n=60`` (+ ``STALE``), or ``UNMEASURED``."""
        if self.rate is None:
            return NO_VARIANTS if self.exhausted else UNMEASURED
        low, high = self.interval
        text = f"{self.rate:.0%} [{low * 100:.0f}, {high * 100:.0f}] n={self.n}" + (" (all)" if self.exhausted else "")
        return text + (f" {STALE}" if self.state == STALE else "")


def load_card(path: Path) -> list[dict[str, Any]]:
    """A card's judged lines, checked: every line needs an expectation, a label of that expectation and a fingerprint."""
    lines = []
    judged: dict[tuple, int] = {}
    for number, obj in read_jsonl(path):
        where = f"{path}:{number}"
        # one variant of one source text is one judgement: a repeated line would count twice and narrow the CI
        key = _line_key(obj)
        if key in judged:
            raise InputError(f"{where}: the same variant (source_id, text, variant, expectation) as line "
                             f"{judged[key]}; a line judged twice would count twice")
        judged[key] = number
        expectation, label = obj.get("expectation"), obj.get("label")
        if expectation not in LABELS:
            raise InputError(f"{where}: expectation must be one of {', '.join(LABELS)}")
        if label not in LABELS[expectation]:
            raise InputError(f"{where}: label {label!r} is not one of {', '.join(LABELS[expectation])}")
        if not obj.get("fingerprint"):
            raise InputError(f"{where}: missing 'fingerprint' (the perturbation the line was judged under)")
        lines.append(obj)
    return lines


def _line_key(line: dict[str, Any]) -> tuple[str, ...]:
    """One judgement's identity: the same variant of the same source text under the same expectation."""
    return tuple(json.dumps(line.get(k), sort_keys=True) for k in ("source_id", "text", "variant", "expectation"))


@dataclass(frozen=True)
class ReaderAgreement:
    """A second reader's labels of a card's lines beside the card's own, for one expectation.

    A card's figure is one reader's judgement; what a second careful reader, blind to the first's labels
    and to every score, makes of the same lines says how far the figure depends on who read it.
    ``kappa``: Cohen's κ of the two readers' valid / not-valid verdicts (``None`` when undefined: both
    readers gave every line one verdict)."""

    card: str
    expectation: str
    n: int
    first_valid: int
    second_valid: int
    #: lines on which both readers gave the same verdict (valid or not), and the very same label
    agreed: int
    same_label: int
    kappa: float | None

    @property
    def second_interval(self) -> tuple[float, float]:
        return wilson_interval(self.second_valid, self.n)


def reader_agreement(card: list[dict[str, Any]], second: list[dict[str, Any]]) -> dict[str, ReaderAgreement]:
    """Per expectation, a second reader's labels (``second``, lines of the card relabelled) against the card's.

    Only lines on both are compared (a card re-drawn since the second reading loses the lines the code no
    longer produces); a second-reader line with a label its expectation does not have is an error."""
    from reports.annotate.agreement import cohen_kappa

    by_key = {_line_key(line): line for line in card}
    pairs: dict[str, list[tuple[str, str]]] = {}
    for line in second:
        expectation, label = line.get("expectation"), line.get("label")
        if expectation not in LABELS or label not in LABELS[expectation]:
            raise InputError(f"second reader: label {label!r} is not one of the labels of {expectation!r}")
        first = by_key.get(_line_key(line))
        if first is not None:
            pairs.setdefault(expectation, []).append((first["label"], label))
    out = {}
    for expectation, labelled in sorted(pairs.items()):
        good = GOOD_LABEL[expectation]
        first_ok = [int(a == good) for a, _ in labelled]
        second_ok = [int(b == good) for _, b in labelled]
        out[expectation] = ReaderAgreement(
            card[0]["card"], expectation, len(labelled), sum(first_ok), sum(second_ok),
            sum(a == b for a, b in zip(first_ok, second_ok)), sum(a == b for a, b in labelled),
            cohen_kappa(first_ok, second_ok, labels=(0, 1)))
    return out


def card_statuses(name: str, fingerprint: str | None, cards_dir: Path | None = None,
                  corpus: str = "dialogue") -> dict[str, CardStatus]:
    """Per expectation, the validity of card ``name`` on ``corpus`` compared with the code's ``fingerprint``."""
    path = card_path(name, corpus, cards_dir)
    if not path.is_file():
        return {}
    by_expectation: dict[str, list[dict[str, Any]]] = {}
    for line in load_card(path):
        by_expectation.setdefault(line["expectation"], []).append(line)
    out = {}
    for expectation, lines in by_expectation.items():
        judged_under = {line["fingerprint"] for line in lines}
        state = CURRENT if fingerprint is not None and judged_under == {fingerprint} else STALE
        out[expectation] = CardStatus(name, expectation, state, len(lines), dict(Counter(x["label"] for x in lines)),
                                      next(iter(judged_under)) if len(judged_under) == 1 else None,
                                      exhausted=all(bool(line.get("exhausted")) for line in lines))
    # a side the whole corpus gave no variant of (drawn --per-expectation): nothing to judge, and no cases
    first = next(iter(by_expectation.values()), [{}])[0]
    for expectation, count in (first.get("found") or {}).items():
        if count == 0 and expectation not in out:
            some = next(iter(out.values()))
            out[expectation] = CardStatus(name, expectation, some.state, 0, {}, some.fingerprint, exhausted=True)
    return out


def suite_validity(suite, cards_dir: Path | None = None) -> tuple[str, str, dict[str, CardStatus]]:
    """``(card name, current fingerprint, statuses by expectation)`` for a :class:`~suites.harness.spec.Suite`
    on the corpus its cases come from."""
    from suites.harness.spec import perturbation_fingerprint

    perturbation = suite.build_perturbation()
    name, fingerprint = perturbation.card_name(), perturbation_fingerprint(perturbation)
    return name, fingerprint, card_statuses(name, fingerprint, cards_dir, suite.corpus)


def shipped_validity(cards_dir: Path | None = None,
                     data: list[str] | None = None) -> list[tuple[str, str, str, CardStatus]]:
    """``(corpus, suite, card, status)`` for every corpus in ``data`` (shipped corpus names or JSONL files;
    default: every shipped corpus), shipped suite and expectation its perturbation produces."""
    from rome.data.corpora import CORPORA
    from suites.harness.spec import available_suites, load_suite

    rows = []
    for spec in data or list(CORPORA):
        for suite_name in available_suites():
            suite = load_suite(suite_name)
            if suite.direct_cases:  # a published minimal-pair set (DEMETR): no perturbation of ours to judge
                continue
            suite = suite.configured(data=spec)
            corpus = suite.corpus
            name, _, statuses = suite_validity(suite, cards_dir)
            expectations = sorted({c.expectation for c in suite.case_checks}) or ["invariant"]
            for expectation in expectations:
                status = statuses.get(expectation, CardStatus(name, expectation, UNMEASURED))
                rows.append((corpus, suite_name, name, status))
    return rows


def validity_markdown(rows: list[tuple[str, str, str, CardStatus]]) -> str:
    lines = ["| corpus | suite | card | expectation | validity [Wilson 95 %] | n | labels | card |",
             "|---|---|---|---|---|---|---|---|"]
    for corpus, suite, card, status in rows:
        labels = ", ".join(f"{k} {v}" for k, v in sorted(status.counts.items(), key=lambda kv: -kv[1])) or "–"
        rate = "–" if status.rate is None else status.cell().split(" n=")[0]
        flag = status.state if status.n else (NO_VARIANTS if status.exhausted else UNMEASURED)
        if status.informative is False:
            flag += ", below 0.85: rows uninformative"
        lines.append(f"| {corpus} | {suite} | {card} | {status.expectation} | {rate} | {status.n} | {labels} | {flag} |")
    return "\n".join(lines) + "\n"


def draw_card(suite, n: int, seed: int, per_expectation: bool = False) -> list[dict[str, Any]]:
    """``n`` unlabelled card lines from ``suite``'s corpus walked in the order of ``seed`` (no metric runs);
    ``per_expectation``: the first ``n`` of each expectation instead (a kind whose rare side, e.g. the
    adjective synonyms, would otherwise be crowded out by its frequent one; walks the whole corpus).

    The suite's own case pipeline is used (:func:`suites.harness.runner.build_cases`), with ``seed`` in
    place of the suite's, so the card samples what the suite perturbs on that corpus but not its cases.
    A side with fewer than ``n`` variants is marked ``exhausted``: the card holds every one the corpus has.
    """
    from suites.harness.runner import UNLIMITED, build_cases
    from suites.harness.spec import perturbation_fingerprint

    if suite.direct_cases:
        raise InputError(f"suite {suite.name!r} is a published challenge set: no perturbation of ours to judge")
    reseeded = suite.configured(seed=seed)
    perturbation = reseeded.build_perturbation()
    fingerprint = perturbation_fingerprint(perturbation)
    cases, _ = build_cases(reseeded, UNLIMITED if per_expectation else n, cache=None, perturbation=perturbation)
    by_expectation: dict[str, list] = {}
    for case in cases:
        by_expectation.setdefault(case.expectation, []).append(case)
    if per_expectation:  # the first n of each side, in the walk's order
        taken: Counter = Counter()
        kept = []
        for case in cases:
            if taken[case.expectation] < n:
                taken[case.expectation] += 1
                kept.append(case)
        cases = kept
        exhausted = {e: len(found) < n for e, found in by_expectation.items()}
    else:
        exhausted = dict.fromkeys(by_expectation, len(cases) < n)
    # every expectation the suite checks, with how many variants of it the walk found (0: none on this corpus)
    found = {e: len(by_expectation.get(e, [])) for e in sorted({*by_expectation, *_checked(suite)})}
    return [{"card": perturbation.card_name(), "suite": suite.name, "corpus": suite.corpus,
             "source_id": c.source_id, "text": c.original, "variant": c.variant, "edits": c.edits,
             "expectation": c.expectation, "label": "", "note": "", "fingerprint": fingerprint, "seed": seed,
             "exhausted": exhausted[c.expectation], **({"found": found} if per_expectation else {})}
            for c in cases]


def _checked(suite) -> set[str]:
    return {c.expectation for c in suite.case_checks}


def write_card(lines: list[dict[str, Any]], path: Path, inputs: list[tuple[str, Path | None]] = (),
               replace: bool = True, flag: str = "--out") -> Path:
    """Write a card with the one safe writer (:func:`rome.core.files.safe_output`): never over one of ``inputs``
    nor over anything but a card; over an existing card only with ``replace``."""
    with safe_output(path, CARD_OUTPUT, inputs=inputs, flag=flag, replace=replace,
                     exists_hint=REDRAW_HINT) as handle:
        handle.writelines(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    return path
