#!/usr/bin/env bash
# Times `sheetsync import` of a bank statement of ROWS entries (a German bank's CSV in Windows-1252,
# identified by fingerprints, an OFX with FITIDs, a QIF (fingerprints) and a CAMT.053 with AcctSvcrRefs;
# bench/statement_gen.py) against the first `pull`
# of a workbook of as many rows (bench/generate.py), side by side in one run. The bar: importing a
# 10,000-entry statement takes less than the first pull of 10,000 rows (wall and CPU).
#
#   bench/statements.sh                   10,000 entries, the sheetsync bench/run.sh builds (.build-bench)
#   BIN=/path/to/sheetsync bench/statements.sh
#   ROWS=2000 RUNS=3 bench/statements.sh  a quicker look
#
# Each import runs in a fresh copy of a new, empty ledger (`init --empty`, a CSV workbook, the
# generator's dozen rules), and once more into a copy of the pulled and synced ROWS-row ledger.
# Everything goes to $OUT (default bench/out/statements/); the table also to statements.md and .json.
set -euo pipefail

BENCH="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-$BENCH/out/statements}" ROWS="${ROWS:-10000}" SEED="${SEED:-20260101}" RUNS="${RUNS:-7}"
BIN="${BIN:-$BENCH/../.build-bench/release/sheetsync}"
command -v hyperfine >/dev/null || { echo "bench/statements.sh: hyperfine is required" >&2; exit 78; }
[ -x "$BIN" ] || {
    echo "bench/statements.sh: no sheetsync at $BIN; build it as bench/run.sh does (swift build -c release --product sheetsync" \
        "--static-swift-stdlib --scratch-path .build-bench) or name one with BIN=" >&2
    exit 78
}

rm -rf "$OUT" && mkdir -p "$OUT"
cut -d' ' -f1-3 /proc/loadavg > "$OUT/load-start.txt"
python3 "$BENCH/generate.py" "$OUT/csv" --rows "$ROWS" --seed "$SEED" >/dev/null
python3 "$BENCH/statement_gen.py" "$OUT/stmt" --rows "$ROWS" --seed "$SEED"

# The ledger an import starts from: a config with the rules, then `init --empty` (a CSV workbook of
# the five tabs in the folder, the store bound to it).
config() {  # FOLDER: the config of a ledger whose CSV workbook is that folder
    printf '{"store": "sheetsync.sqlite", "remote": {"type": "csv", "path": "."}, "timezone": "Europe/Berlin", "import": %s}\n' \
        "$(cat "$OUT/stmt/rules.json")" > "$1/sheetsync.json"
}
mkdir -p "$OUT/new" && config "$OUT/new"
(cd "$OUT/new" && "$BIN" init --empty --quiet)
# The same rows as a workbook, pulled and synced: the ledger a second import lands in.
mkdir -p "$OUT/pull" "$OUT/full" && cp "$OUT/csv"/*.csv "$OUT/pull/" && cp "$OUT/csv"/*.csv "$OUT/full/"
(cd "$OUT/full" && "$BIN" pull --quiet && "$BIN" sync --quiet) && config "$OUT/full"

time_it() {  # name prepare command
    hyperfine --style basic --warmup 1 --runs "$RUNS" --prepare "$2" --export-json "$OUT/t-$1.json" -n "$1" "$3" >&2
}
time_it pull "rm -f $OUT/pull/sheetsync.sqlite $OUT/pull/sheetsync.sqlite-wal $OUT/pull/sheetsync.sqlite-shm && sync" \
    "cd $OUT/pull && $BIN pull --quiet"
FRESH="rm -rf $OUT/work && cp -a $OUT/new $OUT/work && sync"
time_it import-csv "$FRESH" "cd $OUT/work && $BIN import $OUT/stmt/bank.csv --quiet"
time_it import-ofx "$FRESH" "cd $OUT/work && $BIN import $OUT/stmt/statement.ofx --quiet"
time_it import-qif "$FRESH" "cd $OUT/work && $BIN import $OUT/stmt/statement.qif --quiet"
time_it import-camt "$FRESH" "cd $OUT/work && $BIN import $OUT/stmt/statement.camt053.xml --quiet"
time_it import-csv-into-full "rm -rf $OUT/work && cp -a $OUT/full $OUT/work && sync" \
    "cd $OUT/work && $BIN import $OUT/stmt/bank.csv --quiet"
# The entries arrived: the last run's store holds the workbook's rows and the statement's.
count="$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM transactions").fetchone()[0])' \
    "$OUT/work/sheetsync.sqlite")"
[ "$count" -eq $((2 * ROWS)) ] || { echo "bench/statements.sh: the store holds $count transactions, not $((2 * ROWS))" >&2; exit 1; }
cut -d' ' -f1-3 /proc/loadavg > "$OUT/load-end.txt"

python3 - "$OUT" "$ROWS" <<'PY' | tee "$OUT/statements.md"
import json, os, statistics, sys
out, rows = sys.argv[1], int(sys.argv[2])
def t(name):
    r = json.load(open(os.path.join(out, f"t-{name}.json")))["results"][0]
    return {"wall": statistics.median(r["times"]), "cpu": r["user"] + r["system"], "runs": len(r["times"])}
pull = t("pull")
table = {"rows": rows, "load": [open(os.path.join(out, f)).read().strip() for f in ("load-start.txt", "load-end.txt")],
         "pull": pull}
print(f"{rows} rows / entries; load average {table['load'][0]} at the start, {table['load'][1]} at the end\n")
print("| command | wall s (median) | cpu s (mean) | / first pull (wall / cpu) | bar < 1× met (wall / cpu) |")
print("|---|---:|---:|---:|:---:|")
print(f"| first `pull` of {rows} rows | {pull['wall']:.3f} | {pull['cpu']:.3f} | | |")
for name, what in [("import-csv", "bank CSV, new ledger"), ("import-ofx", "OFX, new ledger"),
                   ("import-qif", "QIF, new ledger"), ("import-camt", "CAMT.053, new ledger"),
                   ("import-csv-into-full", f"bank CSV, into the {rows}-row ledger")]:
    m = t(name)
    rw, rc = m["wall"] / pull["wall"], m["cpu"] / pull["cpu"]
    table[name] = dict(m, ratio_wall=rw, ratio_cpu=rc)
    yes = lambda r: "yes" if r < 1 else "**no**"
    print(f"| `import` {what} | {m['wall']:.3f} | {m['cpu']:.3f} | {rw:.2f}× / {rc:.2f}× | {yes(rw)} / {yes(rc)} |")
json.dump(table, open(os.path.join(out, "statements.json"), "w"), indent=1)
PY
