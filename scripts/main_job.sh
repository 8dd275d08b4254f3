#!/usr/bin/env bash
# The README's main job: set up .venv (idempotent) and produce, on the embedded offline defaults,
# the robustness table and the BAGEL/SFHOTEL human-correlation table under reports/out/.
#   usage: bash scripts/main_job.sh [N]   (N: cases per suite, default 200; the correlation table
#   scores every BAGEL and SFHOTEL output)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-200}
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=false MPLBACKEND=Agg
[ -x .venv/bin/python ] || python3 -m venv .venv
bash scripts/install.sh .venv/bin/python
ROME=.venv/bin/rome
# a suite exits 1 when a metric fails one of its checks: that is a finding, written to its
# summary, not a reason to stop; any other non-zero exit (2: bad input) stops the job
for suite in passive_form adjective_replacement random_word entity_replacement text_transformation repetition typos; do
  rc=0
  "$ROME" suite "$suite" --n "$N" || rc=$?
  [ "$rc" -le 1 ] || exit "$rc"
done
"$ROME" report robustness --out reports/out/robustness
# one side-by-side BAGEL/SFHOTEL table (RoMe Table 1 layout) plus each dataset's full report
"$ROME" report correlation --dataset bagel --dataset sfhotel --out reports/out/correlation
echo "main job done: see reports/out/robustness/ and reports/out/correlation/"
