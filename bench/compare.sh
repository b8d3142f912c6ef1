#!/usr/bin/env bash
# Two sheetsync builds side by side on the same generated ledger: every command the bars time (check of
# the CSV folder and of the .xlsx, the first pull, sync after a hand edit and after a store edit, the
# no-op sync, status), each build's runs alternated in rounds, so a machine whose load drifts weighs on
# both alike. Prints each command's CPU (user+system, hyperfine's mean per round, then the median of
# the rounds) and wall time for both builds and their ratio: what "no benchmark slower by more than
# 5 %" is checked with when a change should not change speed.
#
#   bench/compare.sh OLD_BINARY NEW_BINARY
#   ROWS=20000 ROUNDS=2 RUNS=3 SHAPE=user bench/compare.sh OLD NEW
#
# ROWS (default 100000), SHAPE (canonical, user or dirty: generate.py --shape; default canonical),
# ROUNDS (default 3) of RUNS timed runs each (default 5), OUT (default bench/out/compare).
# Each build works in folders of its own (its own store: an older build may not read a newer store).
set -euo pipefail

[ $# -eq 2 ] || { sed -n '2,14p' "$0" >&2; exit 64; }
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BENCH="$ROOT/bench"
OLD="$(realpath "$1")" NEW="$(realpath "$2")"
ROWS="${ROWS:-100000}" SHAPE="${SHAPE:-canonical}" ROUNDS="${ROUNDS:-3}" RUNS="${RUNS:-5}" SEED="${SEED:-20260101}"
OUT="${OUT:-$BENCH/out/compare}"
EDIT="python3 $BENCH/edit_one_row.py"
for tool in hyperfine python3; do command -v "$tool" >/dev/null || { echo "bench/compare.sh: $tool is required" >&2; exit 78; }; done
# generate.py writes the .xlsx with XlsxWriter (installed as bench/run.sh does).
python3 -c 'import xlsxwriter' 2>/dev/null || python3 -m pip install -q XlsxWriter
say() { printf '\n== %s\n' "$*" >&2; }
mkdir -p "$OUT"

CSV="$OUT/csv-$SHAPE-$ROWS" BOOK="$OUT/book-$SHAPE-$ROWS.xlsx"
if [ ! -f "$CSV.done" ] || [ ! -f "$BOOK" ]; then
    say "generating $ROWS transactions (shape $SHAPE, seed $SEED)"
    rm -rf "$CSV" "$CSV.done"
    python3 "$BENCH/generate.py" "$CSV" --rows "$ROWS" --seed "$SEED" --shape "$SHAPE" --xlsx "$BOOK"
    touch "$CSV.done"
fi
# The dirty shape's rejected rows make check, pull and sync exit 65: expected there.
IGNORE=()
[ "$SHAPE" = dirty ] && IGNORE=(--ignore-failure)

# prepare NAME BIN: that build's pristine synced folder (pull, then sync) and the row the edits change.
prepare() {
    local name="$1" bin="$2" D="$OUT/$1"
    rm -rf "$D" && mkdir -p "$D/snap" "$D/pull" && cp "$CSV"/*.csv "$D/snap/" && cp "$CSV"/*.csv "$D/pull/"
    (cd "$D/snap" && "$bin" pull --quiet >/dev/null 2>&1 || true; "$bin" sync --quiet >/dev/null 2>&1 || true)
    rm -rf "$D/noop" && cp -a "$D/snap" "$D/noop"
    $EDIT pick "$D/snap" > "$D/row-id"
}
say "preparing each build's synced folder"
prepare old "$OLD"
prepare new "$NEW"

# prepare_for / command_for MEASURE BIN NAME: what runs untimed before each timed run (hyperfine's
# --prepare: the copy and the edit), and the timed command line, of one build in its own folders.
prepare_for() {
    local measure="$1" D="$OUT/$3" row
    row="$(cat "$D/row-id")"
    case "$measure" in
        pull) echo "rm -f $D/pull/sheetsync.sqlite $D/pull/sheetsync.sqlite-wal $D/pull/sheetsync.sqlite-shm" ;;
        # `sync` at the end: the copy is on disk before the timed run (as bench/run.sh does).
        hand-edit-sync) echo "rm -rf $D/hand && cp -a $D/snap $D/hand && $EDIT hand $D/hand $row >/dev/null && sync" ;;
        store-edit-sync) echo "rm -rf $D/store && cp -a $D/snap $D/store && $EDIT store $D/store $row >/dev/null && sync" ;;
        *) echo "true" ;;
    esac
}
command_for() {
    local measure="$1" bin="$2" D="$OUT/$3"
    case "$measure" in
        check-csv) echo "$bin check $CSV --quiet" ;;
        check-xlsx) echo "$bin check $BOOK --quiet" ;;
        pull) echo "cd $D/pull && $bin pull --quiet" ;;
        hand-edit-sync) echo "cd $D/hand && $bin sync --quiet" ;;
        store-edit-sync) echo "cd $D/store && $bin sync --quiet" ;;
        noop-sync) echo "cd $D/noop && $bin sync --quiet" ;;
        status) echo "cd $D/noop && $bin status" ;;
    esac
}

MEASURES="${MEASURES:-check-csv check-xlsx pull hand-edit-sync store-edit-sync noop-sync status}"
echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)" > "$OUT/load.txt"
for round in $(seq 1 "$ROUNDS"); do
    for measure in $MEASURES; do
        # Alternate which build goes first from round to round.
        order=(old new)
        [ $((round % 2)) -eq 0 ] && order=(new old)
        for name in "${order[@]}"; do
            bin="$OLD"
            [ "$name" = new ] && bin="$NEW"
            say "round $round: $measure, $name"
            hyperfine --style basic --warmup 1 --runs "$RUNS" "${IGNORE[@]}" --prepare "$(prepare_for "$measure" "$bin" "$name")" \
                --export-json "$OUT/r$round-$measure-$name.json" -n "$measure-$name" "$(command_for "$measure" "$bin" "$name")" >&2
        done
    done
done
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/load.txt"

python3 - "$OUT" "$ROUNDS" "$MEASURES" <<'PY'
import json, statistics, sys
out, rounds, measures = sys.argv[1], int(sys.argv[2]), sys.argv[3].split()
def medians(measure, name):
    cpu, wall = [], []
    for r in range(1, rounds + 1):
        d = json.load(open(f"{out}/r{r}-{measure}-{name}.json"))["results"][0]
        cpu.append(d["user"] + d["system"]); wall.append(d["median"])
    return statistics.median(cpu), statistics.median(wall)
print(open(f"{out}/load.txt").read().strip())
print("| measure | old cpu s | new cpu s | new/old cpu | old wall s | new wall s |")
print("|---|---:|---:|---:|---:|---:|")
for m in measures:
    (oc, ow), (nc, nw) = medians(m, "old"), medians(m, "new")
    print(f"| {m} | {oc:.3f} | {nc:.3f} | {nc / oc:.3f} | {ow:.3f} | {nw:.3f} |")
PY
