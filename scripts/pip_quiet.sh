# Sourced by install.sh and install_extras.sh: `pip install`, quiet, that still fails loudly.
#   usage: pip_quiet PYTHON NOISE_REGEX [pip install arguments ...]
# pip's messages are shown minus lines matching NOISE_REGEX. The filter is sed, not `grep -v`:
# grep exits 1 when it prints nothing (every line filtered, or pip silent), which under
# `set -o pipefail` reads as a failure, and the old `|| true` that hid it also hid pip's own
# failures. Here the pipeline's status is pip's (sed always exits 0), and a failure stops the set-up.
# Where the environment has uv (install.sh installs it after torch), `uv pip install` does the work:
# the same arguments, resolved and downloaded in parallel (minutes less on a fresh machine); the
# CPU torch wheel is always installed by pip first, so uv only sees it already satisfied. uv reads the
# system's certificate store (--system-certs), as pip does, for networks behind a TLS-inspecting proxy.
pip_quiet() {
  local py=$1 noise=$2 status=0
  shift 2
  if "$py" -m uv --version >/dev/null 2>&1; then
    "$py" -m uv pip install --quiet --system-certs --python "$py" "$@" 2>&1 | sed -E "/$noise/d" || status=$?
  else
    "$py" -m pip install -q --disable-pip-version-check "$@" 2>&1 | sed -E "/$noise/d" || status=$?
  fi
  if [ "$status" -ne 0 ]; then
    echo "set-up: 'pip install $*' failed (exit $status); see the installer's messages above" >&2
    return "$status"
  fi
}
