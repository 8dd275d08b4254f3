"""pytest integration: ``pytest suites/passive_form.py`` collects one test per metric x check.

A suite file is any ``.py`` file that defines a :class:`Suite` at top level (found by importing
it); it need not be named ``test_*.py``. Property-test files beside the suites are named ``example_*.py`` and
collected as ordinary test modules. ``suites/conftest.py`` re-exports these hooks, so the
plugin is active only for files under ``suites/`` and ``pytest tests`` is unaffected.

Each suite is scored once per session (a shared :class:`SuiteRun`), metric by metric as
its tests run, through the on-disk score cache; outputs go to ``rome-out/<suite>/`` (or ``ROME_OUT``) at
the end of the session.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rome.core.errors import InputError, NotApplicableError, ResourceMissingError

#: set (as tox does) when the install provides every metric: a missing one then fails its tests instead of skipping
REQUIRE_EXTRAS = "ROME_REQUIRE_EXTRAS"
_RUNS = pytest.StashKey[dict]()


def extras_required() -> bool:
    return os.environ.get(REQUIRE_EXTRAS, "").strip().lower() not in ("", "0", "false", "no")
_WRITTEN = pytest.StashKey[list]()
_REFUSED = pytest.StashKey[list]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("rome suites")
    group.addoption("--suite-data", default=None, metavar="CORPUS|FILE",
                    help="run the suites on a shipped corpus (dialogue, news, webnlg) or a JSONL of "
                         "{id, reference, original} lines instead of their declared texts")
    group.addoption("--suite-n", type=int, default=None, metavar="N",
                    help="cases per suite (default: the suite's declared sample size)")
    group.addoption("--suite-seed", type=int, default=None, metavar="S",
                    help="seed of the sample and the perturbations (default: the suite's)")
    group.addoption("--suite-no-cache", action="store_true",
                    help="keep scores in memory only (default: the score cache, "
                         "$ROME_CACHE_DIR/scores.sqlite or ~/.cache/rome-harness/scores.sqlite)")
    group.addoption("--suite-out", default=None, metavar="DIR",
                    help="base output folder (default: ROME_OUT or ./rome-out)")


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    if file_path.suffix != ".py" or file_path.name in ("conftest.py", "__init__.py"):
        return None
    from suites.harness.spec import is_suite_file

    if is_suite_file(file_path):
        return SuiteFile.from_parent(parent, path=file_path)
    # pytest already collects a file named on the command line as a module, whatever its name
    if file_path.name.startswith("example_") and not parent.session.isinitpath(file_path):
        return pytest.Module.from_parent(parent, path=file_path)
    return None


class SuiteCheckFailed(Exception):
    """A check's pass rate is below its requirement; the message lists the worst cases."""


class SuiteFile(pytest.File):
    def collect(self):
        from suites.harness.spec import load_suite, suite_aliases

        suite = load_suite(str(self.path))
        self.extra_keyword_matches.update(suite_aliases(suite.name))  # pytest -k textfooler selects its suite
        for metric in suite.metric_names():
            for check in suite.checks:
                yield SuiteItem.from_parent(self, name=f"{metric}[{check.name}]", suite=suite,
                                            metric=metric, check=check.name)


class SuiteItem(pytest.Item):
    def __init__(self, *, suite, metric: str, check: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.suite, self.metric, self.check = suite, metric, check

    def runtest(self) -> None:
        from suites.harness.runner import extras_required, failure_message

        run = _run_for(self.config, self.suite)
        try:
            result = run.result(self.metric, self.check)
        except NotApplicableError as exc:  # no text of these the perturbation changes: nothing to check
            pytest.skip(str(exc))
        except ResourceMissingError as exc:  # a model, weights or optional package missing: not a verdict
            if extras_required():  # the install promised every metric (tox): a missing one fails the run
                raise
            run.unavailable[self.metric] = str(exc)
            if extras_required():  # tox: the install promised every metric, so a missing one is a broken install
                pytest.fail(f"{self.metric}: {exc} ({REQUIRE_EXTRAS}=1: the install should provide it)", pytrace=False)
            pytest.skip(f"{self.metric}: {exc}")
        self.user_properties.append(("pass_rate", result.pass_rate))
        if result.n == 0:
            pytest.skip(f"{self.metric}[{self.check}]: no cases with this check's expectation in the sample")
        if result.passed is None:
            pytest.skip(f"{self.metric}[{self.check}]: {result.n} cases, too few to measure the check's unit by")
        if not result.passed:
            raise SuiteCheckFailed(failure_message(run, result))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, SuiteCheckFailed | InputError):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, None, f"{self.suite.name}: {self.name}"


def _run_for(config: pytest.Config, suite):
    from rome.core.cache import ScoreCache, default_cache_path
    from suites.harness.runner import open_run

    runs = config.stash.setdefault(_RUNS, {})
    if suite.name not in runs:
        if "__cache__" not in runs:
            runs["__cache__"] = ScoreCache(None if config.getoption("suite_no_cache") else default_cache_path())
        n = config.getoption("suite_n")
        if n is not None and n < 1:
            raise InputError("--suite-n must be at least 1")
        runs[suite.name] = open_run(suite, data=config.getoption("suite_data"), n=n,
                                    seed=config.getoption("suite_seed"), cache=runs["__cache__"])
    return runs[suite.name]


def pytest_sessionfinish(session: pytest.Session) -> None:
    from suites.harness.outputs import reports_out_dir, write_outputs

    runs = session.config.stash.get(_RUNS, {})
    written = session.config.stash.setdefault(_WRITTEN, [])
    base = session.config.getoption("suite_out")
    for name, run in runs.items():
        if name == "__cache__" or not run.scored_metrics():
            continue
        out = Path(base) / reports_out_dir(run.suite).name if base else reports_out_dir(run.suite)
        try:
            written.append(write_outputs(run, out))
        except InputError as exc:  # a folder in use or holding a user's file: said in the summary, not a crash
            session.config.stash.setdefault(_REFUSED, []).append(str(exc))


def pytest_terminal_summary(terminalreporter, exitstatus, config: pytest.Config) -> None:
    for path in config.stash.get(_WRITTEN, []):
        terminalreporter.write_line(f"suite outputs: {path}/summary.md (cases.jsonl, cases.csv, summary.json)")
    for line in config.stash.get(_REFUSED, []):
        terminalreporter.write_line(f"suite outputs not written: {line}", red=True)
