#!/usr/bin/env bash
# The README's main job: set up .venv (idempotent) and produce, on the embedded offline defaults,
# every shipped robustness suite, the robustness table and the BAGEL/SFHOTEL human-correlation
# table under rome-out/ (ROME_OUT overrides).
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
[ -n "$suites" ] || { echo "main_job.sh: no suites found" >&2; exit 2; }
# a suite exits 1 when a metric fails one of its checks: that is a finding, written to its
# summary, not a reason to stop; any other non-zero exit (2: bad input) stops the job
for suite in $suites; do
  rc=0
  "$ROME" suite "$suite" --n "$N" || rc=$?
  [ "$rc" -le 1 ] || exit "$rc"
done
"$ROME" validity > "$OUT/validity.md"  # each perturbation's judged validity (docs/validity.md)
"$ROME" report robustness --from "$OUT" --out "$OUT/robustness"
# one side-by-side BAGEL/SFHOTEL table (RoMe Table 1 layout) plus each dataset's full report
"$ROME" report correlation --dataset bagel --dataset sfhotel --out "$OUT/correlation"
echo "main job done: see $OUT/robustness/ and $OUT/correlation/"
