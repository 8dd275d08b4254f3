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
# every step after the install, in one process (scripts/main_job.py says which and when the job stops)
.venv/bin/python scripts/main_job.py --n "$N" --out "$OUT" --results "${ROME_RESULTS:-docs/results.md}"
