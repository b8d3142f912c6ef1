#!/bin/sh
# Builds and runs the base-snapshot JSON micro-benchmark (see main.swift) with -O; not part of the
# test suite. Usage: bench/record-json/run.sh [records]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
swiftc -O -module-name RecordJSONBench "$here/main.swift" "$root"/Sources/Interchange/JSON/*.swift -o "$out/bench"
"$out/bench" "$@"
