#!/usr/bin/env bash
# The main job on the embedded default: syncs a copy of the sample CSV workbook (samples/clean, or
# the folder given) into a new local store, then shows the store's status. The copy is removed at the
# end unless --keep is given (then its folder is printed).
#
#   scripts/run-sample.sh [--yes] [--keep] [SAMPLE_FOLDER]
set -euo pipefail
cd "$(dirname "$0")/.."
packages=() keep=0 sample=samples/clean
for arg in "$@"; do
  case "$arg" in
    --yes|-y) packages+=(--yes) ;;
    --keep) keep=1 ;;
    -*) echo "run-sample.sh: unknown option '$arg' (use --yes, --keep)" >&2; exit 64 ;;
    *) sample="$arg" ;;
  esac
done
scripts/ensure-system-packages.sh ${packages[@]+"${packages[@]}"}
swift build --product sheetsync >&2
bin="$(swift build --show-bin-path)/sheetsync"
scratch="$(mktemp -d)"
work="$scratch/workbook"
if [ "$keep" = 1 ]; then
  echo "workbook: $work (kept)" >&2
else
  trap 'rm -rf "$scratch"' EXIT
fi
cp -R "$sample" "$work"
cd "$work"
status=0
"$bin" sync --verbose || status=$?
"$bin" status
exit $status
