#!/usr/bin/env bash
# Install the awkward named dependencies, textattack and checklist, into the Python environment PY.
# Called by scripts/install.sh; idempotent (a package already importable is left alone) and quiet.
#   usage: bash scripts/install_extras.sh PY
# Why not plain `pip install`: textattack declares flair, which needs transformers<5 (the project needs
# >=5.2); checklist's setup.py runs `pip install jupyter` and a notebook-extension install.
set -euo pipefail
PY=${1:?usage: install_extras.sh PYTHON}
cd "$(dirname "$0")/.."

# shellcheck source=scripts/pip_quiet.sh
. scripts/pip_quiet.sh
# pip's resolver warns that textattack needs flair and checklist needs jupyter: both left out on
# purpose (see above); those warnings are dropped, pip's errors are not.
pip_q() { pip_quiet "$PY" "is ignored: it is neither|dependency resolver does not|requires (flair|jupyter)" "$@"; }
have_dist() { "$PY" -c "import importlib.metadata as m, sys; m.version(sys.argv[1])" "$1" 2>/dev/null; }

# textattack 0.3.11, route A: no flair (perturbations/thirdparty.py registers a small stand-in
# module named `flair` before importing textattack); langdetect is imported but undeclared.
if ! have_dist textattack; then
  pip_q --no-deps textattack==0.3.11
fi
pip_q bert-score editdistance filelock language_tool_python lemminflect lru-dict datasets nltk numpy \
  pandas scipy transformers terminaltables tqdm word2number num2words more-itertools pinyin jieba \
  OpenHowNet Levenshtein langdetect

# checklist 0.0.11: build its wheel with a stand-in `notebook` package (no-op nbextension calls)
# and PIP_DRY_RUN=1, so the `pip install jupyter` inside its setup.py installs nothing.
if ! have_dist checklist; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  mkdir -p "$work/stub/notebook"
  echo "from . import nbextensions" > "$work/stub/notebook/__init__.py"
  printf 'def install_nbextension_python(*a, **k):\n    pass\n\n\ndef enable_nbextension_python(*a, **k):\n    pass\n' \
    > "$work/stub/notebook/nbextensions.py"
  pip_q setuptools wheel
  PYTHONPATH="$work/stub" PIP_DRY_RUN=1 "$PY" -m pip wheel -q --disable-pip-version-check \
    --no-deps --no-build-isolation -w "$work/wheels" checklist==0.0.11 >/dev/null 2>&1 \
    || { echo "install_extras.sh: building the checklist wheel failed" >&2; exit 1; }
  pip_q --no-deps "$work"/wheels/checklist-*.whl
fi
pip_q munch iso-639 "ipython<9" ipywidgets patternfork-nosql

"$PY" -c "import importlib.metadata as m; m.version('textattack'); m.version('checklist')" \
  || { echo "install_extras.sh: textattack/checklist not installed" >&2; exit 1; }
