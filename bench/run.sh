#!/usr/bin/env bash
# Times sheetsync against its reference tools on one generated workbook, side by side, in one run,
# and prints every row of the performance bars' table (and the earlier XLSX export and no-op sync
# rows) with its bar and goal (see BENCHMARKS.md and bench/README.md).
#
#   bench/run.sh                 100k transactions, CSV and XLSX
#   ROWS=20000 bench/run.sh      a smaller workbook (quick look; the bars are stated for 100k)
#   RUNS=3 bench/run.sh          fewer timed runs per command (default 7; slow ones SLOW_RUNS, default 5)
#   SKIP_XLSX=1 bench/run.sh     CSV only
#   YES=1 bench/run.sh           install missing apt packages without asking (else asked, or named and stopped)
#   SKIP_BUILD=1 bench/run.sh    use the sheetsync already built in $SCRATCH (BIN=/path/to/sheetsync: that one)
#   BIG=1 bench/run.sh           also the 200k and 1M-row runs (long; opt-in; resumable, see big.sh)
#   SIZES="200000" bench/run.sh  the big runs at these sizes only (implies BIG=1)
#   BIG_ONLY=1 BIG=1 bench/run.sh  only the big runs; the table reuses the last ROWS run's results in $OUT
#   SMOKE=1 ROWS=2000 RUNS=1 OUT=/tmp/x BIN=... bench/run.sh   the test suite's smoke run: installs
#                                nothing, skips a reference tool that is missing (the table says so)
#
# Everything it makes goes to $OUT (default bench/out/, ignored by git); results: results.md and .json.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BENCH="$ROOT/bench"
OUT="${OUT:-$BENCH/out}"
ROWS="${ROWS:-100000}"
SEED="${SEED:-20260101}"
RUNS="${RUNS:-7}"
SLOW_RUNS="${SLOW_RUNS:-$(( RUNS < 5 ? RUNS : 5 ))}"
WARMUP="${WARMUP:-1}"
SCRATCH="${SCRATCH:-$ROOT/.build-bench}"
[ -n "${BIN:-}" ] && SKIP_BUILD=1
BIN="${BIN:-$SCRATCH/release/sheetsync}"
SMOKE="${SMOKE:-}"
[ -n "${SIZES:-}" ] && BIG=1
BIG="${BIG:-}"
BIG_ONLY="${BIG_ONLY:-}"
[ -n "$SMOKE" ] && WARMUP="${WARMUP_SMOKE:-0}"

say() { printf '\n== %s\n' "$*" >&2; }

# --- tools ---------------------------------------------------------------------------------------
# hyperfine, GNU time and python3 (the generator) are required; sqlite3 and the Python packages are
# references: installed when missing, except in a smoke run, which leaves their rows "skipped".
for tool in hyperfine python3; do
    if [ -n "$SMOKE" ] && ! command -v "$tool" >/dev/null; then echo "bench/run.sh: $tool is required" >&2; exit 78; fi
done
if [ -z "$SMOKE" ]; then
    need_apt=()
    command -v hyperfine >/dev/null || need_apt+=(hyperfine)
    [ -x /usr/bin/time ] || need_apt+=(time)
    command -v sqlite3 >/dev/null || need_apt+=(sqlite3)
    # Asked about on a terminal, else named and stopped; YES=1 installs them unattended.
    if [ ${#need_apt[@]} -gt 0 ]; then
        "$ROOT/scripts/ensure-system-packages.sh" ${YES:+--yes} "${need_apt[@]}"
    fi
    need_pip=()
    python3 -c 'import polars' 2>/dev/null || need_pip+=(polars)
    if [ -z "${SKIP_XLSX:-}" ]; then
        python3 -c 'import python_calamine' 2>/dev/null || need_pip+=(python-calamine)
        python3 -c 'import xlsxwriter' 2>/dev/null || need_pip+=(XlsxWriter)
        [ -n "${OPENPYXL:-}" ] && { python3 -c 'import openpyxl' 2>/dev/null || need_pip+=(openpyxl); }
    fi
    if [ ${#need_pip[@]} -gt 0 ]; then
        say "installing ${need_pip[*]}"
        python3 -m pip install -q "${need_pip[@]}"
    fi
fi
[ -x /usr/bin/time ] || { echo "bench/run.sh: GNU time (/usr/bin/time) is required for peak RSS" >&2; exit 78; }

# --- build ---------------------------------------------------------------------------------------
if [ -z "${SKIP_BUILD:-}" ]; then
    say "building sheetsync (release)"
    (cd "$ROOT" && nice -n 10 swift build -c release --product sheetsync --static-swift-stdlib --scratch-path "$SCRATCH" >&2)
fi
[ -x "$BIN" ] || { echo "no sheetsync at $BIN" >&2; exit 1; }
BIN_SHA="$(sha1sum "$BIN" | cut -c1-12)"

mkdir -p "$OUT"
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

# --- helpers -------------------------------------------------------------------------------------
# generate DIR ROWS: the seeded CSV workbook, made again only when rows, seed or generator changed.
generate() {
    local dir="$1" rows="$2"
    local stamp="rows=$rows seed=$SEED $(sha1sum "$BENCH/generate.py" | cut -c1-12)"
    if [ "$(cat "$dir.stamp" 2>/dev/null)" != "$stamp" ]; then
        say "generating $rows transactions (seed $SEED) in $dir"
        rm -rf "$dir" "$dir.stamp"
        python3 "$BENCH/generate.py" "$dir" --rows "$rows" --seed "$SEED"
        echo "$stamp" > "$dir.stamp"
    fi
}
# restore SNAPSHOT FOLDER: the folder as the snapshot holds it (store, workbook, backups; cp -a keeps
# modification times), so every timed run starts from the same bytes.
restore() { rm -rf "$2" && cp -a "$1" "$2"; }
EDIT="python3 $BENCH/edit_one_row.py"

# hyperfine runs each command line through sh and subtracts the shell's own start-up time.
time_it() {  # name runs [hyperfine options...] -- "command line"
    local name="$1" runs="$2"; shift 2
    local opts=()
    while [ "$1" != "--" ]; do opts+=("$1"); shift; done
    shift
    say "$name"
    hyperfine --style basic --warmup "$WARMUP" --runs "$runs" "${opts[@]}" \
        --export-json "$OUT/t-$name.json" -n "$name" "$1" >&2
}
# time_ref: time_it for a Python reference, which also writes the time of its work alone (after the
# interpreter's start-up and the package's import) to inproc-NAME.jsonl: the bars compare in-process.
time_ref() {  # name runs [hyperfine options...] -- "python3 baselines.py ..."
    local name="$1" runs="$2"; shift 2
    local file="$OUT/inproc-$name.jsonl" args=("$@")
    rm -f "$file"
    args[${#args[@]}-1]="BASELINE_TIMES=$file ${args[${#args[@]}-1]}"
    time_it "$name" "$runs" "${args[@]}"
    tail -n "$runs" "$file" > "$file.tmp" && mv "$file.tmp" "$file"   # the timed runs, not the warm-up
}
rss_it() {  # name command... : one run under /usr/bin/time -v, peak RSS in KiB
    local name="$1"; shift
    /usr/bin/time -v "$@" >/dev/null 2>"$OUT/rss-$name.txt" || { cat "$OUT/rss-$name.txt" >&2; exit 1; }
    grep 'Maximum resident set size' "$OUT/rss-$name.txt" | awk '{print $NF}' > "$OUT/rss-$name.kib"
}
# skip name reason: a reference that cannot run here; the table shows the reason instead of a number.
skip() { say "skipped $1: $2"; echo "$2" > "$OUT/skipped-$1.txt"; }
has_py() { python3 -c "import $1" 2>/dev/null; }

# --- the ROWS table ------------------------------------------------------------------------------
if [ -z "$BIG_ONLY" ]; then
rm -f "$OUT"/t-*.json "$OUT"/rss-* "$OUT"/skipped-*.txt "$OUT"/inproc-*   # no stale numbers from an earlier run
echo "$(loadavg)" > "$OUT/load-start.txt"
CSV="$OUT/csv"
generate "$CSV" "$ROWS"

# One pristine synced folder (pull, then sync), never run in; each timed command works in its own
# copy, so no run sees another's store, lock or backups.
say "preparing a synced store (pull, then sync)"
rm -rf "$OUT/snap" && mkdir -p "$OUT/snap" && cp "$CSV"/*.csv "$OUT/snap/"
(cd "$OUT/snap" && "$BIN" pull --quiet && "$BIN" sync --quiet)
ROW_ID="$($EDIT pick "$OUT/snap")"
restore "$OUT/snap" "$OUT/noop"
rm -rf "$OUT/pull" && mkdir -p "$OUT/pull" && cp "$CSV"/*.csv "$OUT/pull/"

# check: read, validate and plan every row, change nothing.
time_it check-csv "$RUNS" -- "$BIN check $CSV --quiet"
time_ref py-csv-reader "$SLOW_RUNS" -- "python3 $BENCH/baselines.py csv-reader $CSV"
if has_py polars; then
    time_ref polars "$RUNS" -- "python3 $BENCH/baselines.py polars $CSV"
else
    skip polars "the Python package polars is not installed"
fi

# first pull into an empty store, against sqlite3's own CSV import into fresh tables.
if command -v sqlite3 >/dev/null; then
    IMPORT_SQL="$OUT/import.sql"
    for tab in Transactions Receipts Categories RecurringRules Settings; do
        echo ".import --csv $CSV/$tab.csv $tab"
    done > "$IMPORT_SQL"
    time_it sqlite3-import "$SLOW_RUNS" --prepare "rm -f $OUT/import.sqlite" -- \
        "sqlite3 -init $IMPORT_SQL $OUT/import.sqlite .quit"
else
    skip sqlite3-import "the sqlite3 command is not installed"
fi
# pull runs in its folder: the embedded default config is "the CSV workbook in the current folder".
NO_STORE="rm -f $OUT/pull/sheetsync.sqlite $OUT/pull/sheetsync.sqlite-wal $OUT/pull/sheetsync.sqlite-shm"
time_it pull "$SLOW_RUNS" --prepare "$NO_STORE" -- "cd $OUT/pull && $BIN pull --quiet"

# sync after one row edited by hand (one record's bytes in Transactions.csv) and after the same edit
# in the store (SQL UPDATE): each run starts from the pristine synced folder plus that one edit. The
# prepare step ends with `sync`: the copy it made (tens of MB) is on disk before the timed run, whose
# fdatasync of the store would otherwise wait for the harness's own copy to be written back (about
# 20 ms of wall time at 100k rows that no user's sync pays: their store was not just copied).
HAND_PREP="rm -rf $OUT/hand && cp -a $OUT/snap $OUT/hand && $EDIT hand $OUT/hand $ROW_ID >/dev/null && sync"
STORE_PREP="rm -rf $OUT/store && cp -a $OUT/snap $OUT/store && $EDIT store $OUT/store $ROW_ID >/dev/null && sync"
time_it hand-edit-sync "$SLOW_RUNS" --prepare "$HAND_PREP" --cleanup "rm -rf $OUT/hand && cp -a $OUT/snap $OUT/hand" -- \
    "cd $OUT/hand && $BIN sync --quiet"
time_it store-edit-sync "$SLOW_RUNS" --prepare "$STORE_PREP" --cleanup "rm -rf $OUT/store && cp -a $OUT/snap $OUT/store" -- \
    "cd $OUT/store && $BIN sync --quiet"

# no-op syncs: right after a sync, and after one row was deleted in the store (delete, one sync that
# pushes the delete, untimed; then the no-op syncs that follow are timed). A no-op sync must leave
# its folder as it found it, so these runs have no prepare step: restoring a copy before each would
# hide a sync that keeps redoing (or undoing) work run after run.
time_it noop-sync "$RUNS" -- "cd $OUT/noop && $BIN sync --quiet"
restore "$OUT/snap" "$OUT/deleted"
$EDIT delete "$OUT/deleted" "$ROW_ID" >&2
(cd "$OUT/deleted" && "$BIN" sync --quiet)
time_it deleted-noop-sync "$RUNS" -- "cd $OUT/deleted && $BIN sync --quiet"
# status is read-only: the synced folder as it is.
time_it status "$RUNS" -- "cd $OUT/noop && $BIN status"

# peak RSS: one run each, from the same starting states.
eval "$NO_STORE"
rss_it pull bash -c "cd $OUT/pull && exec $BIN pull --quiet"
rss_it check-csv "$BIN" check "$CSV" --quiet
bash -c "$HAND_PREP"
rss_it hand-edit-sync bash -c "cd $OUT/hand && exec $BIN sync --quiet"
bash -c "$STORE_PREP"
rss_it store-edit-sync bash -c "cd $OUT/store && exec $BIN sync --quiet"
rss_it noop-sync bash -c "cd $OUT/noop && exec $BIN sync --quiet"
rss_it deleted-noop-sync bash -c "cd $OUT/deleted && exec $BIN sync --quiet"
rss_it status bash -c "cd $OUT/noop && exec $BIN status"

# XLSX: the workbook `export --format xlsx` writes from the synced store, so every reader reads the
# same bytes.
if [ -z "${SKIP_XLSX:-}" ]; then
    BOOK="$OUT/book.xlsx"
    rm -f "$BOOK"
    (cd "$OUT/noop" && "$BIN" export "$BOOK" --format xlsx --quiet)
    time_it check-xlsx "$RUNS" -- "$BIN check $BOOK --quiet"
    if has_py python_calamine; then
        time_ref calamine "$RUNS" -- "python3 $BENCH/baselines.py calamine $BOOK"
    else
        skip calamine "the Python package python-calamine is not installed"
    fi
    if [ -n "${OPENPYXL:-}" ]; then
        time_ref openpyxl 2 -- "python3 $BENCH/baselines.py openpyxl $BOOK"
    fi
    time_it export-xlsx "$SLOW_RUNS" --prepare "rm -rf $OUT/export.xlsx $OUT/.sheetsync-backup" -- \
        "cd $OUT/noop && $BIN export $OUT/export.xlsx --format xlsx --quiet"
    if has_py xlsxwriter; then
        time_ref xlsxwriter "$(( SLOW_RUNS < 3 ? SLOW_RUNS : 3 ))" --prepare "rm -f $OUT/xlsxwriter.xlsx" -- \
            "python3 $BENCH/baselines.py xlsxwriter $CSV $OUT/xlsxwriter.xlsx"
    else
        skip xlsxwriter "the Python package XlsxWriter is not installed"
    fi
    rss_it check-xlsx "$BIN" check "$BOOK" --quiet
    rm -rf "$OUT/export.xlsx" "$OUT/.sheetsync-backup"
    rss_it export-xlsx bash -c "cd $OUT/noop && exec $BIN export $OUT/export.xlsx --format xlsx --quiet"
else
    for name in check-xlsx calamine export-xlsx xlsxwriter; do skip "$name" "SKIP_XLSX is set"; done
fi
echo "$(loadavg)" > "$OUT/load-end.txt"
# The commit checked out, and the last one that changed what the binary is built from (bench-only
# commits do not change it); "+changes" when Sources has uncommitted edits.
printf '{"rows": %s, "binary": "%s", "commit": "%s", "sources_commit": "%s", "date": "%s"}\n' "$ROWS" "$BIN_SHA" \
    "$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)" \
    "$(git -C "$ROOT" log -1 --format=%h -- Sources Package.swift 2>/dev/null || echo unknown)$(git -C "$ROOT" diff --quiet HEAD -- Sources Package.swift 2>/dev/null || echo +changes)" \
    "$(date -u +%Y-%m-%dT%H:%M:%SZ)" > "$OUT/run.json"
fi

# --- the big runs (opt-in) -----------------------------------------------------------------------
if [ -n "$BIG" ]; then
    # shellcheck source=bench/big.sh
    . "$BENCH/big.sh"
fi

# --- table ---------------------------------------------------------------------------------------
python3 "$BENCH/summarize.py" "$OUT" | tee "$OUT/results.md"
