#!/usr/bin/env bash
# Runs the whole test suite (installs the system libraries first when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-system-packages.sh
swift build --build-tests
swift test --skip-build
