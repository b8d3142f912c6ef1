#!/usr/bin/env bash
# Times sheetsync against its reference tools on generated workbooks of three shapes (canonical, as
# users type them, with 1 % rejected rows), side by side, in one run, and prints every row of the
# performance bars' table (and the earlier XLSX export and no-op sync rows) with its bar and goal for the
# first shape, then every ratio for all shapes side by side (see BENCHMARKS.md and bench/README.md).
#
#   bench/run.sh                 100k transactions, CSV and XLSX
#   ROWS=20000 bench/run.sh      a smaller workbook (quick look; the bars are stated for 100k)
#   RUNS=3 bench/run.sh          fewer timed runs per command (default 7; slow ones SLOW_RUNS, default 5)
#   SKIP_XLSX=1 bench/run.sh     CSV only
#   SHAPES="canonical user" bench/run.sh   these ledgers only (default "canonical user dirty"; see
#                                generate.py: sheetsync's own spelling, as people type it, 1 % rejected rows)
#   YES=1 bench/run.sh           install missing apt packages without asking (else asked, or named and stopped)
#   SKIP_BUILD=1 bench/run.sh    use the sheetsync already built in $SCRATCH (BIN=/path/to/sheetsync: that one)
#   BIG=1 bench/run.sh           also the 200k and 1M-row runs (long; opt-in; resumable, see big.sh)
#   SIZES="200000" bench/run.sh  the big runs at these sizes only (implies BIG=1)
#   BIG_ONLY=1 BIG=1 bench/run.sh  only the big runs; the table reuses the last ROWS run's results in $OUT
#   SMOKE=1 ROWS=2000 RUNS=1 OUT=/tmp/x BIN=... bench/run.sh   the test suite's smoke run: installs
#                                nothing, skips a reference tool that is missing (the table says so);
#                                the canonical ledger only, unless SHAPES is set
#
# Everything it makes goes to $OUT (default bench/out/, ignored by git); results: results.md and .json
# (the first shape), shape-NAME/results.md and .json (the others), shapes.md and .json (side by side).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BENCH="$ROOT/bench"
OUT="${OUT:-$BENCH/out}"
ROWS="${ROWS:-100000}"
SEED="${SEED:-20260101}"
RUNS="${RUNS:-7}"
# The smoke run (SMOKE=1) measures the canonical ledger only unless SHAPES says otherwise: three shapes
# take three times as long, and the test suite runs it.
SHAPES="${SHAPES:-$([ -n "${SMOKE:-}" ] && echo canonical || echo "canonical user dirty")}"
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
MEASURED="$OUT"   # where time_it, time_ref, rss_it and skip write: the shape being measured
OK_EXITS="0"
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

# --- helpers -------------------------------------------------------------------------------------
# generate DIR ROWS [SHAPE [BOOK]]: the seeded CSV workbook of that shape (default plain), and the
# same rows as BOOK.xlsx when named; made again only when rows, seed, shape or generator changed.
generate() {
    local dir="$1" rows="$2" shape="${3:-plain}" book="${4:-}"
    local stamp="rows=$rows seed=$SEED shape=$shape${book:+ xlsx} $(sha1sum "$BENCH/generate.py" | cut -c1-12)"
    # (the stamp of a plain ledger is as it was before shapes, so big runs' folders stay valid)
    [ "$shape" = plain ] && stamp="rows=$rows seed=$SEED $(sha1sum "$BENCH/generate.py" | cut -c1-12)"
    if [ "$(cat "$dir.stamp" 2>/dev/null)" != "$stamp" ] || { [ -n "$book" ] && [ ! -f "$book" ]; }; then
        say "generating $rows transactions (seed $SEED, shape $shape) in $dir${book:+ and $book}"
        rm -rf "$dir" "$dir.stamp"
        python3 "$BENCH/generate.py" "$dir" --rows "$rows" --seed "$SEED" --shape "$shape" ${book:+--xlsx "$book"}
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
        --export-json "$MEASURED/t-$name.json" -n "$name" "$1" >&2
}
# time_ref: time_it for a Python reference, which also writes the time of its work alone (after the
# interpreter's start-up and the package's import) to inproc-NAME.jsonl: the bars compare in-process.
time_ref() {  # name runs [hyperfine options...] -- "python3 baselines.py ..."
    local name="$1" runs="$2"; shift 2
    local file="$MEASURED/inproc-$name.jsonl" args=("$@")
    rm -f "$file"
    args[${#args[@]}-1]="BASELINE_TIMES=$file ${args[${#args[@]}-1]}"
    time_it "$name" "$runs" "${args[@]}"
    tail -n "$runs" "$file" > "$file.tmp" && mv "$file.tmp" "$file"   # the timed runs, not the warm-up
}
rss_it() {  # name command... : one run under /usr/bin/time -v, peak RSS in KiB
    local name="$1" code=0; shift
    /usr/bin/time -v "$@" >/dev/null 2>"$MEASURED/rss-$name.txt" || code=$?
    ok_exit "$code" || { cat "$MEASURED/rss-$name.txt" >&2; exit 1; }
    grep 'Maximum resident set size' "$MEASURED/rss-$name.txt" | awk '{print $NF}' > "$MEASURED/rss-$name.kib"
}
# ok_exit CODE: whether the exit code is one the ledger's shape expects ($OK_EXITS: 0, and 65 for the
# dirty ledger, whose rejected rows are held back).
ok_exit() { [[ " $OK_EXITS " == *" $1 "* ]]; }
# expect_ok name command...: one untimed run; its exit code and its summary's Transactions line (the
# rejected rows) go to exit-NAME.txt, and an exit code the shape does not expect stops the run.
expect_ok() {
    local name="$1" code=0; shift
    "$@" >"$MEASURED/exit-$name.log" 2>&1 || code=$?
    { echo "exit $code"; grep -m 1 '^Transactions:' "$MEASURED/exit-$name.log" || true; } > "$MEASURED/exit-$name.txt"
    ok_exit "$code" || { echo "bench/run.sh: $name exited $code:" >&2; tail -n 20 "$MEASURED/exit-$name.log" >&2; exit 1; }
}
# skip name reason: a reference that cannot run here; the table shows the reason instead of a number.
skip() { say "skipped $1: $2"; echo "$2" > "$MEASURED/skipped-$1.txt"; }
has_py() { python3 -c "import $1" 2>/dev/null; }

# --- the ROWS table, once per shape ------------------------------------------------------------
# measure SHAPE DIR: every timed command of the table on the SHAPE ledger (generate.py --shape), its
# files, measurements and results in DIR. The first shape's DIR is $OUT itself (results.json there is
# its table, as before shapes existed); the others' are $OUT/shape-NAME.
measure() {
    local shape="$1" D="$2"
    MEASURED="$D"
    mkdir -p "$D"
    rm -f "$D"/t-*.json "$D"/rss-* "$D"/skipped-*.txt "$D"/inproc-* "$D"/exit-*.txt   # no stale numbers
    echo "$(loadavg)" > "$D/load-start.txt"
    local CSV="$D/csv" BOOK="$D/book.xlsx"
    generate "$CSV" "$ROWS" "$shape" "$([ -z "${SKIP_XLSX:-}" ] && echo "$BOOK")"
    # A dirty ledger's rejected rows make check, pull and sync exit 65 (data held back): expected there,
    # and nowhere else. Each command's exit code and its count of rejected rows go to exit-NAME.txt.
    local IGNORE=()
    [ "$shape" = dirty ] && { OK_EXITS="0 65"; IGNORE=(--ignore-failure); } || OK_EXITS="0"

    # One pristine synced folder (pull, then sync), never run in; each timed command works in its own
    # copy, so no run sees another's store, lock or backups.
    say "$shape: preparing a synced store (pull, then sync)"
    rm -rf "$D/snap" && mkdir -p "$D/snap" && cp "$CSV"/*.csv "$D/snap/"
    expect_ok first-pull bash -c "cd $D/snap && exec $BIN pull"
    expect_ok first-sync bash -c "cd $D/snap && exec $BIN sync"
    local ROW_ID; ROW_ID="$($EDIT pick "$D/snap")"
    restore "$D/snap" "$D/noop"
    rm -rf "$D/pull" && mkdir -p "$D/pull" && cp "$CSV"/*.csv "$D/pull/"
    expect_ok check-csv "$BIN" check "$CSV"

    # check: read, validate and plan every row, change nothing.
    time_it check-csv "$RUNS" "${IGNORE[@]}" -- "$BIN check $CSV --quiet"
    time_ref py-csv-reader "$SLOW_RUNS" -- "python3 $BENCH/baselines.py csv-reader $CSV"
    if has_py polars; then
        time_ref polars "$RUNS" -- "python3 $BENCH/baselines.py polars $CSV"
    else
        skip polars "the Python package polars is not installed"
    fi

    # first pull into an empty store, against sqlite3's own CSV import into fresh tables.
    if command -v sqlite3 >/dev/null; then
        local IMPORT_SQL="$D/import.sql"
        for tab in Transactions Receipts Categories RecurringRules Settings; do
            echo ".import --csv $CSV/$tab.csv $tab"
        done > "$IMPORT_SQL"
        time_it sqlite3-import "$SLOW_RUNS" --prepare "rm -f $D/import.sqlite" -- \
            "sqlite3 -init $IMPORT_SQL $D/import.sqlite .quit"
    else
        skip sqlite3-import "the sqlite3 command is not installed"
    fi
    # pull runs in its folder: the embedded default config is "the CSV workbook in the current folder".
    local NO_STORE="rm -f $D/pull/sheetsync.sqlite $D/pull/sheetsync.sqlite-wal $D/pull/sheetsync.sqlite-shm"
    time_it pull "$SLOW_RUNS" "${IGNORE[@]}" --prepare "$NO_STORE" -- "cd $D/pull && $BIN pull --quiet"

    # sync after one row edited by hand (one record's bytes in Transactions.csv) and after the same edit
    # in the store (SQL UPDATE): each run starts from the pristine synced folder plus that one edit. The
    # prepare step ends with `sync`: the copy it made (tens of MB) is on disk before the timed run, whose
    # fdatasync of the store would otherwise wait for the harness's own copy to be written back (about
    # 20 ms of wall time at 100k rows that no user's sync pays: their store was not just copied).
    local HAND_PREP="rm -rf $D/hand && cp -a $D/snap $D/hand && $EDIT hand $D/hand $ROW_ID >/dev/null && sync"
    local STORE_PREP="rm -rf $D/store && cp -a $D/snap $D/store && $EDIT store $D/store $ROW_ID >/dev/null && sync"
    time_it hand-edit-sync "$SLOW_RUNS" "${IGNORE[@]}" --prepare "$HAND_PREP" --cleanup "rm -rf $D/hand && cp -a $D/snap $D/hand" -- \
        "cd $D/hand && $BIN sync --quiet"
    time_it store-edit-sync "$SLOW_RUNS" "${IGNORE[@]}" --prepare "$STORE_PREP" --cleanup "rm -rf $D/store && cp -a $D/snap $D/store" -- \
        "cd $D/store && $BIN sync --quiet"

    # no-op syncs: right after a sync, and after one row was deleted in the store (delete, one sync that
    # pushes the delete, untimed; then the no-op syncs that follow are timed). A no-op sync must leave
    # its folder as it found it, so these runs have no prepare step: restoring a copy before each would
    # hide a sync that keeps redoing (or undoing) work run after run.
    time_it noop-sync "$RUNS" "${IGNORE[@]}" -- "cd $D/noop && $BIN sync --quiet"
    restore "$D/snap" "$D/deleted"
    $EDIT delete "$D/deleted" "$ROW_ID" >&2
    expect_ok delete-sync bash -c "cd $D/deleted && exec $BIN sync"
    time_it deleted-noop-sync "$RUNS" "${IGNORE[@]}" -- "cd $D/deleted && $BIN sync --quiet"
    # status is read-only: the synced folder as it is.
    time_it status "$RUNS" -- "cd $D/noop && $BIN status"

    # peak RSS: one run each, from the same starting states.
    eval "$NO_STORE"
    rss_it pull bash -c "cd $D/pull && exec $BIN pull --quiet"
    rss_it check-csv "$BIN" check "$CSV" --quiet
    bash -c "$HAND_PREP"
    rss_it hand-edit-sync bash -c "cd $D/hand && exec $BIN sync --quiet"
    bash -c "$STORE_PREP"
    rss_it store-edit-sync bash -c "cd $D/store && exec $BIN sync --quiet"
    rss_it noop-sync bash -c "cd $D/noop && exec $BIN sync --quiet"
    rss_it deleted-noop-sync bash -c "cd $D/deleted && exec $BIN sync --quiet"
    rss_it status bash -c "cd $D/noop && exec $BIN status"

    # XLSX: the same rows as a workbook (generate.py --xlsx: typed cells as a spreadsheet program holds
    # them), so every reader reads the same bytes. The export is timed on the first shape only: it
    # writes from the store, whose rows every shape loads the same.
    if [ -z "${SKIP_XLSX:-}" ]; then
        expect_ok check-xlsx "$BIN" check "$BOOK"
        time_it check-xlsx "$RUNS" "${IGNORE[@]}" -- "$BIN check $BOOK --quiet"
        if has_py python_calamine; then
            time_ref calamine "$RUNS" -- "python3 $BENCH/baselines.py calamine $BOOK"
        else
            skip calamine "the Python package python-calamine is not installed"
        fi
        if [ -n "${OPENPYXL:-}" ]; then
            time_ref openpyxl 2 -- "python3 $BENCH/baselines.py openpyxl $BOOK"
        fi
        rss_it check-xlsx "$BIN" check "$BOOK" --quiet
        if [ "$D" = "$OUT" ]; then
            time_it export-xlsx "$SLOW_RUNS" --prepare "rm -rf $D/export.xlsx $D/.sheetsync-backup" -- \
                "cd $D/noop && $BIN export $D/export.xlsx --format xlsx --quiet"
            if has_py xlsxwriter; then
                time_ref xlsxwriter "$(( SLOW_RUNS < 3 ? SLOW_RUNS : 3 ))" --prepare "rm -f $D/xlsxwriter.xlsx" -- \
                    "python3 $BENCH/baselines.py xlsxwriter $CSV $D/xlsxwriter.xlsx"
            else
                skip xlsxwriter "the Python package XlsxWriter is not installed"
            fi
            rm -rf "$D/export.xlsx" "$D/.sheetsync-backup"
            rss_it export-xlsx bash -c "cd $D/noop && exec $BIN export $D/export.xlsx --format xlsx --quiet"
        fi
    else
        for name in check-xlsx calamine export-xlsx xlsxwriter; do skip "$name" "SKIP_XLSX is set"; done
    fi
    echo "$(loadavg)" > "$D/load-end.txt"
    # The commit checked out, and the last one that changed what the binary is built from (bench-only
    # commits do not change it); "+changes" when Sources has uncommitted edits.
    printf '{"rows": %s, "shape": "%s", "binary": "%s", "commit": "%s", "sources_commit": "%s", "date": "%s"}\n' "$ROWS" "$shape" "$BIN_SHA" \
        "$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)" \
        "$(git -C "$ROOT" log -1 --format=%h -- Sources Package.swift 2>/dev/null || echo unknown)$(git -C "$ROOT" diff --quiet HEAD -- Sources Package.swift 2>/dev/null || echo +changes)" \
        "$(date -u +%Y-%m-%dT%H:%M:%SZ)" > "$D/run.json"
}

shape_dir() { if [ "$1" = "${SHAPES%% *}" ]; then echo "$OUT"; else echo "$OUT/shape-$1"; fi; }
if [ -z "$BIG_ONLY" ]; then
    for shape in $SHAPES; do measure "$shape" "$(shape_dir "$shape")"; done
fi

# --- the big runs (opt-in) -----------------------------------------------------------------------
if [ -n "$BIG" ]; then
    # shellcheck source=bench/big.sh
    . "$BENCH/big.sh"
fi

# --- table ---------------------------------------------------------------------------------------
# Each shape's own table (the first shape's is $OUT/results.md and .json, as before shapes), then
# every ratio of the bars for all shapes side by side (shapes.md and shapes.json).
python3 "$BENCH/summarize.py" "$OUT" | tee "$OUT/results.md"
shape_args=()
for shape in $SHAPES; do
    dir="$(shape_dir "$shape")"
    [ "$dir" = "$OUT" ] || [ ! -f "$dir/run.json" ] || python3 "$BENCH/summarize.py" "$dir" > "$dir/results.md"
    [ -f "$dir/results.json" ] && shape_args+=("$shape=$dir")
done
python3 "$BENCH/shapes.py" "$OUT" "${shape_args[@]}" | tee "$OUT/shapes.md"
