#!/usr/bin/env bash
# Runs the whole test suite. Missing system libraries: asked about on a terminal, else named (exit 1);
# --yes installs them unattended (what .ci/run does).
#
#   scripts/test.sh [--yes]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-system-packages.sh "$@"
# Formatting is the formatter's job (CONVENTIONS.md 12): run scripts/format.sh before committing.
scripts/format.sh --lint
# The suite runs on the optimized build, the one that ships (`-enable-testing` lets tests reach what is
# internal): a crash only optimized code has is a failed test, not a user's bug report, and the model
# checks' 1,000 cases take half the time (docs/testing.md). `swift build --build-tests` and
# `swift test` build and run the debug build, for working on the code.
RELEASE=(-c release -Xswiftc -enable-testing)
swift build "${RELEASE[@]}" --build-tests
# The short fuzz run (FUZZING.md): every fuzz target for a fixed time on a copy of its corpus, after
# its regression inputs under ASan; the same regression inputs also run below (FuzzRegressionTests).
# Skipped only where the toolchain cannot build libFuzzer targets (e.g. Xcode's); set
# SHEETSYNC_SKIP_FUZZ=1 to skip it by hand. It runs before the test suite so that the suite's own
# summary is the last thing this script prints.
if [ "${SHEETSYNC_SKIP_FUZZ:-0}" = 1 ]; then
    echo "test.sh: fuzz step skipped (SHEETSYNC_SKIP_FUZZ=1)" >&2
elif scripts/fuzz.sh --probe; then
    scripts/fuzz.sh --ci "${SHEETSYNC_FUZZ_SECONDS:-20}"
else
    echo "test.sh: this toolchain cannot build libFuzzer targets (swiftc -sanitize=fuzzer); fuzz step skipped" >&2
fi
# Every test is a Swift Testing test: XCTest's runner would only print "Executed 0 tests" first.
swift test "${RELEASE[@]}" --skip-build --disable-xctest
