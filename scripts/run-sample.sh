#!/usr/bin/env bash
# The main job on the embedded default: syncs a copy of the sample CSV workbook (samples/clean, or
# the folder given) into a new local store, then shows the store's status.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-system-packages.sh
swift build --product sheetsync >&2
bin="$(swift build --show-bin-path)/sheetsync"
sample="${1:-samples/clean}"
work="$(mktemp -d)/workbook"
cp -R "$sample" "$work"
echo "workbook: $work" >&2
cd "$work"
status=0
"$bin" sync --verbose || status=$?
"$bin" status
exit $status
