"""The step profile of ``rome bench`` times the real pipeline: the steps a variant runs, and only inside a recording."""

from __future__ import annotations

import pytest

from rome.metric import RoMe
from rome.metric.profiling import recording, step

HYPS = ["The hotel is cheap.", "It is near the park."]
REFS = ["The hotel is inexpensive.", "It is close to the park."]


@pytest.mark.parametrize(("variant", "steps"), [
    ("emd_std", {"encode", "parse", "pool_words", "semantic_emd"}),
    ("ted", {"encode", "parse", "pool_words", "semantic_emd", "ted_se", "scorer"}),
    ("grammar", {"encode", "parse", "pool_words", "semantic_emd", "ted_se", "grammar", "scorer"}),
])
def test_a_recording_holds_the_steps_the_variant_runs(variant, steps):
    metric = RoMe(variant=variant)
    metric.encoder.clear_cache()
    with recording() as times:
        scores = metric.score(HYPS, REFS)
    assert set(times) == steps and all(seconds >= 0 for seconds in times.values())
    with recording() as again:
        assert list(metric.score(HYPS, REFS)) == list(scores)  # timing changes no score
    assert set(again) == steps


def test_steps_outside_a_recording_are_not_timed_and_recordings_nest():
    with step("encode"):  # no recording: nothing to add to, nothing raised
        pass
    with recording() as outer:
        with step("a"):
            pass
        with recording() as inner, step("b"):
            pass
        with step("a"):
            pass
    assert set(outer) == {"a"} and set(inner) == {"b"}
