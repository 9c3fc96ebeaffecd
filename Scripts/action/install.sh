#!/usr/bin/env bash
# The GitHub Action's first step: puts metrics-report on the job's PATH and says where it is (the
# step's output `binary`). With MR_VERSION, the release tarball of that version for this runner's
# architecture, from MR_DOWNLOAD_URL (MR_REPOSITORY's GitHub releases by default), checked against the
# release's SHA256SUMS before it is unpacked; otherwise a release build of the action's own source.
# Reads GITHUB_ACTION_PATH, RUNNER_TEMP, GITHUB_OUTPUT and GITHUB_PATH, as a runner sets them.
set -euo pipefail
: "${GITHUB_ACTION_PATH:?}" "${RUNNER_TEMP:?}" "${GITHUB_OUTPUT:?}" "${GITHUB_PATH:?}"

if [[ -z "${MR_VERSION:-}" ]]; then
  echo "Building metrics-report from $GITHUB_ACTION_PATH"
  "$GITHUB_ACTION_PATH/Scripts/bootstrap.sh"
  # Built as the release tarball is: Swift's runtime linked in.
  build=(swift build -c release --static-swift-stdlib --package-path "$GITHUB_ACTION_PATH")
  "${build[@]}" --product metrics-report
  folder=$("${build[@]}" --show-bin-path)
else
  version=${MR_VERSION#v}
  [[ "$version" =~ ^[0-9A-Za-z.+-]+$ ]] || { echo "::error title=metrics-report::'$MR_VERSION' is not a version"; exit 64; }
  case "$(uname -m)" in
    x86_64 | amd64) arch=x86_64 ;;
    aarch64 | arm64) arch=aarch64 ;;
    *) echo "::error title=metrics-report::no release for $(uname -m)"; exit 2 ;;
  esac
  name=metrics-report-$version-linux-$arch
  base=${MR_DOWNLOAD_URL:-https://github.com/${MR_REPOSITORY:?}/releases/download}
  base=${base%/}/v$version
  download=$RUNNER_TEMP/metrics-report-download
  rm -rf "$download" && mkdir -p "$download"
  echo "Fetching $base/$name.tar.gz"
  for file in "$name.tar.gz" SHA256SUMS; do
    curl -fsSL --retry 3 -o "$download/$file" "$base/$file" \
      || { echo "::error title=metrics-report::could not fetch $base/$file"; exit 2; }
  done
  grep -q "  $name.tar.gz\$" "$download/SHA256SUMS" \
    || { echo "::error title=metrics-report::$base/SHA256SUMS does not list $name.tar.gz"; exit 2; }
  (cd "$download" && sha256sum --quiet -c --ignore-missing SHA256SUMS) \
    || { echo "::error title=metrics-report::$name.tar.gz does not match its SHA256SUMS"; exit 2; }
  tar -xzf "$download/$name.tar.gz" -C "$download"
  folder=$download/$name
fi
"$folder/metrics-report" --version
echo "$folder" >> "$GITHUB_PATH"
echo "binary=$folder/metrics-report" >> "$GITHUB_OUTPUT"
