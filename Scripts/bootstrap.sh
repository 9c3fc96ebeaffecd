#!/usr/bin/env bash
# Installs what metrics-report needs beyond the Swift toolchain, on Debian or Ubuntu (or macOS with
# Homebrew). Safe to run again; installs only what is missing (with sudo when not root).
#
#   Scripts/bootstrap.sh            GNU GSL, simdjson and zlib development files: enough to build and run
#   Scripts/bootstrap.sh --browser  also headless Chromium, for the report page's browser tests
#   Scripts/bootstrap.sh --test     everything the whole test suite uses (today: --browser)
set -euo pipefail

packages=(libgsl-dev libsimdjson-dev zlib1g-dev pkg-config)
for flag in "$@"; do
  case "$flag" in
    --browser) packages+=(chromium fonts-dejavu-core) ;;
    --test) packages+=(chromium fonts-dejavu-core) ;;
    *) echo "usage: Scripts/bootstrap.sh [--browser] [--test]" >&2; exit 64 ;;
  esac
done

if [[ "$(uname)" == "Darwin" ]]; then
  brew install gsl simdjson pkg-config
  # The browser tests find Google Chrome or Chromium on the PATH, or $CHROMIUM.
  exit 0
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if (( ${#missing[@]} == 0 )); then
  exit 0
fi
sudo=""
if [[ "$(id -u)" != "0" ]]; then sudo="sudo"; fi
echo "Installing ${missing[*]}" >&2
$sudo apt-get update -qq
# No recommended packages: Chromium's would pull in a desktop's worth of fonts and tools.
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
