# Sourced by install.sh and install_extras.sh: `pip install`, quiet, that still fails loudly.
#   usage: pip_quiet PYTHON NOISE_REGEX [pip install arguments ...]
# pip's messages are shown minus lines matching NOISE_REGEX. The filter is sed, not `grep -v`:
# grep exits 1 when it prints nothing (every line filtered, or pip silent), which under
# `set -o pipefail` reads as a failure, and the old `|| true` that hid it also hid pip's own
# failures. Here the pipeline's status is pip's (sed always exits 0), and a failure stops the set-up.
pip_quiet() {
  local py=$1 noise=$2 status=0
  shift 2
  "$py" -m pip install -q --disable-pip-version-check "$@" 2>&1 | sed -E "/$noise/d" || status=$?
  if [ "$status" -ne 0 ]; then
    echo "set-up: 'pip install $*' failed (exit $status); see pip's messages above" >&2
    return "$status"
  fi
}
