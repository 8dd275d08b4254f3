"""The README's main job after the install: every step, in-process, stopping at the first real error.

    python scripts/main_job.py [--n N] [--out rome-out] [--results docs/results.md]
    python scripts/main_job.py --smoke --out DIR       # the same steps, small: what CI runs (tests/test_main_job.py)

Steps: every perturbation suite on every shipped corpus (a challenge set once), ``rome validity``, the
robustness table, the BAGEL/SFHOTEL correlation table, DEMETR with every metric, the bench, the held-out
cards (``ROME_HELDOUT``), then the results page (``scripts/results.py``). A suite exits 1 when a metric fails
a check (a finding, in its summary) and 3 when its perturbation changes none of the corpus's texts (not
applicable there, recorded in its summary): the job goes on; any other non-zero exit stops it with that code.
``--smoke`` runs each step on six cases a suite with chrF only (no bench), so a step that would fail in the full job
fails there too, in minutes. The printed output of ``rome validity`` and ``rome bench`` goes to
``OUT/job/`` through the project's folder writer.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: exit codes of ``rome suite`` after which the job goes on: passed, a check failed, not applicable
SUITE_GOES_ON = (0, 1, 3)


def rome(argv: list[str], allowed: tuple[int, ...] = (0,)) -> int:
    """Run one ``rome`` command in this process; stop the job on an exit code not in ``allowed``."""
    from reports.cli import main

    print(f"main job: rome {' '.join(argv)}", file=sys.stderr, flush=True)
    start = time.perf_counter()
    code = main(argv)
    print(f"main job: exit {code} in {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    if code not in allowed:
        raise SystemExit(code)
    return code


def printed(argv: list[str]) -> str:
    """What ``rome ARGV`` prints (a table on standard output), the job stopping if it fails."""
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        rome(argv)
    return buffer.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200, help="cases per suite (default 200)")
    parser.add_argument("--out", type=Path, default=Path(os.environ.get("ROME_OUT") or "rome-out"))
    parser.add_argument("--results", type=Path, default=None,
                        help="the results page (default docs/results.md; with --smoke: OUT/results.md)")
    parser.add_argument("--smoke", action="store_true", help="every step small (6 cases a suite), chrF only, no bench")
    args = parser.parse_args(argv)
    from reports.cli import build_parser  # noqa: F401  (fails here, before any work, when the install is broken)
    from rome.core.files import output_folder
    from rome.data.corpora import CORPORA
    from suites.harness.spec import available_suites, load_suite

    os.environ["ROME_OUT"] = str(args.out)
    n = 6 if args.smoke else args.n  # (a few cases: the checks' unit needs unrelated texts as controls)
    one_metric = ["--metric", "chrf"] if args.smoke else []  # (chrF: defined on a handful of cases, BLEU often 0)
    # (the judged kinds change few texts and read each with a language model: the smoke run tries twenty)
    bounded = ["--max-texts", "20"] if args.smoke else []  # (for the suites that declare a bound)
    for suite in available_suites():
        if load_suite(suite).direct_cases:  # a challenge set (DEMETR) brings its own minimal pairs: once
            # (its checks' unit needs unrelated texts of the sample as controls: a few more than two cases)
            rome(["suite", suite, "--n", str(20 if args.smoke else n), *one_metric], SUITE_GOES_ON)
            continue
        for corpus in CORPORA:
            rome(["suite", suite, "--data", corpus, "--n", str(n), *one_metric,
                  *(bounded if load_suite(suite).max_texts else [])], SUITE_GOES_ON)
    validity = printed(["validity", *(["--suite", "repetition"] if args.smoke else [])])
    rome(["report", "robustness", "--from", str(args.out), "--out", str(args.out / "robustness")])
    small = ["--n", "30", "--bootstrap", "0", *one_metric] if args.smoke else []
    rome(["report", "correlation", "--dataset", "bagel", "--dataset", "sfhotel", *small,
          "--out", str(args.out / "correlation")])
    demetr = (["demetr/minor_id15_case", "demetr/critical_id9_ne_replaced", "--n-per-category", "5",
               "--bootstrap", "10", *one_metric] if args.smoke else ["demetr", "--metric", "all"])
    rome(["challenge", *demetr, "--out", str(args.out / "challenge-demetr")])
    # the bench in a process of its own: its peak memory and timings are the bench's, not the job's so far
    bench = ""
    if not args.smoke:
        done = subprocess.run([sys.executable, "-m", "reports.cli", "bench", "--n", "1000"], stdout=subprocess.PIPE,
                              text=True, check=False)
        if done.returncode:
            raise SystemExit(done.returncode)
        bench = done.stdout
    heldout = "".join(printed(["validity", "--cards", os.environ.get("ROME_HELDOUT_CARDS", "docs/heldout-cards"),
                               "--data", file]) for file in os.environ.get("ROME_HELDOUT", "").split())
    files = {"validity.md": validity, "bench.md": bench, "validity-heldout.md": heldout}
    with output_folder(args.out / "job", names=tuple(files)) as folder:
        for name, text in files.items():
            if text:
                (folder / name).write_text(text, encoding="utf-8")
    results = args.results or (args.out / "results.md" if args.smoke else ROOT / "docs" / "results.md")
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "results.py"), "--from", str(args.out),
                           "--out", str(results)], check=False)
    if done.returncode:
        return done.returncode
    print(f"main job done: see {args.out}/robustness/, {args.out}/correlation/ and {results}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
