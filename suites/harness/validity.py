"""Validity cards: what careful readers judged of a perturbation's variants, and what the code makes now.

A robustness verdict is only as good as the perturbation behind it: if half the "meaning kept"
variants change the meaning, a metric that drops on them is right, not fragile. Validity depends on
the texts as much as on the code, so a card belongs to one (perturbation kind, corpus):
``<cards>/<corpus>/<kind>.jsonl``, and a row on a corpus without its own card is UNMEASURED, never
given another corpus's figure.

**A card is judged text.** Each line is one judgement of one variant, keyed by the kind, the
expectation and the normalised (original, variant) pair (:func:`judgement_key`), with the corpus,
the draw it came from (suite, seed, size) and the rubric version::

    {"card": "passive", "suite": "passive_form", "corpus": "dialogue", "source_id": ..., "text": ...,
     "variant": ..., "edits": [...], "expectation": "invariant", "label": "valid", "note": "",
     "seed": 2027, "n": 60, "per_expectation": false, "rubric": 1}

Nothing in a card names the code: what a reader judged is a pair of texts, and a rename, a refactor or
a deleted dead function changes no card. Instead the card's draws are made again with the current code
(:func:`draw_cases`, through the case cache, so only a changed perturbation is run again) and matched
to the judgements: per expectation, the lines **reproduced** (drawn now and judged), the validity among
them (Wilson 95 %), and the lines the code now makes that no reader judged (**to judge next**; ``rome
validity --draw`` writes exactly those). A card is current when nothing is left to judge, STALE
otherwise.

Both ways of running a suite (``rome suite`` and pytest) take the summary's validity from
:func:`validity_record`, on the run's **own cases** (:func:`match_cases`): each case is looked up among the
card's judgements by its (kind, expectation, original, variant), nothing is drawn again. A suite's default
seed is its cards' seed, so a card of ``n`` lines holds the first ``n`` cases of the suite's default run. The
validity among the judged cases, and the judged good cases scored with the row's checks (the judged
verdict), come from there. A row is informative on its judged cases when there are at least
:data:`JUDGED_MIN_N`, else on all cases when at least :data:`VALIDITY_MIN_N` are judged and the validity among
them is at least :data:`INFORMATIVE` (:func:`informative`). A perturbation that estimates each variant's
validity sets ``variant.meta["p_valid"]``; :func:`estimated_validity` averages it over a row's cases, shown
as an estimate beside the judged figure. Redrawing the cards to count the lines the code still reproduces is
``rome validity``'s job alone (:func:`shipped_validity`, its statuses cached by card bytes and the
perturbation's behaviour fingerprint).
"""

from __future__ import annotations

import json
import shlex
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rome.core.errors import InputError
from rome.core.files import OutputKind, safe_output
from rome.core.jsonl import read_jsonl
from suites.harness.checks import wilson_interval

#: below this validity a robustness row on all cases says more about the perturbation than about the metrics
INFORMATIVE = 0.85
#: reader-judged cases that make a row's judged verdict informative, whatever the kind's validity
JUDGED_MIN_N = 30
#: judged cases below which a row's validity is too uncertain to call the row informative on all its cases
#: (10 of 10 valid still has a Wilson 95 % lower bound of 72 %)
VALIDITY_MIN_N = 10
#: the rubric of docs/validity.md the labels were given under; a judgement under another one is judged again
RUBRIC = 1
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
    """The cards shipped in the package (``perturbations/cards``)."""
    import perturbations

    return Path(perturbations.__file__).resolve().parent / "cards"


def user_cards_dir() -> Path:
    """Where ``rome validity --draw`` and ``rome annotate --validity`` put the user's cards (``ROME_OUT/cards``)."""
    from rome.core.paths import output_dir

    return output_dir("cards")


def card_path(name: str, corpus: str, cards_dir: Path | None = None) -> Path:
    """Where card ``name`` judged on ``corpus`` lives: ``<cards>/<corpus>/<name>.jsonl``."""
    if not corpus or "/" in corpus or corpus.startswith("."):
        raise InputError(f"corpus name {corpus!r} cannot name a card folder")
    return (cards_dir or default_cards_dir()) / corpus / f"{name}.jsonl"


def normalise(text: str) -> str:
    """The text a judgement is keyed by: Unicode NFC, whitespace runs as one space, no outer space."""
    return " ".join(unicodedata.normalize("NFC", str(text)).split())


def judgement_key(line: dict[str, Any]) -> tuple[str, str, str, str]:
    """One judgement's identity: the kind, the expectation and the normalised (original, variant) pair.
    The same pair drawn from two sources is one judgement; no code, seed or source id is part of it."""
    return (str(line.get("card")), str(line.get("expectation")), normalise(line.get("text", "")),
            normalise(line.get("variant", "")))


def check_draw(obj: dict[str, Any], where: str) -> None:
    """A card line names the draw it came from (:func:`draws_of`): its ``suite``, ``seed`` and ``n``; without
    them no later run can tell which of its cases the line judged."""
    if not isinstance(obj.get("suite"), str) or not obj["suite"].strip():
        raise InputError(f"{where}: field 'suite' must be a non-empty string")
    for key, least in (("seed", 0), ("n", 1)):
        if isinstance(obj.get(key), bool) or not isinstance(obj.get(key), int) or obj[key] < least:
            raise InputError(f"{where}: field {key!r} must be an integer of at least {least} (the draw the line "
                             "came from)")


def load_card(path: Path) -> list[dict[str, Any]]:
    """A card's judged lines, checked: each needs the texts, an expectation and one of its labels; one pair
    judged twice with two labels is an error (the same label twice is one judgement)."""
    lines = []
    judged: dict[tuple, tuple[int, str]] = {}
    for number, obj in read_jsonl(path):
        where = f"{path}:{number}"
        expectation, label = obj.get("expectation"), obj.get("label")
        if expectation not in LABELS:
            raise InputError(f"{where}: expectation must be one of {', '.join(LABELS)}")
        if label not in LABELS[expectation]:
            raise InputError(f"{where}: label {label!r} is not one of {', '.join(LABELS[expectation])}")
        for key in ("card", "text", "variant"):
            if not isinstance(obj.get(key), str) or not obj[key].strip():
                raise InputError(f"{where}: field {key!r} must be a non-empty string")
        check_draw(obj, where)
        key = judgement_key(obj)
        if key in judged and judged[key][1] != label:
            raise InputError(f"{where}: the same variant (kind, expectation, text, variant) as line {judged[key][0]} "
                             f"with another label ({judged[key][1]!r}); one pair is one judgement")
        judged.setdefault(key, (number, label))
        lines.append(obj)
    return lines


@dataclass(frozen=True)
class Draw:
    """How a card's lines were drawn: the suite's case pipeline with ``seed``, the first ``n`` variants
    (of each expectation with ``per_expectation``)."""

    suite: str
    seed: int
    n: int
    per_expectation: bool


def draws_of(lines: list[dict[str, Any]]) -> list[Draw]:
    """The draws a card's lines came from (each line names its suite, seed, size and whether the size is per
    expectation), in order of first appearance, once each."""
    return list(dict.fromkeys(Draw(line["suite"], line["seed"], line["n"], bool(line.get("per_expectation")))
                              for line in lines))


def draw_cases(suite, draw: Draw, cache: Any = "default") -> tuple[list, dict[str, int], bool]:
    """The cases ``draw`` gives on ``suite``'s corpus with the current code (no metric runs), how many
    variants of each expectation the suite checks the walk found, and whether the walk stopped at the
    suite's bound on texts tried (``max_texts``) rather than at the corpus's end or at ``draw.n``.

    Built through :func:`suites.harness.cases.build_cases` with ``draw.seed`` in place of the suite's and
    the case cache (``cache="default"``: the user's), so a card is drawn again only when its perturbation
    changed. ``per_expectation``: the first ``n`` of each expectation (walks the whole corpus)."""
    from rome.core.cache import ScoreCache, default_cache_path
    from suites.harness.cases import UNLIMITED, build_cases

    if suite.direct_cases:
        raise InputError(f"suite {suite.name!r} is a published challenge set: no perturbation of ours to judge")
    reseeded = suite.configured(seed=draw.seed)
    if cache == "default":
        cache = ScoreCache(default_cache_path())
    cases, stats = build_cases(reseeded, UNLIMITED if draw.per_expectation else draw.n, cache=cache)
    found = Counter(case.expectation for case in cases)
    if draw.per_expectation:  # the first n of each side, in the walk's order
        taken: Counter = Counter()
        kept = []
        for case in cases:
            if taken[case.expectation] < draw.n:
                taken[case.expectation] += 1
                kept.append(case)
        cases = kept
    checked = {c.expectation for c in suite.case_checks}
    return cases, {e: found.get(e, 0) for e in sorted({*found, *checked})}, bool(stats.stopped_at_max_texts)


def card_line(card: str, suite, case, draw: Draw) -> dict[str, Any]:
    """An unlabelled line of card ``card`` for one case ``draw`` gave on ``suite``'s corpus."""
    return {"card": card, "suite": draw.suite, "corpus": suite.corpus,
            "source_id": case.source_id, "text": case.original, "variant": case.variant, "edits": case.edits,
            "expectation": case.expectation, "label": "", "note": "", "seed": draw.seed, "n": draw.n,
            "per_expectation": draw.per_expectation, "rubric": RUBRIC}


@dataclass
class CardStatus:
    """One card's state for one expectation: the judged lines the code still draws, and those left to judge."""

    card: str
    expectation: str
    state: str
    #: lines drawn now that a reader judged (the reproduced lines)
    n: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    #: lines drawn now that no reader judged
    to_judge: int = 0
    #: judged lines the code no longer draws (kept in the card, not counted)
    retired: int = 0
    #: the draw holds every variant the corpus gives of this expectation
    exhausted: bool = False
    #: a suite row's cases of this expectation (judged or not); 0 for a card's own status
    cases: int = 0

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
        """Whether the judged validity is high enough to read the row on all its cases (``None``: fewer than
        :data:`VALIDITY_MIN_N` judged, too few to say)."""
        return None if self.rate is None or self.n < VALIDITY_MIN_N else self.rate >= INFORMATIVE

    def cell(self) -> str:
        """``91% [83, 96] n=60`` (+ ``(all)``, + ``STALE: 4 to judge``), or ``UNMEASURED`` / ``no variants``."""
        stale = f" {STALE}: {self.to_judge} to judge" if self.state == STALE else ""
        if self.rate is None:
            if self.state == STALE:
                return f"none judged{stale}"
            return NO_VARIANTS if self.exhausted else UNMEASURED
        low, high = self.interval
        text = f"{self.rate:.0%} [{low * 100:.0f}, {high * 100:.0f}] n={self.n}" + (" (all)" if self.exhausted else "")
        if self.cases > self.n:
            text += f" of {self.cases} cases"
        return text + stale

    def as_dict(self) -> dict[str, Any]:
        measured = self.n > 0 or self.exhausted or self.state == STALE
        return {"state": self.state if measured else UNMEASURED, "cell": self.cell(), "validity": self.rate,
                "interval": list(self.interval) if self.interval else None, "n": self.n, "counts": dict(self.counts),
                "to_judge": self.to_judge, "retired": self.retired, "exhausted": self.exhausted, "cases": self.cases}

    @classmethod
    def from_dict(cls, card: str, expectation: str, record: dict[str, Any]) -> CardStatus:
        """A status as a suite's summary recorded it (:meth:`as_dict`)."""
        return cls(card, expectation, str(record.get("state") or UNMEASURED), int(record.get("n") or 0),
                   dict(record.get("counts") or {}), int(record.get("to_judge") or 0), int(record.get("retired") or 0),
                   bool(record.get("exhausted")), int(record.get("cases") or 0))


def judgements(name: str, corpus: str, folders: list[Path]) -> tuple[dict[tuple, dict[str, Any]], list[dict[str, Any]]]:
    """Every judgement of card ``name`` on ``corpus`` under the current rubric in ``folders`` (an earlier folder's
    label wins), keyed by :func:`judgement_key`, and every judged line (their draws are the card's)."""
    by_key: dict[tuple, dict[str, Any]] = {}
    lines: list[dict[str, Any]] = []
    for folder in folders:
        path = card_path(name, corpus, folder)
        if not path.is_file():
            continue
        for line in load_card(path):
            lines.append(line)
            if int(line.get("rubric", RUBRIC)) == RUBRIC:
                by_key.setdefault(judgement_key(line), line)
    return by_key, lines


@dataclass
class CardMatch:
    """A card matched to what the current code draws: per expectation its status, the drawn cases and their
    judgements (``None``: not judged)."""

    card: str
    statuses: dict[str, CardStatus]
    drawn: list[tuple[Any, Draw, dict[str, Any] | None]] = field(default_factory=list)

    def unjudged(self, suite) -> list[dict[str, Any]]:
        """Card lines, unlabelled, of the drawn cases no reader judged (once each)."""
        seen, out = set(), []
        for case, draw, judged in self.drawn:
            key = (self.card, case.expectation, normalise(case.original), normalise(case.variant))
            if judged is None and key not in seen:
                seen.add(key)
                out.append(card_line(self.card, suite, case, draw))
        return out

    def good_cases(self) -> list:
        """The drawn cases a reader judged valid (invariant) or intended (decrease), each with its own reference."""
        return [case for case, _, judged in self.drawn
                if judged is not None and judged["label"] == GOOD_LABEL[case.expectation]]


def match_card(suite, folders: list[Path] | None = None, draws: list[Draw] | None = None,
               cache: Any = "default") -> CardMatch:
    """Card ``suite``'s perturbation kind on the suite's corpus (judgements from ``folders``, default: the
    shipped cards) against the current code's ``draws`` (default: the card's own). Without a card and without
    ``draws``, every expectation the suite checks is UNMEASURED and nothing is drawn."""
    name = suite.build_perturbation().card_name()
    folders = folders or [default_cards_dir()]
    by_key, lines = judgements(name, suite.corpus, folders)
    checked = sorted({c.expectation for c in suite.case_checks}) or ["invariant"]
    draws = draws if draws is not None else draws_of(lines)
    if not draws:
        return CardMatch(name, {e: CardStatus(name, e, UNMEASURED) for e in checked})
    drawn: list[tuple[Any, Draw, dict[str, Any] | None]] = []
    found: Counter = Counter()
    exhausted: dict[str, bool] = {}
    seen: set[tuple] = set()
    for draw in draws:
        cases, counts, bounded = draw_cases(suite, draw, cache)
        for expectation, count in counts.items():
            found[expectation] = max(found[expectation], count)
            side = sum(1 for c in cases if c.expectation == expectation) if draw.per_expectation else len(cases)
            # (a walk stopped at the suite's bound on texts tried has not seen every variant of the corpus)
            exhausted[expectation] = exhausted.get(expectation, False) or (side < draw.n and not bounded)
        for case in cases:
            key = (name, case.expectation, normalise(case.original), normalise(case.variant))
            if (case.source_id, key) in seen:  # one line drawn by two draws counts once; two sources of a pair twice
                continue
            seen.add((case.source_id, key))
            drawn.append((case, draw, by_key.get(key)))
    drawn_keys = {(name, c.expectation, normalise(c.original), normalise(c.variant)) for c, _, _ in drawn}
    retired = Counter(k[1] for k in by_key if k not in drawn_keys)
    statuses = {}
    for expectation in sorted({*checked, *found, *(c.expectation for c, _, _ in drawn)}):
        judged = [j for c, _, j in drawn if c.expectation == expectation and j is not None]
        to_judge = sum(1 for c, _, j in drawn if c.expectation == expectation and j is None)
        state = STALE if to_judge else CURRENT
        statuses[expectation] = CardStatus(name, expectation, state, len(judged), dict(Counter(j["label"] for j in judged)),
                                           to_judge, retired[expectation], exhausted.get(expectation, False))
    return CardMatch(name, statuses, drawn)


def match_cases(suite, cases: list, folders: list[Path] | None = None) -> CardMatch:
    """A suite run's own ``cases`` matched to the judgements of its perturbation's card on the suite's corpus:
    per expectation, how many of the row's cases a reader judged and how (its status: ``CURRENT`` with the
    validity among the judged cases, ``UNMEASURED`` when none is judged). Nothing is drawn again: a summary
    reports on the cases it scored, and ``rome validity`` alone redraws the cards (:func:`match_card`)."""
    name = suite.build_perturbation().card_name()
    by_key, _ = judgements(name, suite.corpus, folders or [default_cards_dir()])
    drawn = [(case, None, by_key.get((name, case.expectation, normalise(case.original), normalise(case.variant))))
             for case in cases]
    statuses = {}
    for expectation in sorted({*(c.expectation for c in suite.case_checks), *(c.expectation for c in cases)}):
        mine = [judged for case, _, judged in drawn if case.expectation == expectation]
        judged = [j for j in mine if j is not None]
        statuses[expectation] = CardStatus(name, expectation, CURRENT if judged else UNMEASURED, len(judged),
                                           dict(Counter(j["label"] for j in judged)), len(mine) - len(judged),
                                           cases=len(mine))
    return CardMatch(name, statuses, drawn)


def shipped_validity(cards: Path | list[Path] | None = None, data: list[str] | None = None,
                     suites: list[str] | None = None) -> list[tuple[str, str, str, CardStatus]]:
    """``(corpus, suite, card, status)`` for every corpus in ``data`` (shipped corpus names or JSONL files;
    default: every shipped corpus), shipped suite (or those named) and expectation its perturbation produces;
    judgements from ``cards`` (a folder or folders, the first one's label winning; default: the shipped cards)."""
    from rome.core.cache import ScoreCache, default_cache_path
    from rome.data.corpora import CORPORA
    from suites.harness.spec import available_suites, load_suite

    folders = ([cards] if isinstance(cards, Path) else cards) or [default_cards_dir()]
    cache = ScoreCache(default_cache_path())
    rows = []
    for spec in data or list(CORPORA):
        for suite_name in suites or available_suites():
            suite = load_suite(suite_name)
            if suite.direct_cases:  # a published minimal-pair set (DEMETR): no perturbation of ours to judge
                continue
            suite = suite.configured(data=spec)
            perturbation = suite.build_perturbation()
            statuses = card_statuses(suite, folders, cache, perturbation)
            expectations = sorted({c.expectation for c in suite.case_checks}) or ["invariant"]
            card = perturbation.card_name()
            for expectation in expectations:
                status = statuses.get(expectation, CardStatus(card, expectation, UNMEASURED))
                rows.append((suite.corpus, suite.name, card, status))
    return rows


def card_statuses(suite, folders: list[Path], cache: Any, perturbation: Any = None) -> dict[str, CardStatus]:
    """:func:`match_card`'s statuses of ``suite``'s card, kept in the score cache under what decides them: the
    card files' bytes, the perturbation's behaviour fingerprint, the texts and the rubric. A second ``rome
    validity`` on unchanged cards and code reads them back instead of drawing every card again."""
    import hashlib

    from rome.core.contract import HARNESS_VERSION
    from suites.harness.spec import data_fingerprint, perturbation_fingerprint

    perturbation = perturbation or suite.build_perturbation()
    name = perturbation.card_name()
    cards = [hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None
             for path in (card_path(name, suite.corpus, folder) for folder in folders)]
    key_fields = {"what": "card statuses", "cards": cards, "perturbation": perturbation_fingerprint(perturbation),
                  "data": suite.data.describe(), "data_files": data_fingerprint(suite.data), "rubric": RUBRIC,
                  "harness": HARNESS_VERSION, "suite": suite.name}
    key = hashlib.sha256(json.dumps(key_fields, sort_keys=True, default=str).encode()).hexdigest()
    if (stored := cache.get_payload(key)) is not None:
        return {e: CardStatus.from_dict(name, e, record) for e, record in stored.items()}
    statuses = match_card(suite, folders, cache=cache).statuses
    cache.put_payload(key, {e: status.as_dict() for e, status in statuses.items()})
    return statuses


def informative(status: CardStatus | None, judged_n: int | None) -> bool | None:
    """Whether a row answers "is this metric robust to this change?": on its reader-judged cases when there
    are at least :data:`JUDGED_MIN_N`, else on all cases when the validity among the judged ones is at least
    :data:`INFORMATIVE` (``None``: fewer than :data:`VALIDITY_MIN_N` judged, too few to say)."""
    if judged_n is not None and judged_n >= JUDGED_MIN_N:
        return True
    return None if status is None else status.informative


def estimated_validity(cases: list) -> dict[str, dict[str, float | int]]:
    """Per expectation, the mean of the perturbation's own estimate ``p_valid`` over the cases that carry one
    (``{}`` when none does): an estimate, not a reader's judgement."""
    values: dict[str, list[float]] = {}
    for case in cases:
        p = getattr(case, "p_valid", None)
        if p is not None:
            values.setdefault(case.expectation, []).append(float(p))
    return {e: {"mean": sum(v) / len(v), "n": len(v)} for e, v in sorted(values.items())}


def card_folders() -> list[Path]:
    """Where a suite run looks for judgements: the user's cards (``ROME_OUT/cards``) first, then the shipped ones."""
    return [user_cards_dir(), default_cards_dir()]


def validity_record(suite, cases: list, data: str | None = None, name: str | None = None,
                    match: CardMatch | None = None) -> dict[str, Any]:
    """The summary's word on the perturbation's validity on the texts the cases came from, the same under
    ``rome suite`` and pytest: the card, each expectation's status (with the perturbation's own estimate where
    it gives one) and, where something is left to judge or no card exists, the commands that judge it.
    ``data``, ``name``: the corpus and suite as the user gave them (for the commands)."""
    if suite.direct_cases:
        return {"card": None, "published": True, "corpus": suite.corpus}
    match = match or match_cases(suite, cases, card_folders())
    estimates = estimated_validity(cases)
    states = {}
    for expectation in sorted({c.expectation for c in suite.case_checks}) or ["invariant"]:
        status = match.statuses.get(expectation) or CardStatus(match.card, expectation, UNMEASURED)
        states[expectation] = {**status.as_dict(), **({"estimated": estimates[expectation]}
                                                       if expectation in estimates else {})}
    record: dict[str, Any] = {"card": match.card, "corpus": suite.corpus, "states": states}
    if any(s["to_judge"] for s in states.values()):
        given = f" --data {shlex.quote(data)}" if data else ""
        todo = card_path(match.card, suite.corpus, user_cards_dir()).with_suffix(".todo.jsonl")
        # the same seed and size draw exactly this run's cases; only those no reader judged are written
        record["judge"] = [f"rome validity --draw {shlex.quote(name or suite.name)}{given} --seed {suite.seed} "
                           f"--n {len(cases)}",
                           f"rome annotate --validity {shlex.quote(str(todo))} --annotator NAME",
                           f"rome validity{given}"]
    return record


def write_card(lines: list[dict[str, Any]], path: Path, inputs: list[tuple[str, Path | None]] = (),
               replace: bool = True, flag: str = "--out") -> Path:
    """Write a card with the one safe writer (:func:`rome.core.files.safe_output`): never over one of ``inputs``
    nor over anything but a card; over an existing card only with ``replace``."""
    with safe_output(path, CARD_OUTPUT, inputs=inputs, flag=flag, replace=replace,
                     exists_hint=REDRAW_HINT) as handle:
        handle.writelines(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    return path
