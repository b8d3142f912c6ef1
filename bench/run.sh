#!/usr/bin/env bash
# Times sheetsync against its reference tools on one generated workbook, side by side, in one run,
# and prints a table of medians and ratios against the targets (Issues 2 and 3; see BENCHMARKS.md).
#
#   bench/run.sh                 100k transactions, CSV and XLSX
#   ROWS=20000 bench/run.sh      a smaller workbook (quick look; the targets are stated for 100k)
#   RUNS=3 bench/run.sh          fewer timed runs per command (default 7; pull/export/baselines fewer)
#   SKIP_XLSX=1 bench/run.sh     CSV only
#   SKIP_BUILD=1 bench/run.sh    use the sheetsync already built in $SCRATCH
#
# Everything it makes goes to bench/out/ (ignored by git); results: bench/out/results.md and .json.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$ROOT/bench/out"
ROWS="${ROWS:-100000}"
SEED="${SEED:-20260101}"
RUNS="${RUNS:-7}"
SLOW_RUNS="${SLOW_RUNS:-5}"
SCRATCH="${SCRATCH:-$ROOT/.build-bench}"
BIN="$SCRATCH/release/sheetsync"

say() { printf '\n== %s\n' "$*" >&2; }

# --- tools ---------------------------------------------------------------------------------------
need_apt=()
command -v hyperfine >/dev/null || need_apt+=(hyperfine)
[ -x /usr/bin/time ] || need_apt+=(time)
command -v sqlite3 >/dev/null || need_apt+=(sqlite3)
if [ ${#need_apt[@]} -gt 0 ]; then
    say "installing ${need_apt[*]}"
    apt-get update -qq && apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
need_pip=()
python3 -c 'import polars' 2>/dev/null || need_pip+=(polars)
if [ -z "${SKIP_XLSX:-}" ]; then
    python3 -c 'import python_calamine' 2>/dev/null || need_pip+=(python-calamine)
    python3 -c 'import openpyxl' 2>/dev/null || need_pip+=(openpyxl)
    python3 -c 'import xlsxwriter' 2>/dev/null || need_pip+=(XlsxWriter)
fi
if [ ${#need_pip[@]} -gt 0 ]; then
    say "installing ${need_pip[*]}"
    python3 -m pip install -q "${need_pip[@]}"
fi

# --- build and data ------------------------------------------------------------------------------
if [ -z "${SKIP_BUILD:-}" ]; then
    say "building sheetsync (release)"
    (cd "$ROOT" && swift build -c release --product sheetsync --scratch-path "$SCRATCH" >&2)
fi
[ -x "$BIN" ] || { echo "no sheetsync at $BIN" >&2; exit 1; }

mkdir -p "$OUT"
rm -f "$OUT"/t-*.json "$OUT"/rss-*   # no stale numbers from an earlier run in this table
CSV="$OUT/csv"
stamp="rows=$ROWS seed=$SEED $(sha1sum "$ROOT/bench/generate.py" | cut -c1-12)"
if [ "$(cat "$OUT/csv.stamp" 2>/dev/null)" != "$stamp" ]; then
    say "generating $ROWS transactions (seed $SEED)"
    rm -rf "$CSV"
    python3 "$ROOT/bench/generate.py" "$CSV" --rows "$ROWS" --seed "$SEED"
    echo "$stamp" > "$OUT/csv.stamp"
fi

# A work folder per command, so no run sees another's store, lock or backups.
fresh() { rm -rf "$OUT/$1"; mkdir -p "$OUT/$1"; cp "$CSV"/*.csv "$OUT/$1/"; }
fresh pull
fresh synced
say "preparing a synced store (pull, then sync)"
(cd "$OUT/synced" && "$BIN" pull --quiet && "$BIN" sync --quiet)

# hyperfine runs each command line through sh and subtracts the shell's own start-up time.
HF=(hyperfine --style basic --warmup 1)
time_it() {  # name runs [hyperfine options...] -- "command line"
    local name="$1" runs="$2"; shift 2
    local opts=()
    while [ "$1" != "--" ]; do opts+=("$1"); shift; done
    shift
    say "$name"
    "${HF[@]}" --runs "$runs" "${opts[@]}" --export-json "$OUT/t-$name.json" -n "$name" "$1" >&2
}
rss_it() {  # name command... : one run under /usr/bin/time -v, peak RSS in KiB
    local name="$1"; shift
    /usr/bin/time -v "$@" >/dev/null 2>"$OUT/rss-$name.txt" || { cat "$OUT/rss-$name.txt" >&2; exit 1; }
    grep 'Maximum resident set size' "$OUT/rss-$name.txt" | awk '{print $NF}' > "$OUT/rss-$name.kib"
}

# --- Issue 2: CSV --------------------------------------------------------------------------------
time_it check-csv "$RUNS" -- "$BIN check $CSV --quiet"
time_it py-csv-reader "$SLOW_RUNS" -- "python3 $ROOT/bench/baselines.py csv-reader $CSV"
time_it polars "$RUNS" -- "python3 $ROOT/bench/baselines.py polars $CSV"

IMPORT_SQL="$OUT/import.sql"
{
    for tab in Transactions Receipts Categories RecurringRules Settings; do
        echo ".import --csv $CSV/$tab.csv $tab"
    done
} > "$IMPORT_SQL"
time_it sqlite3-import "$SLOW_RUNS" --prepare "rm -f $OUT/import.sqlite" -- \
    "sqlite3 -init $IMPORT_SQL $OUT/import.sqlite .quit"
# pull runs in its folder: the embedded default config is "the CSV workbook in the current folder".
time_it pull "$SLOW_RUNS" --prepare "rm -f $OUT/pull/sheetsync.sqlite $OUT/pull/sheetsync.sqlite-wal $OUT/pull/sheetsync.sqlite-shm" -- \
    "cd $OUT/pull && $BIN pull --quiet"
time_it noop-sync "$RUNS" -- "cd $OUT/synced && $BIN sync --quiet"
# Not a target, for the record: a sync that has work (one note edited in the store, so the whole
# store and workbook are read, reconciled and Transactions.csv is rewritten).
EDIT="sqlite3 $OUT/synced/sheetsync.sqlite \"UPDATE transactions SET note = note || '.' WHERE rowid = 5\""
time_it edit-sync "$SLOW_RUNS" --prepare "$EDIT" -- "cd $OUT/synced && $BIN sync --quiet"

rm -f "$OUT"/pull/sheetsync.sqlite*
rss_it pull bash -c "cd $OUT/pull && exec $BIN pull --quiet"
rss_it check-csv "$BIN" check "$CSV" --quiet
rss_it noop-sync bash -c "cd $OUT/synced && exec $BIN sync --quiet"
bash -c "$EDIT"
rss_it edit-sync bash -c "cd $OUT/synced && exec $BIN sync --quiet"

# --- Issue 3: XLSX -------------------------------------------------------------------------------
if [ -z "${SKIP_XLSX:-}" ]; then
    BOOK="$OUT/book.xlsx"
    rm -f "$BOOK"
    (cd "$OUT/synced" && "$BIN" export "$BOOK" --format xlsx --quiet)
    time_it check-xlsx "$RUNS" -- "$BIN check $BOOK --quiet"
    time_it calamine "$RUNS" -- "python3 $ROOT/bench/baselines.py calamine $BOOK"
    time_it openpyxl 2 -- "python3 $ROOT/bench/baselines.py openpyxl $BOOK"
    time_it export-xlsx "$SLOW_RUNS" --prepare "rm -rf $OUT/export.xlsx $OUT/.sheetsync-backup" -- \
        "cd $OUT/synced && $BIN export $OUT/export.xlsx --format xlsx --quiet"
    time_it xlsxwriter 3 --prepare "rm -f $OUT/xlsxwriter.xlsx" -- \
        "python3 $ROOT/bench/baselines.py xlsxwriter $CSV $OUT/xlsxwriter.xlsx"
    rss_it check-xlsx "$BIN" check "$BOOK" --quiet
    rm -rf "$OUT/export.xlsx" "$OUT/.sheetsync-backup"
    rss_it export-xlsx bash -c "cd $OUT/synced && exec $BIN export $OUT/export.xlsx --format xlsx --quiet"
fi

# --- table ---------------------------------------------------------------------------------------
python3 "$ROOT/bench/summarize.py" "$OUT" "$ROWS" | tee "$OUT/results.md"
