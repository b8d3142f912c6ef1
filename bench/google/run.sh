#!/usr/bin/env bash
# Google mode against the local Sheets/Drive emulator (results in BENCHMARKS.md,
# "Google mode"): the first push of a 100k-row ledger (`init`), the first pull of that spreadsheet into
# a new store, a push of 10 changed rows and a quiet sync — time, and requests and bytes as the
# emulator counted them (`/_emulator/counters`).
#
#   bench/google/run.sh                  100k transactions (bench/generate.py, the CSV benchmark's rows)
#   ROWS=20000 bench/google/run.sh       a smaller ledger
#   RUNS=5 bench/google/run.sh           timed first pulls (default 3; the median is reported)
#   BIN_DIR=DIR bench/google/run.sh      use DIR/sheetsync and DIR/sheetsync-emulator instead of building
#
# Everything it makes goes to bench/google/out/ (ignored by git); the table: bench/google/out/results.md.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
OUT="$ROOT/bench/google/out"
ROWS="${ROWS:-100000}"
SEED="${SEED:-20260101}"
RUNS="${RUNS:-3}"
SCRATCH="${SCRATCH:-$ROOT/.build-bench}"

say() { printf '\n== %s\n' "$*" >&2; }

if [ -z "${BIN_DIR:-}" ]; then
    say "building sheetsync and sheetsync-emulator (release)"
    for product in sheetsync sheetsync-emulator; do
        (cd "$ROOT" && swift build -c release --product "$product" --scratch-path "$SCRATCH" >&2)
    done
    BIN_DIR="$SCRATCH/release"
fi
BIN="$BIN_DIR/sheetsync"
[ -x "$BIN" ] && [ -x "$BIN_DIR/sheetsync-emulator" ] || { echo "no sheetsync or sheetsync-emulator in $BIN_DIR" >&2; exit 1; }

mkdir -p "$OUT"
CSV="$OUT/csv"
stamp="rows=$ROWS seed=$SEED $(sha1sum "$ROOT/bench/generate.py" | cut -c1-12)"
if [ "$(cat "$OUT/csv.stamp" 2>/dev/null)" != "$stamp" ]; then
    say "generating $ROWS transactions (seed $SEED)"
    rm -rf "$CSV"
    python3 "$ROOT/bench/generate.py" "$CSV" --rows "$ROWS" --seed "$SEED"
    echo "$stamp" > "$OUT/csv.stamp"
fi

# --- the emulator, on a free port ------------------------------------------------------------------
say "starting sheetsync-emulator"
"$BIN_DIR/sheetsync-emulator" --port 0 --credentials "$OUT/credentials.json" > "$OUT/emulator.log" 2>&1 &
EMULATOR=$!
trap 'kill "$EMULATOR" 2>/dev/null || true' EXIT
BASE=""
for _ in $(seq 1 100); do
    BASE="$(sed -n 's/^sheetsync-emulator listening on \(http[^ ]*\).*/\1/p' "$OUT/emulator.log" | head -n 1)"
    [ -n "$BASE" ] && break
    sleep 0.1
done
[ -n "$BASE" ] || { cat "$OUT/emulator.log" >&2; echo "the emulator did not start" >&2; exit 1; }
ctl() { curl -fsS -X "$1" "$BASE/_emulator/$2"; }

# A folder with its own store and a config naming the emulator (and the spreadsheet, once there is one).
workspace() {  # folder [spreadsheetId]
    rm -rf "$1"; mkdir -p "$1"
    python3 - "$1" "$OUT/credentials.json" "$BASE" "${2:-}" <<'EOF'
import json, sys
folder, credentials, endpoint, sheet = sys.argv[1:5]
remote = {"type": "google", "credentials": credentials, "endpoint": endpoint}
if sheet:
    remote["spreadsheetId"] = sheet
json.dump({"store": "ledger.sqlite", "timezone": "UTC", "remote": remote}, open(folder + "/sheetsync.json", "w"), indent=2)
EOF
}

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
counters() { ctl GET counters > "$OUT/counters-$1.json"; }

# --- first push: import the CSV ledger into a store, then `init` creates the spreadsheet and writes it --
say "first push of $ROWS rows (import, then init)"
workspace "$OUT/seed"
(cd "$OUT/seed" && "$BIN" import "$CSV" --quiet)
ctl POST reset-counters > /dev/null
t=$(now)
(cd "$OUT/seed" && "$BIN" init --quiet)
PUSH_ALL=$(since "$t")
counters init
SHEET="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["remote"]["spreadsheetId"])' "$OUT/seed/sheetsync.json")"

# --- first pull into a new store, RUNS times ---------------------------------------------------------
PULLS=()
for i in $(seq 1 "$RUNS"); do
    say "first pull $i of $RUNS"
    workspace "$OUT/pull" "$SHEET"
    ctl POST reset-counters > /dev/null
    t=$(now)
    (cd "$OUT/pull" && "$BIN" pull --quiet)
    PULLS+=("$(since "$t")")
    counters pull
done
PULL=$(printf '%s\n' "${PULLS[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
RSS=""
if [ -x /usr/bin/time ]; then
    workspace "$OUT/pull" "$SHEET"
    /usr/bin/time -v "$BIN" pull --quiet --config "$OUT/pull/sheetsync.json" 2> "$OUT/pull-time.txt" > /dev/null
    RSS=$(awk '/Maximum resident set size/ { printf "%.0f", $NF / 1024 }' "$OUT/pull-time.txt")
fi

# --- a push of 10 rows changed locally (by another SQLite client) ------------------------------------
say "push of 10 changed rows"
(cd "$OUT/pull" && "$BIN" sync --quiet)
python3 - "$OUT/pull/ledger.sqlite" <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE transactions SET note = 'bench edit ' || substr(transactionId, 1, 8) "
           "WHERE transactionId IN (SELECT transactionId FROM transactions ORDER BY transactionId LIMIT 10)")
db.commit()
EOF
ctl POST reset-counters > /dev/null
t=$(now)
(cd "$OUT/pull" && "$BIN" push --quiet)
PUSH10=$(since "$t")
counters push10

# --- a quiet sync ------------------------------------------------------------------------------------
(cd "$OUT/pull" && "$BIN" sync --quiet)
ctl POST reset-counters > /dev/null
t=$(now)
(cd "$OUT/pull" && "$BIN" sync --quiet)
QUIET=$(since "$t")
counters quiet

# --- table -------------------------------------------------------------------------------------------
python3 - "$OUT" "$ROWS" "$PUSH_ALL" "$PULL" "${PULLS[*]}" "$PUSH10" "$QUIET" "$RSS" <<'EOF' | tee "$OUT/results.md"
import json, sys
out, rows, push_all, pull, pulls, push10, quiet, rss = sys.argv[1:9]
def c(name):
    return json.load(open(f"{out}/counters-{name}.json"))
def mb(n):
    return f"{n / 1e6:.2f} MB" if n >= 1e5 else f"{n / 1e3:.1f} kB"
def calls(name):
    by = c(name)["requestsByEndpoint"]
    return ", ".join(f"{k} {v}" for k, v in sorted(by.items()))
print(f"| {int(rows):,} transactions | time | requests | sent | received | requests by endpoint |")
print("|---|---|---|---|---|---|")
for label, name, secs in [("first push (`init`)", "init", push_all), (f"first pull (median of {len(pulls.split())}: {pulls})", "pull", pull),
                          ("push of 10 changed rows", "push10", push10), ("quiet sync", "quiet", quiet)]:
    k = c(name)
    print(f"| {label} | {secs} s | {k['totalRequests']} | {mb(k['requestBytes'])} | {mb(k['responseBytes'])} | {calls(name)} |")
if rss:
    print(f"\nfirst pull peak RSS: {rss} MB")
EOF
