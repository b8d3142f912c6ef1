#!/usr/bin/env bash
# The store's own floor under a first pull: the CPU SQLite alone spends to keep the bench workbook's
# transactions the way sheetsync's store keeps them — its CHECK constraints and primary-key index,
# timestamps in canonical form, and the base copy of every row as JSON (triggers left out) — beside
# sqlite3's plain `.import` of the same CSV into a fresh table, the reference of the
# "first pull ≤ 4× sqlite3 .import" bar. No sheetsync code runs: this is what any engine on this
# schema pays before reading, validating or planning a single row.
#
#   bench/store-floor.sh [OUT]      after bench/run.sh (uses OUT/csv and OUT/snap/sheetsync.sqlite's schema)
set -euo pipefail
OUT="${1:-$(cd "$(dirname "$0")" && pwd)/out}"
CSV="$OUT/csv/Transactions.csv"
STORE="$OUT/snap/sheetsync.sqlite"
for f in "$CSV" "$STORE"; do
    [ -f "$f" ] || { echo "bench/store-floor.sh: $f is missing; run bench/run.sh first" >&2; exit 78; }
done
WORK="$OUT/floor"
rm -rf "$WORK" && mkdir -p "$WORK"

# The store's tables and indexes as they are (16 KiB pages, WAL), without its triggers.
{
    echo "PRAGMA page_size = 16384; PRAGMA journal_mode = WAL;"
    sqlite3 "$STORE" "SELECT sql || ';' FROM sqlite_master WHERE sql IS NOT NULL AND type IN ('table', 'index') AND name NOT LIKE 'sqlite_%'"
} > "$WORK/schema.sql"

# The base's JSON: the members in the store's order (sorted names), every value as text.
MEMBERS="$(python3 - <<'EOF'
names = ["transactionId", "type", "date", "year", "month", "amount", "category", "tagsCSV", "note",
         "paidFlag", "reimbursedFlag", "recurringRuleId", "createdAt", "lastModifiedAt"]
def text(n):
    return f"CAST({n} AS TEXT)" if n in ("year", "month") else f"coalesce(\"{n}\", '')"
print(", ".join(f"'{n}', {text(n)}" for n in sorted(names)))
EOF
)"
cat > "$WORK/load.sql" <<EOF
.import --csv $CSV csv_transactions
BEGIN;
INSERT INTO transactions SELECT lower(transactionId), type, date, CAST(year AS INTEGER), CAST(month AS INTEGER),
  amount, category, nullif(tags, ''), nullif(note, ''), nullif(paidFlag, ''), nullif(reimbursedFlag, ''),
  nullif(lower(recurringRuleId), ''), strftime('%Y-%m-%dT%H:%M:%fZ', createdAt), strftime('%Y-%m-%dT%H:%M:%fZ', lastModifiedAt)
  FROM csv_transactions ORDER BY 1;
INSERT INTO sync_base (tab, key, fields, raw_hash)
  SELECT 'Transactions', transactionId, json_object($MEMBERS), 0 FROM transactions ORDER BY transactionId;
DROP TABLE csv_transactions;
COMMIT;
EOF

cpu() { # best of three runs of "$@" after "$PREP", user+system seconds
    local best=""
    for _ in 1 2 3; do
        eval "$PREP"
        local t
        /usr/bin/time -o "$WORK/time.txt" -f "%U %S" "$@" >/dev/null 2>&1
        t="$(tail -1 "$WORK/time.txt" | awk '{printf "%.3f", $1 + $2}')"
        if [ -z "$best" ] || awk "BEGIN {exit !($t < $best)}"; then best="$t"; fi
    done
    echo "$best"
}
PREP="rm -f $WORK/plain.sqlite*"
plain="$(cpu sqlite3 "$WORK/plain.sqlite" ".import --csv $CSV Transactions")"
PREP="rm -f $WORK/floor.sqlite* && sqlite3 $WORK/floor.sqlite < $WORK/schema.sql >/dev/null"
floor="$(cpu sh -c "sqlite3 $WORK/floor.sqlite < $WORK/load.sql")"
rows="$(sqlite3 "$WORK/floor.sqlite" "SELECT count(*) FROM transactions")"
[ "$rows" -gt 0 ] || { echo "bench/store-floor.sh: nothing was loaded" >&2; exit 1; }
awk -v p="$plain" -v f="$floor" -v n="$rows" 'BEGIN {
    printf "transactions loaded: %d\n", n
    printf "sqlite3 .import into a fresh table:             %.3f s CPU\n", p
    printf "the same rows kept as the store keeps them:     %.3f s CPU (%.1fx the import)\n", f, f / p
    printf "a first pull at 4x the import may spend:        %.3f s CPU, of which the store alone takes %.0f%%\n", 4 * p, 100 * f / (4 * p)
}'
