"""Validity cards: Wilson interval, stale/unmeasured cards, the command, and the robustness table's marks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reports import robustness
from reports.cli import main
from reports.robustness import load_suites, row_validity
from reports.validity import (
    CURRENT,
    STALE,
    UNMEASURED,
    CardStatus,
    Draw,
    load_card,
    match_card,
    reader_agreement,
    shipped_validity,
    wilson_interval,
    write_card,
)
from rome.core.errors import InputError
from suites.harness.spec import load_suite

ROOT = Path(__file__).resolve().parents[1]


def test_wilson_interval_known_values():
    # 3 of 40 (the TextFooler sample): 7.5 % [2.6, 19.9]
    low, high = wilson_interval(3, 40)
    assert (round(low, 3), round(high, 3)) == (0.026, 0.199)
    # 60 of 60: the upper end is 1, the lower end (n / (n + z^2)) 0.940
    low, high = wilson_interval(60, 60)
    assert round(low, 3) == 0.94 and high == pytest.approx(1.0)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def card_line(label: str, expectation: str = "decrease") -> dict:
    return {"card": "repetition", "suite": "repetition", "source_id": "x", "text": "a b", "variant": "a b b",
            "edits": [], "expectation": expectation, "label": label, "note": "", "seed": 1, "n": 10,
            "per_expectation": False, "rubric": 1}


def distinct(lines: list[dict]) -> list[dict]:
    """Card lines made distinct judgements (one pair each)."""
    return [{**line, "text": f"{line['text']} {i}", "variant": f"{line['variant']} {i}"} for i, line in enumerate(lines)]


REPETITION = Draw("repetition", 2026, 20, False)


def _judged_repetition(cards: Path, labels: dict[int, str] | None = None, skip: tuple[int, ...] = ()) -> list[dict]:
    """The repetition card on dialogue as the current code draws it (20 lines), every line judged
    ``intended`` except ``labels`` (by position) and the lines in ``skip`` (left unjudged)."""
    suite = load_suite("repetition").configured(data="dialogue")
    lines = match_card(suite, [cards / "none"], [REPETITION], cache=None).unjudged(suite)  # no judgement yet
    assert len(lines) == 20 and "fingerprint" not in lines[0] and lines[0]["rubric"] == 1
    judged = [{**line, "label": (labels or {}).get(k, "intended")} for k, line in enumerate(lines) if k not in skip]
    write_card(judged, cards / "dialogue" / "repetition.jsonl")
    return lines


def test_a_card_counts_the_judged_lines_the_code_still_draws_and_names_the_rest(tmp_path):
    """A card is judged text: matched to the current code's draw, it gives the judged lines reproduced, the
    validity among them, the lines drawn that no reader judged (STALE) and ignores the judged lines the code
    no longer draws."""
    cards = tmp_path / "cards"
    suite = load_suite("repetition").configured(data="dialogue")
    _judged_repetition(cards, labels={0: "broken", 1: "not_changed"})
    status = match_card(suite, [cards], cache=None).statuses["decrease"]
    assert (status.state, status.n, status.rate, status.to_judge) == (CURRENT, 20, 0.9, 0)
    assert status.cell() == "90% [70, 97] n=20"
    # three lines left unjudged, and a judged line the code no longer draws
    drawn = _judged_repetition(cards, skip=(3, 4, 5))
    path = cards / "dialogue" / "repetition.jsonl"
    retired = {**drawn[0], "variant": drawn[0]["variant"] + " again", "label": "broken"}
    path.write_text(path.read_text() + json.dumps(retired) + "\n")
    match = match_card(suite, [cards], cache=None)
    status = match.statuses["decrease"]
    assert (status.state, status.n, status.to_judge, status.retired, status.rate) == (STALE, 17, 3, 1, 1.0)
    assert status.cell().endswith("STALE: 3 to judge")
    assert [line["variant"] for line in match.unjudged(suite)] == [drawn[k]["variant"] for k in (3, 4, 5)]


def test_cards_are_validated(tmp_path):
    path = write_card([card_line("valid")], tmp_path / "bad.jsonl")  # "valid" is an invariant label
    with pytest.raises(InputError, match="not one of intended"):
        load_card(path)
    path = write_card([card_line("intended"), {**card_line("broken"), "source_id": "y"}], tmp_path / "two.jsonl")
    with pytest.raises(InputError, match="another label"):  # one pair, two labels: which one counts?
        load_card(path)
    path = write_card([{**card_line("intended"), "variant": " "}], tmp_path / "empty.jsonl")
    with pytest.raises(InputError, match="variant"):
        load_card(path)
    drawless = {k: v for k, v in card_line("intended").items() if k != "n"}  # which draw did it come from?
    with pytest.raises(InputError, match="field 'n' must be an integer"):
        load_card(write_card([drawless], tmp_path / "drawless.jsonl"))
    with pytest.raises(InputError, match="field 'seed'"):
        load_card(write_card([{**card_line("intended"), "seed": "7"}], tmp_path / "seedless.jsonl"))


def test_a_line_judged_twice_is_not_counted_twice(tmp_path):
    """Issue "ground" #8: a card appended to itself gave n = 120 and narrowed [89, 99] to [92, 99], silently.
    Now n is what the code draws: a doubled card counts each drawn pair once."""
    cards = tmp_path / "cards"
    suite = load_suite("repetition").configured(data="dialogue")
    _judged_repetition(cards)
    path = cards / "dialogue" / "repetition.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(lines + lines) + "\n", encoding="utf-8")
    assert len(load_card(path)) == 40
    assert match_card(suite, [cards], cache=None).statuses["decrease"].n == 20


def test_missing_cards_are_unmeasured(tmp_path):
    rows = shipped_validity(tmp_path)
    assert rows and all(status.state == UNMEASURED and status.rate is None for *_, status in rows)
    names = {suite for _, suite, _, _ in rows}
    assert {"typos_in_word", "typos_space", "textfooler", "passive_form"} <= names
    assert {corpus for corpus, *_ in rows} == {"dialogue", "news", "webnlg"}


#: the suites whose perturbation chooses its edits with a language model: redrawing their cards walks thousands
#: of texts through it (many minutes cold), so their cards' state is the main job's to report (``rome validity``
#: on docs/results.md), not CI's
MODEL_CHOSEN = ("adjective_replacement", "passive_form", "textfooler")


def test_every_rule_based_suite_has_a_current_card_of_60_on_every_shipped_corpus():
    """Every committed card of a rule-based perturbation drawn again with the current code: nothing left to
    judge, 60 judged lines per expectation or every one the corpus has."""
    from suites.harness.spec import available_suites

    suites = [s for s in available_suites() if s not in MODEL_CHOSEN and not load_suite(s).direct_cases]
    rows = shipped_validity(suites=suites)
    assert len({card for _, _, card, _ in rows}) >= 8  # seven rule-based kinds, typos as two slips
    for corpus, suite, card, status in rows:
        if status.state == UNMEASURED and _gives_no_variant(suite, corpus):
            continue  # nothing to judge: the corpus gives this kind no variant (optional_that on webnlg)
        assert status.state == CURRENT, (f"{suite} on {corpus}: card {card} is {status.state} "
                                         f"({status.to_judge} to judge): judge them (docs/validity.md)")
        # 60 judged variants, or every variant the corpus has (a precision-first perturbation may find fewer)
        assert status.n >= 60 or status.exhausted, f"{suite} on {corpus}: {status.expectation} n={status.n}"


def _gives_no_variant(suite_name: str, corpus: str) -> bool:
    """Whether a card's draw over the whole corpus finds no variant at all (a card cannot be drawn there)."""
    from suites.harness.validity import Draw, match_card

    suite = load_suite(suite_name).configured(data=corpus)
    match = match_card(suite, draws=[Draw(suite_name, suite.seed, 60, False)])
    return all(s.n == 0 and s.to_judge == 0 for s in match.statuses.values())


def test_a_row_never_borrows_another_corpus_card(tmp_path):
    """A suite run on news gets the news card or UNMEASURED, even when a dialogue card of the same
    perturbation exists; the robustness table shows what the run recorded."""
    cards, out = tmp_path / "cards", tmp_path / "out"
    _judged_repetition(cards)
    news = load_suite("repetition").configured(data="news")
    assert match_card(news, [cards], cache=None).statuses["decrease"].state == UNMEASURED
    _suite_output(out, "repetition", "repetition", {}, corpus="dialogue",
                  state=CardStatus("repetition", "decrease", CURRENT, 10, {"intended": 10}).as_dict())
    _suite_output(out, "repetition--news", "repetition", {}, corpus="news")
    by_corpus = {s.summary["corpus"]: row_validity(s, "decrease") for s in load_suites(out)}
    assert by_corpus["dialogue"].rate == 1.0 and by_corpus["news"].state == UNMEASURED


def test_validity_command(tmp_path, capsys):
    assert main(["validity", "--suite", "repetition", "--data", "dialogue"]) == 0
    out = capsys.readouterr().out
    assert "| dialogue | repetition | repetition | decrease | 100% [94, 100] | 60 | intended 60 | 0 | current |" in out
    assert main(["validity", "--cards", str(tmp_path / "none")]) == 2
    todo = tmp_path / "todo.jsonl"
    assert main(["validity", "--draw", "repetition", "--n", "3", "--seed", "7", "--out", str(todo)]) == 0
    lines = [json.loads(line) for line in todo.read_text().splitlines()]
    assert len(lines) == 3 and all(line["label"] == "" and "fingerprint" not in line and line["seed"] == 7
                                   and line["n"] == 3 for line in lines)
    assert main(["validity", "--strict", "--suite", "repetition", "--cards", str(tmp_path)]) == 1  # no card: unmeasured


def test_validity_draw_writes_exactly_the_lines_no_reader_judged(tmp_path):
    """``rome validity --draw`` on a corpus with a card: the lines the code draws that no reader judged, with the
    card's own draw, and nothing when every line is judged."""
    cards = tmp_path / "cards"
    drawn = _judged_repetition(cards, skip=(2, 7))
    assert main(["validity", "--draw", "repetition", "--data", "dialogue", "--cards", str(cards)]) == 0
    todo = [json.loads(line) for line in (cards / "dialogue" / "repetition.todo.jsonl").read_text().splitlines()]
    assert [(line["variant"], line["seed"], line["n"]) for line in todo] == [
        (drawn[k]["variant"], 2026, 20) for k in (2, 7)]
    # judged and appended to the card: nothing is left to draw, and the card is current
    path = cards / "dialogue" / "repetition.jsonl"
    path.write_text(path.read_text() + "".join(json.dumps({**line, "label": "intended"}) + "\n" for line in todo))
    (cards / "dialogue" / "repetition.todo.jsonl").unlink()
    assert main(["validity", "--draw", "repetition", "--data", "dialogue", "--cards", str(cards)]) == 0
    assert not (cards / "dialogue" / "repetition.todo.jsonl").exists()
    rows = shipped_validity(cards, ["dialogue"], ["repetition"])
    assert [(r[3].state, r[3].n) for r in rows] == [(CURRENT, 20)]


def _suite_output(root: Path, name: str, kind: str, trained: dict, corpus: str = "dialogue",
                  state: dict | None = None, judged: dict | None = None) -> None:
    folder = root / name
    folder.mkdir(parents=True)
    checks = {m: {"decrease": {"pass_rate": 0.5, "n": 10, "mean_delta": -0.1, "worst_delta": 0.2, "passed": False,
                               "requirement": "drops"},
                  "mft": {"pass_rate": 1.0, "n": 2, "mean_delta": 0.1, "worst_delta": 0.1, "passed": True,
                          "requirement": "fixed pairs"}} for m in ("bleu", "rome")}
    summary = {"suite": name.split("--")[0], "corpus": corpus, "signatures": {"bleu": "b", "rome": "r"},
               "data": {"n_cases": 10}, "perturbation": {"kind": kind}, "checks": checks,
               "check_expectations": {"decrease": "decrease", "mft": None},
               "validity": {"card": kind, "corpus": corpus, **({"states": {"decrease": state}} if state else {})},
               "trained_on_families": trained, **({"judged": judged} if judged else {})}
    (folder / "summary.json").write_text(json.dumps(summary))


def _judged(n: int, passes: int) -> dict:
    outcomes = {f"c{k}": k < passes for k in range(n)}
    return {"pass_rate": passes / n, "n": n, "passes": passes, "median_change": -0.3, "median_delta": -0.02,
            "passed": passes / n >= 0.9, "requirement": "drops", "informative": n >= 30, "outcomes": outcomes}


def test_robustness_table_shows_validity_marks_uninformative_rows_and_trained_families(tmp_path):
    out = tmp_path / "out"
    seventy = CardStatus("repetition", "decrease", CURRENT, 10, {"intended": 7, "broken": 3}).as_dict()
    stale = CardStatus("entity", "decrease", STALE, 20, {"intended": 19, "broken": 1}, to_judge=4).as_dict()
    _suite_output(out, "repetition", "repetition", {"rome": ["repetition", "entity"]}, state=seventy,
                  judged={"bleu": {"decrease": _judged(34, 30)}, "rome": {"decrease": _judged(34, 33)}})
    _suite_output(out, "entity_replacement", "entity", {"rome": ["repetition"]}, state=stale,
                  judged={"bleu": {"decrease": _judged(12, 12)}, "rome": {"decrease": _judged(12, 11)}})
    _suite_output(out, "typos_space", "typos_space", {"rome": []})
    report = robustness.build_report(out)
    table = robustness.checks_table(report)
    assert table.columns == ["corpus", "perturbation", "check", "n", "validity", "coverage", "bleu", "rome"]
    rows = {(r[1], r[2]): r[:1] + r[2:5] + r[6:] for r in table.rows}  # as before corpora: without corpus, coverage
    assert rows["repetition", "decrease"][3] == "70% [40, 89] n=10 **uninformative**"
    assert rows["repetition", "decrease"][5].endswith("†") and not rows["repetition", "decrease"][4].endswith("†")
    assert rows["repetition", "mft"][3] == "–" and not rows["repetition", "mft"][5].endswith("†")
    assert rows["entity_replacement", "decrease"][3] == "95% [76, 99] n=20 STALE: 4 to judge"
    assert not rows["entity_replacement", "decrease"][5].endswith("†")
    assert rows["typos_space", "decrease"][3] == UNMEASURED
    # beside each case check, its verdict on the reader-judged cases: informative from n = 30 whatever the validity
    judged = rows["repetition", "decrease (judged)"]
    assert judged[2] == "34" and judged[3] == "judged good by a reader (n=34): informative"
    assert judged[4].startswith("88% [73, 95]") and judged[5].startswith("97% [85, 99]") and judged[5].endswith("†")
    assert "**uninformative** (n < 30)" in rows["entity_replacement", "decrease (judged)"][3]
    assert ("repetition", "mft (judged)") not in rows and ("typos_space", "decrease (judged)") not in rows
    notes = "\n".join(table.notes)
    assert "RoMe's scorer or grammar classifier was trained on this family of damage" in notes and "uninformative" in notes
    assert 'Which figure answers "is this metric robust to this change?"' in notes
    # the paired test on the judged cases: bleu fails 4 of 34 that rome fails 1 of
    compared = robustness.comparison_table(report, "bleu", "rome")
    judged_rows = [r for r in compared.rows if r[2] == "decrease (judged)" and r[1] == "repetition"]
    assert judged_rows and judged_rows[0][3] == "34" and judged_rows[0][7] == "0" and judged_rows[0][8] == "3"


def test_an_estimated_validity_is_shown_as_an_estimate_only_when_the_run_recorded_one(tmp_path):
    out = tmp_path / "out"
    state = {**CardStatus("textfooler", "decrease", CURRENT, 10, {"intended": 10}).as_dict(),
             "estimated": {"mean": 0.81, "n": 200}}
    _suite_output(out, "textfooler", "textfooler", {}, state=state)
    _suite_output(out, "repetition", "repetition", {},
                  state=CardStatus("repetition", "decrease", CURRENT, 10, {"intended": 10}).as_dict())
    rows = {r[1]: r[4] for r in robustness.checks_table(robustness.build_report(out)).rows if r[2] == "decrease"}
    assert rows["textfooler"].endswith("; estimated 81% (n=200, an estimate)")
    assert "estimated" not in rows["repetition"]


def test_demetr_rows_are_marked_where_rome_trained_on_one_of_their_categories(tmp_path):
    """Issue "ground" (Claims): DEMETR rows never got the †, though RoMe's scorer negatives (shuffle, entity
    swap, truncation) and its grammar classifier's damage (delete, repeat) match DEMETR categories."""
    out = tmp_path / "out"
    folder = out / "demetr"
    folder.mkdir(parents=True)
    cell = {"pass_rate": 0.9, "n": 10, "mean_delta": -0.1, "worst_delta": 0.2, "passed": True, "requirement": "x"}
    summary = {"suite": "demetr", "signatures": {"bleu": "b", "rome": "r"}, "data": {"n_cases": 40},
               "perturbation": None, "validity": {"card": None, "published": True},
               "checks": {m: {c: cell for c in ("controls", "critical", "major", "minor")} for m in ("bleu", "rome")},
               "check_expectations": {}, "trained_on_families": {
                   "rome": ["repetition", "critical_id20_shuffled", "minor_id2_repeat4"], "bleu": []}}
    (folder / "summary.json").write_text(json.dumps(summary))
    table = robustness.checks_table(robustness.build_report(out))
    rows = {(r[1], r[2]): r[:1] + r[2:5] + r[6:] for r in table.rows}  # without corpus and coverage
    assert rows["demetr", "critical"][5].endswith("†") and rows["demetr", "minor"][5].endswith("†")
    assert not rows["demetr", "major"][5].endswith("†") and not rows["demetr", "controls"][5].endswith("†")
    assert not any(rows["demetr", c][4].endswith("†") for c in ("controls", "critical", "major", "minor"))
    assert "grammar classifier" in "\n".join(table.notes)


def test_a_side_the_corpus_has_no_variant_of_is_said_so_not_unmeasured():
    """An adjective draw per expectation on a corpus with antonyms but no synonym: the synonym side is 'no
    variants' (nothing to judge, no cases), not UNMEASURED; a draw with fewer than asked is 'all'."""
    assert CardStatus("adjective", "decrease", CURRENT, 2, {"intended": 2}, exhausted=True).cell() == \
        "100% [34, 100] n=2 (all)"
    none = CardStatus("adjective", "invariant", CURRENT, 0, {}, exhausted=True)
    assert none.cell() == "no variants" and none.as_dict()["state"] == CURRENT


def test_reader_agreement_counts_verdicts_labels_and_kappa():
    card = distinct([card_line(label, "invariant") for label in ("valid", "valid", "awkward", "valid")])
    second = [{**line, "label": label} for line, label in zip(card, ("valid", "ungrammatical", "awkward", "valid"))]
    second.append({**card[0], "variant": "not on the card", "label": "awkward"})  # a line re-drawn away: ignored
    (got,) = reader_agreement(card, second).values()
    assert (got.n, got.first_valid, got.second_valid, got.agreed, got.same_label) == (4, 3, 2, 3, 3)
    # observed agreement 3/4, chance 3/4 * 2/4 + 1/4 * 2/4 = 1/2: kappa (0.75 - 0.5) / 0.5
    assert got.kappa == pytest.approx(0.5)
    assert got.second_interval == wilson_interval(2, 4)
    same = reader_agreement(card, card)["invariant"]
    assert same.agreed == same.same_label == 4 and same.kappa == pytest.approx(1.0)
    with pytest.raises(InputError, match="not one of the labels"):
        reader_agreement(card, [{**card[0], "label": "intended"}])  # a decrease label on an invariant line


def test_shipped_second_readings_are_lines_of_their_cards():
    """Every line of every second-reader file is still a line of its card (scripts/research/reader_agreement.py,
    docs/validity.md): after a card is re-drawn, lines the code no longer produces must leave the second
    reading too, or its table would quote lines the card no longer holds."""
    seconds = sorted((ROOT / "perturbations" / "cards").glob("*/second_reader/*.jsonl"))
    assert seconds
    for path in seconds:
        card = load_card(path.parent.parent / f"{path.stem}.jsonl")
        compared = reader_agreement(card, load_card(path))
        assert sum(a.n for a in compared.values()) == len(load_card(path)), path


def test_a_tampered_judged_verdict_is_a_one_line_error(tmp_path):
    out = tmp_path / "out"
    _suite_output(out, "repetition", "repetition", {}, judged={"bleu": {"decrease": {**_judged(4, 3), "pass_rate": "x"}}})
    with pytest.raises(InputError, match=r"judged\.bleu\.decrease\.pass_rate"):
        robustness.build_report(out)


def test_a_summary_reads_its_own_cases_from_the_cards_and_draws_nothing_again(tmp_path, monkeypatch):
    """A suite's summary looks its own cases up among the judged lines: no card is drawn again. The suite's
    default seed is its card's, so the shipped card judges the first cases of the default run; on another
    seed only the cases a user's card judged count, and the rest are left to judge."""
    import suites.harness.cases as pipeline
    from suites.harness.runner import open_run
    from suites.harness.validity import card_line, user_cards_dir

    monkeypatch.setenv("ROME_OUT", str(tmp_path / "out"))  # the user's cards: this test's own
    real, calls = pipeline.build_cases, []
    monkeypatch.setattr(pipeline, "build_cases", lambda *a, **k: calls.append(a) or real(*a, **k))
    run = open_run("repetition", data="dialogue", n=20, metrics=["bleu"], no_cache=True)
    states = run.validity_record()["states"]
    assert (states["decrease"]["n"], states["decrease"]["to_judge"], states["decrease"]["cases"]) == (20, 0, 20)
    assert len(run.judged_cases) == sum(1 for c in run.cases if c.expectation == "decrease") and not calls

    other = open_run("repetition", data="dialogue", n=20, seed=5, metrics=["bleu"], no_cache=True)
    shipped = other.card_match.statuses["decrease"].n  # a text drawn by both seeds is judged already
    lines = [{**card_line("repetition", other.suite, case, Draw("repetition", 5, 20, False)),
              "label": "broken" if k < 2 else "intended"} for k, case in enumerate(other.cases[:12])]
    write_card(lines, user_cards_dir() / "dialogue" / "repetition.jsonl")
    other._card_match = None
    status = other.card_match.statuses["decrease"]
    assert status.n >= 12 and status.n + status.to_judge == 20 and status.counts.get("broken", 0) >= 2
    assert shipped < status.n and len(other.judged_cases) == status.valid and not calls
    assert "--seed 5 --n 20" in other.validity_record()["judge"][0]


def test_a_draw_stopped_at_the_suites_bound_on_texts_is_not_every_variant_of_the_corpus(tmp_path):
    """A card drawn where the walk stopped at the suite's ``max_texts`` holds fewer lines than asked, but the
    corpus has more variants: not "(all)". A walk that reached the corpus's end is."""
    from suites.harness.validity import Draw, match_card

    bounded = load_suite("repetition").configured(data="news", max_texts=5)
    status = match_card(bounded, [tmp_path], [Draw("repetition", bounded.seed, 60, False)], None).statuses["decrease"]
    assert 0 < status.to_judge <= 5 and not status.exhausted
    corpus = tmp_path / "three.jsonl"
    corpus.write_text("".join(json.dumps({"id": f"t{i}", "reference": text, "original": text}) + "\n" for i, text in
                              enumerate(["The committee approved the new budget.", "The storm destroyed the old bridge.",
                                         "Maria wrote the final report."])), encoding="utf-8")
    whole = load_suite("repetition").configured(data=str(corpus))
    status = match_card(whole, [tmp_path], [Draw("repetition", whole.seed, 60, False)], None).statuses["decrease"]
    assert 0 < status.to_judge <= 3 and status.exhausted
