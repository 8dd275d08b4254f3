"""Validity cards as the reports show them: the ``rome validity`` table and two readers' agreement.

The cards themselves (format, matching to the current code's draws, statuses, informativeness) are
owned by :mod:`suites.harness.validity`, which both ways of running a suite call; the names are
re-exported here for the report code and scripts that read cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rome.core.errors import InputError
from suites.harness.checks import wilson_interval
from suites.harness.validity import (  # noqa: F401  (re-exported: the cards' API)
    CARD_OUTPUT,
    CARD_SIZE,
    CURRENT,
    GOOD_LABEL,
    INFORMATIVE,
    JUDGED_MIN_N,
    LABELS,
    NO_VARIANTS,
    REDRAW_HINT,
    RUBRIC,
    STALE,
    UNMEASURED,
    VALIDITY_MIN_N,
    CardStatus,
    Draw,
    card_path,
    check_draw,
    default_cards_dir,
    draws_of,
    informative,
    judgement_key,
    load_card,
    match_card,
    normalise,
    shipped_validity,
    user_cards_dir,
    write_card,
)


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

    by_key = {judgement_key(line): line for line in card}
    pairs: dict[str, list[tuple[str, str]]] = {}
    for line in second:
        expectation, label = line.get("expectation"), line.get("label")
        if expectation not in LABELS or label not in LABELS[expectation]:
            raise InputError(f"second reader: label {label!r} is not one of the labels of {expectation!r}")
        first = by_key.get(judgement_key(line))
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


def validity_markdown(rows: list[tuple[str, str, str, CardStatus]]) -> str:
    """The ``rome validity`` table: per corpus, suite and expectation, the validity among the judged lines the
    code still draws, how many those are, the lines it draws that no reader judged, and the card's state."""
    lines = ["| corpus | suite | card | expectation | validity [Wilson 95 %] | n reproduced | labels | to judge next "
             "| card |", "|---|---|---|---|---|---|---|---|---|"]
    for corpus, suite, card, status in rows:
        labels = ", ".join(f"{k} {v}" for k, v in sorted(status.counts.items(), key=lambda kv: -kv[1])) or "–"
        rate = "–" if status.rate is None else status.cell().split(" n=")[0]
        if status.n or status.state == STALE:
            flag = status.state
        else:
            flag = NO_VARIANTS if status.exhausted else UNMEASURED
        if status.exhausted and status.n:
            flag += ", every variant the corpus has"
        if status.informative is False:
            flag += f", below {INFORMATIVE:.2f}: rows uninformative on all cases"
        lines.append(f"| {corpus} | {suite} | {card} | {status.expectation} | {rate} | {status.n} | {labels} | "
                     f"{status.to_judge} | {flag} |")
    return "\n".join(lines) + "\n"
