#!/usr/bin/env bash
# The GitHub Action's gate: `metrics-report compare` on the inputs (MR_PATH, MR_BASELINE,
# MR_CANDIDATE, MR_RULES, MR_BY, MR_ARGUMENTS; MR_BINARY the program), twice over one cache: the
# Markdown verdict appended to the job summary, then the workflow annotations on standard output,
# whose exit status is the step's. Step outputs: verdict, exit-code, markdown. Reads RUNNER_TEMP,
# GITHUB_STEP_SUMMARY, GITHUB_OUTPUT and GITHUB_WORKSPACE, as a runner sets them.
set -uo pipefail
: "${RUNNER_TEMP:?}" "${GITHUB_STEP_SUMMARY:?}" "${GITHUB_OUTPUT:?}"
binary=${MR_BINARY:-metrics-report}

arguments=()
while IFS= read -r line; do [[ -n "$line" ]] && arguments+=("$line"); done <<< "${MR_PATH:-}"
if (( ${#arguments[@]} == 0 )); then
  echo "::error title=metrics-report::the input 'path' is empty"
  exit 64
fi
arguments+=(--baseline "${MR_BASELINE:?}" --candidate "${MR_CANDIDATE:?}")
[[ -n "${MR_RULES:-}" ]] && arguments+=(--rules "$MR_RULES")
[[ -n "${MR_BY:-}" ]] && arguments+=(--by "$MR_BY")
while IFS= read -r line; do [[ -n "$line" ]] && arguments+=("$line"); done <<< "${MR_ARGUMENTS:-}"
# The second run takes every batch's aggregate from the first's cache.
arguments+=(--cache "$RUNNER_TEMP/metrics-report-cache")

markdown=$RUNNER_TEMP/metrics-report-gate.md
errors=$RUNNER_TEMP/metrics-report-gate.err
"$binary" compare "${arguments[@]}" --format markdown -o "$markdown" 2> "$errors"
status=$?
cat "$errors" >&2
if [[ -s "$markdown" && $status -le 2 ]]; then
  cat "$markdown" >> "$GITHUB_STEP_SUMMARY"
else
  { echo "### metrics-report could not run the gate (exit $status)"; echo; echo '```'; cat "$errors"; echo '```'; } \
    >> "$GITHUB_STEP_SUMMARY"
fi
if (( status <= 2 )); then
  # The annotations, and the gate's own exit status.
  "$binary" compare "${arguments[@]}" --format github --source-root "${GITHUB_WORKSPACE:-$PWD}" 2> /dev/null
  status=$?
fi
case $status in
  0) verdict=pass ;;
  1) verdict=fail ;;
  2) verdict=not-evaluated ;;
  *) verdict=error ;;
esac
{ echo "verdict=$verdict"; echo "exit-code=$status"; echo "markdown=$markdown"; } >> "$GITHUB_OUTPUT"
exit "$status"
