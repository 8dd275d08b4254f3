#!/usr/bin/env bash
# The README's main job: set up .venv (idempotent) and produce, on the embedded offline defaults,
# every shipped robustness suite on every shipped corpus, the robustness tables and the
# BAGEL/SFHOTEL human-correlation table, DEMETR and the bench under rome-out/ (ROME_OUT overrides),
# then the results page docs/results.md (scripts/results.py).
#   usage: bash scripts/main_job.sh [N]   (N: cases per suite, default 200; the correlation table
#   scores every BAGEL and SFHOTEL output)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-200}
OUT=${ROME_OUT:-rome-out}
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=false MPLBACKEND=Agg ROME_OUT="$OUT"
[ -x .venv/bin/python ] || python3 -m venv .venv
bash scripts/install.sh .venv/bin/python
ROME=.venv/bin/rome
suites=$("$ROME" suite --list)
corpora=$("$ROME" suite --list-corpora | cut -f1)
challenges=" $("$ROME" suite --list-challenges | tr '\n' ' ') "
[ -n "$suites" ] && [ -n "$corpora" ] || { echo "main_job.sh: no suites or corpora found" >&2; exit 2; }
# every perturbation suite on every shipped corpus (rome-out/<suite>--<corpus>/; a suite's own corpus
# writes rome-out/<suite>/); a challenge set (DEMETR) brings its own minimal pairs and runs once.
# A suite exits 1 when a metric fails one of its checks: that is a finding, written to its summary,
# not a reason to stop; 3 when its perturbation changes none of the corpus's texts (not applicable there:
# recorded in its summary, listed by the robustness table and the results page); any other non-zero exit
# (2: bad input) stops the job.
for suite in $suites; do
  case "$challenges" in *" $suite "*) targets="-" ;; *) targets=$corpora ;; esac
  for corpus in $targets; do
    rc=0
    if [ "$corpus" = - ]; then "$ROME" suite "$suite" --n "$N" || rc=$?
    else "$ROME" suite "$suite" --data "$corpus" --n "$N" || rc=$?; fi
    [ "$rc" -le 1 ] || [ "$rc" -eq 3 ] || exit "$rc"
  done
done
"$ROME" validity > "$OUT/validity.md"  # each perturbation's judged validity per corpus (docs/validity.md)
"$ROME" report robustness --from "$OUT" --out "$OUT/robustness"
# one side-by-side BAGEL/SFHOTEL table (RoMe Table 1 layout) plus each dataset's full report
"$ROME" report correlation --dataset bagel --dataset sfhotel --out "$OUT/correlation"
# every metric on the 26 shipped DEMETR files; throughput against the encoder floor
"$ROME" challenge demetr --metric all --out "$OUT/challenge-demetr"
"$ROME" bench --n 1000 > "$OUT/bench.md"
# held-out corpora kept outside the package: ROME_HELDOUT="a.jsonl b.jsonl", their cards under
# ROME_HELDOUT_CARDS/<name>/ (default docs/heldout-cards; a corpus whose text may not be redistributed
# keeps its cards outside the repository)
: > "$OUT/validity-heldout.md"
for file in ${ROME_HELDOUT:-}; do
  "$ROME" validity --cards "${ROME_HELDOUT_CARDS:-docs/heldout-cards}" --data "$file" >> "$OUT/validity-heldout.md"
done
[ -s "$OUT/validity-heldout.md" ] || rm "$OUT/validity-heldout.md"
# the results page every figure of README and docs comes from (docs/results.md unless ROME_RESULTS)
.venv/bin/python scripts/results.py --from "$OUT" --out "${ROME_RESULTS:-docs/results.md}"
echo "main job done: see $OUT/robustness/, $OUT/correlation/ and ${ROME_RESULTS:-docs/results.md}"
