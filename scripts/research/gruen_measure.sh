#!/usr/bin/env bash
# GRUEN's measurements (docs/baselines.md's GRUEN section), each command's raw output under OUT_DIR.
#
#   scripts/research/gruen_measure.sh OUT_DIR [STEP ...]     from the repository root; steps (default: all four, in order):
#     novikova    scripts/research/seed_metrics.py gruen: gruen, gruen/likelihood and gruen/grammar on BAGEL and SFHOTEL,
#                 naturalness / quality, per-system average and pooled, 95 % bootstrap intervals, and the
#                 seconds each scoring took (novikova.txt)
#     likelihood  scripts/research/gruen_likelihood.py: the likelihood feature's size on the outputs' texts and the masked
#                 pass's speed, on the first LIKELIHOOD_N distinct outputs of each when set (likelihood.txt)
#     webnlg      rome report correlation --dataset webnlg2020 for the three GRUEN metrics (its fluency columns),
#                 on a seeded sample of WEBNLG_N outputs when WEBNLG_N is set (webnlg2020/, webnlg2020.txt)
#     bench       rome bench --n BENCH_N (default 1000) --metric all, BENCH_RUNS (default 3) times (bench-K.txt)
#
# PYTHON (default: python) runs everything. Nothing here reads a rating to choose a setting: GRUEN's design is
# fixed before these run.
set -euo pipefail
out=${1:?usage: scripts/research/gruen_measure.sh OUT_DIR [novikova|likelihood|webnlg|bench ...]}
shift
steps=${*:-novikova likelihood webnlg bench}
py=${PYTHON:-python}
mkdir -p "$out"
export PYTHONUNBUFFERED=1
for step in $steps; do
    case $step in
        novikova)
            $py scripts/research/seed_metrics.py gruen gruen gruen/likelihood gruen/grammar bagel sfhotel >"$out/novikova.txt" ;;
        likelihood)
            $py scripts/research/gruen_likelihood.py sfhotel bagel ${LIKELIHOOD_N:+--limit "$LIKELIHOOD_N"} >"$out/likelihood.txt" ;;
        webnlg)
            $py -m reports.cli report correlation --dataset webnlg2020 --metric gruen --metric gruen/likelihood \
                --metric gruen/grammar --no-cache --out "$out/webnlg2020" ${WEBNLG_N:+--n "$WEBNLG_N"} \
                >"$out/webnlg2020.txt" ;;
        bench)
            for run in $(seq 1 "${BENCH_RUNS:-3}"); do
                $py -m reports.cli bench --n "${BENCH_N:-1000}" --metric all >"$out/bench-$run.txt"
            done ;;
        *)
            echo "gruen_measure.sh: unknown step $step (novikova, likelihood, webnlg, bench)" >&2
            exit 2 ;;
    esac
done
