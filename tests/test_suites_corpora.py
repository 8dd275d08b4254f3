"""Suites on any corpus: the three shipped corpora, ``--data`` / ``--seed`` for ``rome suite`` and pytest,
the suite's own sample, coverage, and cases keyed by the data file's content."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from perturbations.base import Edit, Perturbation, Result, Variant
from reports.cli import main
from rome.core.cache import ScoreCache
from rome.core.errors import InputError
from rome.data.corpora import CORPORA
from suites.harness import CorpusSource, Invariant, JsonlPairs, Suite
from suites.harness.cases import build_cases, coverage
from suites.harness.runner import SuiteRun, open_run

ROOT = Path(__file__).resolve().parents[1]


class FirstWordUpper(Perturbation):
    """Upper-cases the first word: a cheap, deterministic perturbation that changes every text."""

    kind = "first_upper"

    def _apply(self, text: str, rng: random.Random) -> Result:
        word = text.split()[0]
        return Result(text, (Variant(word.upper() + text[len(word):], self.kind, "invariant",
                                     (Edit(0, len(word), word, word.upper()),)),))


def test_three_shipped_corpora_from_different_domains_each_give_pairs():
    assert set(CORPORA) == {"dialogue", "news", "webnlg"}
    for name, corpus in CORPORA.items():
        pairs = corpus.pairs(0)
        assert len(pairs) > 500, name
        assert len({p.source_id for p in pairs}) == len(pairs), f"{name}: ids must be unique"
        assert all(p.reference.strip() and p.original.strip() for p in pairs)
        assert corpus.pairs(0) == pairs and corpus.pairs(1) != pairs  # seeded order
    news = {p.original for p in CORPORA["news"].pairs(0)}
    demetr = json.loads(next(Path(f) for f in CORPORA["news"].files() if "ne_replaced" in f.name).read_text())
    assert not news & {item["pert_sent"] for item in demetr if item["pert_sent"] != item["mt_sent"]}


def test_rome_suite_runs_on_any_corpus_with_its_own_seed(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["suite", "--list-corpora"]) == 0
    assert [line.split("\t")[0] for line in capsys.readouterr().out.splitlines()] == ["dialogue", "news", "webnlg"]
    code = main(["suite", "contractions", "--data", "news", "--n", "4", "--seed", "3", "--metric", "chrf",
                 "--no-cache", "--out", str(out)])
    assert code in (0, 1)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["corpus"] == "news" and summary["sample"] == {"n": 4, "seed": 3}
    assert summary["validity"]["corpus"] == "news"
    cases = [json.loads(line) for line in (out / "cases.jsonl").read_text().splitlines()]
    assert len(cases) == 4 and all(c["source_id"].startswith("news-") for c in cases)
    cov = summary["coverage"]
    assert cov["cases"] == 4 and 0 < cov["changed_share"] <= 1 and 1 <= cov["distinct_edits"] <= 4
    for bad in (["--data", "nowhere.jsonl"], ["--data", str(tmp_path)], ["--n", "0"]):
        assert main(["suite", "contractions", *bad, "--metric", "chrf", "--no-cache"]) == 2
    assert "neither a shipped corpus" in capsys.readouterr().err
    assert main(["suite", "demetr", "--data", "news", "--metric", "chrf", "--no-cache"]) == 2
    assert "a challenge suite brings its own minimal pairs" in capsys.readouterr().err


def test_a_suite_run_on_another_corpus_writes_beside_its_own(tmp_path, monkeypatch):
    monkeypatch.setenv("ROME_OUT", str(tmp_path))
    run = open_run("repetition", data="webnlg", n=3, metrics=["chrf"], no_cache=True)
    from suites.harness.outputs import write_outputs

    run.result("chrf", run.suite.checks[0].name)
    assert write_outputs(run) == tmp_path / "repetition--webnlg"
    own = open_run("repetition", n=3, metrics=["chrf"], no_cache=True)
    own.result("chrf", own.suite.checks[0].name)
    assert write_outputs(own) == tmp_path / "repetition"


def test_the_same_seed_gives_the_same_cases_and_another_seed_others():
    suite = Suite(name="s", data=CorpusSource("news"), n=6, seed=5, perturbation=FirstWordUpper(), metrics=["chrf"],
                  checks=[Invariant()])
    first, _ = build_cases(suite, 6)
    again, _ = build_cases(suite, 6)
    other, _ = build_cases(suite.configured(seed=6), 6)
    assert first == again and [c.source_id for c in first] != [c.source_id for c in other]


def test_cases_from_a_user_file_go_stale_when_the_file_changes(tmp_path):
    path = tmp_path / "pairs.jsonl"
    path.write_text(json.dumps({"id": "a", "reference": "The cafe is cheap .", "original": "a cheap cafe ."}) + "\n")
    suite = Suite(name="mine", data=JsonlPairs(str(path)), n=None, perturbation=FirstWordUpper(), metrics=["chrf"],
                  checks=[Invariant()])
    cache = ScoreCache(tmp_path / "scores.sqlite")
    first = SuiteRun(suite, cache=cache)
    assert [c.variant for c in first.cases] == ["A cheap cafe ."] and not first.build_stats.from_cache
    path.write_text(json.dumps({"id": "a", "reference": "The cafe is cheap .", "original": "the cheap cafe ."}) + "\n")
    second = SuiteRun(suite, cache=cache)
    assert [c.variant for c in second.cases] == ["THE cheap cafe ."] and not second.build_stats.from_cache
    path.write_text(path.read_text() + json.dumps({"id": "a", "reference": "x", "original": "y"}) + "\n")
    with pytest.raises(InputError, match="id 'a' already used on line 1"):
        len(SuiteRun(suite, cache=cache).cases)


def test_coverage_counts_distinct_edits_and_the_most_frequent_one():
    suite = Suite(name="s", data=CorpusSource("dialogue"), n=20, perturbation=FirstWordUpper(), metrics=["chrf"],
                  checks=[Invariant()])
    cases, stats = build_cases(suite, 20)
    cov = coverage(cases, stats)
    first_words = [c.original.split()[0] for c in cases]
    assert cov["distinct_edits"] == len(set(first_words))
    top = max(set(first_words), key=first_words.count)
    assert cov["top_edit_share"] == first_words.count(top) / 20 and cov["changed_share"] == 20 / stats.texts_tried


@pytest.mark.slow
def test_pytest_takes_the_suite_data_and_seed(tmp_path):
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(ROOT / "suites" / "repetition.py"),
                           "-k", "chrf", "--suite-data", "news", "--suite-n", "5", "--suite-seed", "2",
                           "--suite-no-cache", "--suite-out", str(out)], capture_output=True, text=True, cwd=ROOT,
                          timeout=600)
    assert proc.returncode in (0, 1), proc.stdout[-2000:] + proc.stderr[-2000:]
    summary = json.loads((out / "repetition--news" / "summary.json").read_text())
    assert summary["corpus"] == "news" and summary["sample"]["seed"] == 2 and summary["data"]["n_cases"] == 5


def test_rome_perturb_and_a_suite_share_one_seeding_rule(tmp_path):
    """The same text, id and seed give the same variant in ``rome perturb`` and in a suite's cases."""
    text = "The hotel near the old harbour offers cheap rooms and a quiet garden for families ."
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text(json.dumps({"id": "t1", "reference": "A reference .", "original": text}) + "\n")
    texts = tmp_path / "texts.jsonl"
    texts.write_text(json.dumps({"id": "t1", "text": text}) + "\n")
    from perturbations.registry import build_perturbation

    for seed in (0, 5):
        suite = Suite(name="s", data=JsonlPairs(str(pairs)), n=None, seed=seed,
                      perturbation=build_perturbation("random_word"), metrics=["chrf"], checks=[Invariant()])
        cases, _ = build_cases(suite, 10)
        out = tmp_path / f"out{seed}.jsonl"
        assert main(["perturb", "--kind", "random_word", "--input", str(texts), "--output", str(out),
                     "--seed", str(seed)]) == 0
        row = json.loads(out.read_text().splitlines()[0])
        variants = [v["text"] for v in row["variants"]] if "variants" in row else [row["variant"]]
        assert cases[0].variant in variants


def _jsonl(path: Path) -> Path:
    rows = [{"id": 1, "reference": "The plan is not ready.", "original": "It is not ready yet."},
            {"id": 2, "reference": "They are late again.", "original": "They are not on time."},
            {"id": 3, "reference": "The hotel is cheap.", "original": "It is a cheap hotel."}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_a_suite_on_texts_without_a_card_says_its_validity_is_unmeasured_and_how_to_judge_one(tmp_path, capsys,
                                                                                             monkeypatch):
    """``rome suite NAME --data FILE``: the printed summary, summary.md and summary.json say the perturbation's
    validity on those texts is UNMEASURED and give the commands that draw, label and read a card."""
    import suites.harness.validity

    monkeypatch.setattr(suites.harness.validity, "default_cards_dir", lambda: tmp_path / "cards")
    monkeypatch.setenv("ROME_OUT", str(tmp_path / "rome-out"))
    data, out = _jsonl(tmp_path / "mine.jsonl"), tmp_path / "out"
    assert main(["suite", "contractions", "--data", str(data), "--metric", "chrf", "--no-cache", "--out", str(out)]) in (0, 1)
    printed = capsys.readouterr().out
    summary = json.loads((out / "summary.json").read_text())
    record, cases = summary["validity"], summary["data"]["n_cases"]
    assert record["corpus"] == "mine" and record["states"]["invariant"]["state"] == "UNMEASURED"
    user_cards = tmp_path / "rome-out" / "cards"  # where rome validity --draw writes (never the package)
    todo = user_cards / "mine" / "contractions.todo.jsonl"
    # the suite's seed and the run's size: the draw is exactly this run's cases
    assert record["judge"] == [f"rome validity --draw contractions --data {data} --seed 2027 --n {cases}",
                               f"rome annotate --validity {todo} --annotator NAME",
                               f"rome validity --data {data}"]
    for text in (printed, (out / "summary.md").read_text()):
        assert "invariant: UNMEASURED" in text and "no judged card for this perturbation on these texts" in text
        assert all(f"`{command}`" in text for command in record["judge"])


def _judged_card(data: Path, folder: Path, labels: list[str] | None = None) -> list[dict]:
    """The contractions card of ``data`` as the current code draws it (seed 5), judged with ``labels``
    (default: all valid), written to ``folder``."""
    from suites.harness.spec import load_suite
    from suites.harness.validity import Draw, match_card, write_card

    suite = load_suite("contractions").configured(data=str(data))
    lines = match_card(suite, [folder], [Draw("contractions", 5, 10, False)], cache=None).unjudged(suite)
    assert lines and "fingerprint" not in lines[0]
    labels = labels or ["valid"] * len(lines)
    judged = [{**line, "label": label, "note": "" if label == "valid" else "reads oddly"}
              for line, label in zip(lines, labels)]
    write_card(judged, folder / "mine" / "contractions.jsonl")
    return judged


def test_a_suite_with_a_current_card_gives_its_figure_and_no_judging_commands(tmp_path, capsys, monkeypatch):
    import suites.harness.validity

    monkeypatch.setattr(suites.harness.validity, "default_cards_dir", lambda: tmp_path / "cards")
    data = _jsonl(tmp_path / "mine.jsonl")
    judged = _judged_card(data, tmp_path / "cards", ["awkward", "valid", "valid"])
    out = tmp_path / "out"
    assert main(["suite", "contractions", "--data", str(data), "--metric", "chrf", "--no-cache", "--out", str(out)]) in (0, 1)
    printed = capsys.readouterr().out
    summary = json.loads((out / "summary.json").read_text())
    record = summary["validity"]
    n = len(judged)
    assert record["states"]["invariant"]["state"] == "current" and record["states"]["invariant"]["n"] == n
    assert record["states"]["invariant"]["validity"] == pytest.approx((n - 1) / n) and "judge" not in record
    assert "UNMEASURED" not in printed and "rome validity --draw" not in printed
    # the judged verdict: the chrF check on the lines judged valid, scored against their references
    assert summary["judged"]["chrf"]["invariant"]["n"] == n - 1
    assert "on reader-judged cases" in printed


def test_a_card_the_user_judged_is_read_and_a_suite_file_is_named_as_given(tmp_path, capsys, monkeypatch):
    """The card ``rome annotate`` completes under ROME_OUT/cards counts for the suite's summary; a suite given
    as a file is named by that file in the commands (``rome validity --draw NAME`` knows no such name)."""
    import suites.harness.validity

    monkeypatch.setattr(suites.harness.validity, "default_cards_dir", lambda: tmp_path / "cards")
    monkeypatch.setenv("ROME_OUT", str(tmp_path / "rome-out"))
    data = _jsonl(tmp_path / "mine.jsonl")
    suite_file = tmp_path / "my_suite.py"
    import suites

    suite_file.write_text((Path(suites.__file__).parent / "contractions.py").read_text(encoding="utf-8"), encoding="utf-8")
    out = tmp_path / "out"
    assert main(["suite", str(suite_file), "--data", str(data), "--metric", "chrf", "--no-cache", "--out", str(out)]) in (0, 1)
    summary = json.loads((out / "summary.json").read_text())
    record = summary["validity"]
    assert record["judge"][0] == (f"rome validity --draw {suite_file} --data {data} --seed 2027 "
                                  f"--n {summary['data']['n_cases']}")
    _judged_card(data, tmp_path / "rome-out" / "cards")
    out = tmp_path / "out2"
    assert main(["suite", "contractions", "--data", str(data), "--metric", "chrf", "--no-cache", "--out", str(out)]) in (0, 1)
    record = json.loads((out / "summary.json").read_text())["validity"]
    assert record["states"]["invariant"]["state"] == "current" and "judge" not in record


class EstimatedUpper(FirstWordUpper):
    """As :class:`FirstWordUpper`, with its own estimate that each variant is valid (as a judge would set it)."""

    kind = "estimated_upper"

    def _apply(self, text: str, rng: random.Random) -> Result:
        result = super()._apply(text, rng)
        variant = result.variants[0]
        p = 0.5 if len(text) % 2 else 1.0
        return Result(text, (Variant(variant.text, self.kind, variant.expectation, variant.edits, {"p_valid": p}),))


def test_an_estimated_validity_is_recorded_only_where_the_perturbation_gives_one():
    """``variant.meta["p_valid"]``: its mean over the cases is the summary's estimate, marked as one; a
    perturbation that gives none has no estimate (never a made-up one)."""
    from suites.harness.outputs import summary, summary_markdown

    for perturbation, estimated in ((EstimatedUpper(), True), (FirstWordUpper(), False)):
        suite = Suite(name="s", data=CorpusSource("dialogue"), n=8, seed=2, perturbation=perturbation,
                      metrics=["chrf"], checks=[Invariant()])
        run = SuiteRun(suite, cache=ScoreCache(None))
        run.result("chrf", "invariant")
        data = summary(run)
        state = data["validity"]["states"]["invariant"]
        assert state["state"] == "UNMEASURED"
        if estimated:
            expected = sum(0.5 if len(c.original) % 2 else 1.0 for c in run.cases) / len(run.cases)
            assert state["estimated"] == {"mean": pytest.approx(expected), "n": 8}
            assert "an estimate, not a reader's judgement" in summary_markdown(data)
        else:
            assert "estimated" not in state and "estimate" not in summary_markdown(data)
