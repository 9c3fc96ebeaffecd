#!/usr/bin/env bash
# Installs what metrics-report needs beyond the Swift toolchain, on Debian or Ubuntu (or macOS with
# Homebrew). Safe to run again; installs only what is missing (with sudo when not root).
#
#   Scripts/bootstrap.sh               GNU GSL, simdjson, zlib, libdeflate, ISA-L and libcurl development
#                                      files: enough to build and run
#   Scripts/bootstrap.sh --browser     also headless Chromium, for the report page's browser tests
#   Scripts/bootstrap.sh --prometheus  also prometheus (promtool) and prometheus-pushgateway, for the exports
#   Scripts/bootstrap.sh --alerts      also prometheus-alertmanager, for watch's alerts
#   Scripts/bootstrap.sh --otlp        also a Python virtual environment (.build/venv) with
#                                      opentelemetry-proto, jsonschema, PyJWT and prometheus-client, for the
#                                      OTLP and Datadog files, the App Store Connect server of the organizer
#                                      tests and the strict OpenMetrics parser the collector's tests use
#   Scripts/bootstrap.sh --spark       also PySpark 4.3 in .build/venv and a Java runtime, for Scripts/spark/test.sh
#   Scripts/bootstrap.sh --symbols     also lld-19 and llvm-19 (ld64.lld, dsymutil, llvm-lipo), to build the
#                                      Mach-O fixtures of Scripts/symbol-fixtures.sh (symbolication itself
#                                      needs only the toolchain's llvm-symbolizer)
#   Scripts/bootstrap.sh --release     also debootstrap, patchelf and curl, for Scripts/release.sh and the
#                                      test of its tarball in a minimal Debian root (Scripts/release-test.sh)
#   Scripts/bootstrap.sh --action      also check-jsonschema in .build/venv, for the GitHub Action's
#                                      metadata check and the runs of its scripts (Scripts/action-test.sh)
#   Scripts/bootstrap.sh --test        everything the whole test suite drives (also GNU parallel, for the
#                                      sharding recipes, and Valgrind with binutils' strip, for the
#                                      instruction counts of Scripts/bench.sh --check)
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(libgsl-dev libsimdjson-dev zlib1g-dev libdeflate-dev libisal-dev nettle-dev libcurl4-openssl-dev pkg-config)
venv=0
spark=0
action=0
for flag in "$@"; do
  case "$flag" in
    --browser) packages+=(chromium fonts-dejavu-core) ;;
    --prometheus) packages+=(prometheus prometheus-pushgateway) ;;
    --alerts) packages+=(prometheus-alertmanager) ;;
    --otlp) venv=1 ;;
    --symbols) packages+=(lld-19 llvm-19) ;;
    --spark) venv=1; spark=1 ;;
    --release) packages+=(debootstrap patchelf curl) ;;
    --action) venv=1; action=1 ;;
    --test) packages+=(chromium fonts-dejavu-core prometheus prometheus-pushgateway prometheus-alertmanager parallel lld-19 llvm-19 valgrind binutils); venv=1 ;;
    *) echo "usage: Scripts/bootstrap.sh [--browser] [--prometheus] [--alerts] [--otlp] [--spark] [--symbols] [--release] [--action] [--test]" >&2; exit 64 ;;
  esac
done

if [[ "$(uname)" == "Darwin" ]]; then
  brew install gsl simdjson libdeflate isa-l nettle pkg-config
  # The browser tests find Google Chrome or Chromium on the PATH, or $CHROMIUM; the export tests
  # promtool, prometheus and pushgateway on the PATH (brew install prometheus pushgateway).
else
  if (( venv )) && ! python3 -m venv --help >/dev/null 2>&1; then packages+=(python3-venv); fi
  if (( spark )) && ! command -v java >/dev/null; then packages+=(default-jre-headless); fi
  missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if (( ${#missing[@]} > 0 )); then
    sudo=""
    if [[ "$(id -u)" != "0" ]]; then sudo="sudo"; fi
    echo "Installing ${missing[*]}" >&2
    $sudo apt-get update -qq
    # No recommended packages: Chromium's would pull in a desktop's worth of fonts and tools. The
    # packages' services are not started here: the tests start their own servers.
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
fi

if (( venv )) && ! .build/venv/bin/python -c "import opentelemetry.proto, jsonschema, jwt, cryptography, prometheus_client" 2>/dev/null; then
  echo "Creating .build/venv with opentelemetry-proto, jsonschema, PyJWT and prometheus-client" >&2
  mkdir -p .build
  python3 -m venv .build/venv
  .build/venv/bin/pip install -q --disable-pip-version-check "opentelemetry-proto==1.45.2" "jsonschema>=4" \
    "PyJWT[crypto]>=2.8" "prometheus-client==0.26.0" >&2
fi

if (( action )) && [[ ! -x .build/venv/bin/check-jsonschema ]]; then
  echo "Installing check-jsonschema into .build/venv" >&2
  .build/venv/bin/pip install -q --disable-pip-version-check "check-jsonschema>=0.29" >&2
fi

if (( spark )) && ! .build/venv/bin/python -c "import pyspark" 2>/dev/null; then
  echo "Installing PySpark into .build/venv" >&2
  .build/venv/bin/pip install -q --disable-pip-version-check "pyspark==4.3.0" >&2
fi
