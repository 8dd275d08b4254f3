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
# uv reads neither pip.conf nor PIP_* variables, so pip's effective index, extra indexes, find-links and
# constraints (`pip config list`, which merges pip's files; a PIP_* variable over an [install] value over a
# [global] one, as pip ranks them) are passed to it as options: a mirror or a wheel folder set up for pip
# serves uv too.
uv_options_from_pip() {
  "$1" -m pip config list 2>/dev/null | "$1" -c '
import re, shlex, sys
rank = {"global": 0, "install": 1, ":env:": 2}
best = {}
for line in sys.stdin:
    m = re.match(r"^(global|install|:env:)\.(index-url|extra-index-url|find-links|constraint)=(.*)$", line.strip())
    if m and (m.group(2) not in best or rank[m.group(1)] >= best[m.group(2)][0]):
        best[m.group(2)] = (rank[m.group(1)], " ".join(shlex.split(m.group(3))))
for name, (_, value) in best.items():
    for item in value.split():
        print(f"--{name}", item, sep="\n")
'
}

# The options uv gets for `pip install ARGS`: pip's (above), less its constraints where ARGS install by hash (such
# an install is exact already, and uv refuses constraint files without hashes in that mode).
uv_options_for() {
  local py=$1 k
  shift
  local -a options=()
  mapfile -t options < <(uv_options_from_pip "$py")
  for ((k = 0; k + 1 < ${#options[@]}; k += 2)); do
    [[ "${options[k]}" == --constraint && " $* " == *" --require-hashes "* ]] && continue
    printf '%s\n%s\n' "${options[k]}" "${options[k + 1]}"
  done
  # pip takes the best version found on any of its indexes; uv by default only the first index that has the
  # package, which fails where an extra index holds an older release only
  [[ " ${options[*]} " == *" --extra-index-url "* ]] && printf '%s\n%s\n' --index-strategy unsafe-best-match
  return 0
}

pip_quiet() {
  local py=$1 noise=$2 status=0
  shift 2
  if "$py" -m uv --version >/dev/null 2>&1; then
    local -a from_pip=()
    mapfile -t from_pip < <(uv_options_for "$py" "$@")
    "$py" -m uv pip install --quiet --system-certs --python "$py" "${from_pip[@]}" "$@" 2>&1 | sed -E "/$noise/d" \
      || status=$?
  else
    "$py" -m pip install -q --disable-pip-version-check "$@" 2>&1 | sed -E "/$noise/d" || status=$?
  fi
  if [ "$status" -ne 0 ]; then
    echo "set-up: 'pip install $*' failed (exit $status); see the installer's messages above" >&2
    return "$status"
  fi
}
