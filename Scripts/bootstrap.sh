#!/usr/bin/env bash
# Installs what metrics-report needs beyond the Swift toolchain, on Debian or Ubuntu (or macOS with
# Homebrew): GNU GSL, simdjson and zlib development files. Safe to run again.
set -euo pipefail

packages=(libgsl-dev libsimdjson-dev zlib1g-dev pkg-config)

if [[ "$(uname)" == "Darwin" ]]; then
  brew install gsl simdjson pkg-config
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
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
