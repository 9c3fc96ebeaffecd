#!/usr/bin/env bash
# The GitHub Action, as a runner runs it:
#
#   Scripts/action-test.sh [TARBALL]
#
# action.yml and the documented workflows validate against the Actions schemas (check-jsonschema's
# built-in ones); the action's scripts run with the variables a runner sets (GITHUB_ACTION_PATH,
# RUNNER_TEMP, GITHUB_OUTPUT, GITHUB_PATH, GITHUB_STEP_SUMMARY, GITHUB_WORKSPACE). With TARBALL (from
# Scripts/release.sh), install.sh fetches it from a local server on 127.0.0.1, as from a release, and
# refuses it once its bytes no longer match SHA256SUMS; without a version, install.sh builds this
# checkout (as the release is built, so CI takes its release stage's build).
# Then gate.sh on Samples/dump: a gate that fails (exit 1, `verdict=fail`, error annotations) and one
# that passes (exit 0), each with compare's own Markdown in the job summary.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
schema_check=.build/venv/bin/check-jsonschema
[[ -x $schema_check ]] || { echo "action-test: $schema_check is missing (Scripts/bootstrap.sh --action)" >&2; exit 2; }
work=$(mktemp -d /tmp/action-test.XXXXXX)
server=
cleanup() {
  [[ -n "$server" ]] && kill "$server" 2> /dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "action-test: $*" >&2
  exit 1
}

echo "-- metadata and workflows against the Actions schemas"
$schema_check --builtin-schema vendor.github-actions action.yml
$schema_check --builtin-schema vendor.github-workflows Examples/workflows/*.yml
# Docs/install.md shows the pull request's workflow as the file has it, its opening comment aside.
python3 - <<'PY'
import re
page = open("Docs/install.md").read()
shown = re.search(r"```yaml\n(name: MetricKit gate\n.*?)```", page, re.S).group(1)
kept = "".join(l for l in open("Examples/workflows/gate.yml") if not l.startswith("#"))
assert shown == kept, "Docs/install.md's workflow is not Examples/workflows/gate.yml"
PY

# A runner's variables, in a new job folder each time.
jobs=0
job() {
  jobs=$((jobs + 1))
  local folder=$work/job-$jobs
  mkdir -p "$folder/temp"
  : > "$folder/output" && : > "$folder/path" && : > "$folder/summary"
  export GITHUB_ACTION_PATH=$root RUNNER_TEMP=$folder/temp GITHUB_OUTPUT=$folder/output
  export GITHUB_PATH=$folder/path GITHUB_STEP_SUMMARY=$folder/summary GITHUB_WORKSPACE=$root
  export GITHUB_ACTIONS=true RUNNER_OS=Linux
}
output() { sed -n "s/^$1=//p" "$GITHUB_OUTPUT" | tail -1; }

echo "-- install.sh"
job
if [[ -n "${1:-}" ]]; then
  tarball=$(realpath "$1")
  version=$(basename "$tarball" .tar.gz | sed 's/^metrics-report-\(.*\)-linux-.*$/\1/')
  mkdir -p "$work/releases/v$version"
  cp "$tarball" "$work/releases/v$version/"
  (cd "$work/releases/v$version" && sha256sum "$(basename "$tarball")" > SHA256SUMS)
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  python3 -m http.server "$port" --bind 127.0.0.1 --directory "$work/releases" > /dev/null 2>&1 &
  server=$!
  for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
  MR_VERSION=$version MR_DOWNLOAD_URL=http://127.0.0.1:$port MR_REPOSITORY=example/metrics-report \
    bash Scripts/action/install.sh
  binary=$(output binary)
  [[ "$binary" == "$RUNNER_TEMP/metrics-report-download/metrics-report-$version-linux-$(uname -m)/metrics-report" ]] \
    || fail "install.sh put the release at '$binary'"
  grep -qx "$(dirname "$binary")" "$GITHUB_PATH" || fail "install.sh did not add the release to GITHUB_PATH"
  # A tarball whose bytes changed is refused before it is unpacked.
  printf 'x' >> "$work/releases/v$version/$(basename "$tarball")"
  job
  if MR_VERSION=$version MR_DOWNLOAD_URL=http://127.0.0.1:$port bash Scripts/action/install.sh > "$work/tampered.txt"; then
    fail "install.sh took a tarball that does not match its SHA256SUMS"
  fi
  grep -q '^::error title=metrics-report::.*does not match its SHA256SUMS' "$work/tampered.txt" \
    || fail "install.sh refused the tampered tarball without saying so: $(cat "$work/tampered.txt")"
  [[ ! -e "$RUNNER_TEMP/metrics-report-download/metrics-report-$version-linux-$(uname -m)" ]] \
    || fail "install.sh unpacked a tarball that does not match its SHA256SUMS"
  echo "install.sh fetched $version, checked it, and refused it once its bytes changed"
fi
# Without a version: this checkout, built (CI's release stage has built it already).
job
bash Scripts/action/install.sh > "$work/built.txt" 2>&1 || { cat "$work/built.txt" >&2; fail "install.sh could not build"; }
built=$(output binary)
[[ -x "$built" && "$(head -c 4 "$built")" == $'\x7fELF' ]] || fail "install.sh built no binary ('$built')"
grep -qx "$(dirname "$built")" "$GITHUB_PATH" || fail "install.sh did not add the build to GITHUB_PATH"
echo "install.sh without a version built this checkout: $built"
binary=${binary:-$built}

# Runs gate.sh as the action's step does; sets `status`.
gate() {
  job
  status=0
  MR_BINARY=$binary MR_PATH=Samples/dump MR_BASELINE=$1 MR_CANDIDATE=$2 MR_RULES=${3:-} MR_BY= MR_ARGUMENTS= \
    bash Scripts/action/gate.sh > "$work/log.txt" 2> "$work/err.txt" || status=$?
}

echo "-- gate.sh: a gate that fails"
gate 3.8.0 3.9.0
"$binary" compare Samples/dump --baseline 3.8.0 --candidate 3.9.0 --format markdown > "$work/expected.md" 2> /dev/null || true
[[ $status == 1 ]] || fail "gate.sh exited $status on a failing gate: $(cat "$work/err.txt")"
[[ "$(output verdict)" == fail && "$(output exit-code)" == 1 ]] || fail "outputs: $(cat "$GITHUB_OUTPUT")"
cmp -s "$GITHUB_STEP_SUMMARY" "$work/expected.md" || fail "the job summary is not compare's Markdown"
grep -q '^::error title=' "$work/log.txt" || fail "no error annotation in the step's log"
"$binary" compare Samples/dump --baseline 3.8.0 --candidate 3.9.0 --format github > "$work/expected.txt" 2> /dev/null || true
cmp -s "$work/log.txt" "$work/expected.txt" || fail "the step's annotations are not compare's"
echo "fails: exit 1, verdict=fail, $(grep -c '^::error' "$work/log.txt") error annotations, the summary compare's Markdown"

echo "-- gate.sh: a gate that passes"
printf 'rules:\n  - metric: applicationLaunchMetrics.histogrammedTimeToFirstDraw\n    statistic: p50\n    maxIncrease: 50%%\n' \
  > "$work/rules.yml"
gate 3.8.0 3.9.0 "$work/rules.yml"
[[ $status == 0 ]] || fail "gate.sh exited $status on a passing gate: $(cat "$work/err.txt")"
[[ "$(output verdict)" == pass ]] || fail "outputs: $(cat "$GITHUB_OUTPUT")"
grep -q '^::error' "$work/log.txt" && fail "an error annotation on a passing gate"
[[ -s "$GITHUB_STEP_SUMMARY" ]] || fail "no job summary for a passing gate"
echo "passes: exit 0, verdict=pass"

echo "-- gate.sh: a version the dump does not have"
gate 3.8.0 9.9.9
[[ $status == 2 && "$(output verdict)" == not-evaluated ]] || fail "exit $status, $(cat "$GITHUB_OUTPUT")"
grep -q "9.9.9" "$GITHUB_STEP_SUMMARY" || fail "the job summary does not say why: $(cat "$GITHUB_STEP_SUMMARY")"
echo "cannot evaluate: exit 2, the reason in the job summary"
echo "action-test: the action validates and gives the gate's summary, annotations and exit status"
