# The big runs of bench/run.sh (BIG=1 or SIZES="200000 1000000"), sourced by it: at each size, a first
# sync from an empty store, then a sync after one row edited by hand and after one row edited in the
# store, each timed with its peak RSS under /usr/bin/time (35–40 s per run at 1M rows: hyperfine's
# extra RSS run would double that).
#
# Resumable: everything lives in $OUT/big/rows-N/ and is reused while it is still valid. The generated
# CSVs are kept while rows, seed and generator are the same; the synced snapshot and each measurement
# (m-NAME.json) while the sheetsync binary is also the same. BIG_FRESH=1 measures again anyway;
# BIG_RUNS sets the runs per measurement (default 3 up to 200k rows, 1 above).

big_sizes="${SIZES:-200000 1000000}"

# measure_big DIR NAME RUNS PREPARE COMMAND: RUNS runs of COMMAND (in bash), each after PREPARE; wall,
# user and system seconds and peak RSS of each into DIR/m-NAME.json with the key they are valid for.
measure_big() {
    local dir="$1" name="$2" runs="$3" prepare="$4" command="$5"
    local file="$dir/m-$name.json"
    if [ -z "${BIG_FRESH:-}" ] && [ -f "$file" ] && [ "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["key"])' "$file")" = "$key" ]; then
        say "$(basename "$dir") $name: measured before with this binary and data, reused ($file)"
        return
    fi
    rm -f "$file" "$dir/runs.txt"
    local i
    for i in $(seq "$runs"); do
        say "$(basename "$dir") $name: run $i of $runs (load $(loadavg))"
        bash -c "$prepare"
        /usr/bin/time -f '%e %U %S %M' -o "$dir/time.txt" bash -c "$command" >/dev/null
        tail -n 1 "$dir/time.txt" >> "$dir/runs.txt"
    done
    python3 - "$file" "$key" "$name" "$dir/runs.txt" "$(loadavg)" <<'PY'
import json, sys
file, key, name, runs, load = sys.argv[1:]
rows = [line.split() for line in open(runs) if line.strip()]
json.dump({"key": key, "name": name, "load_end": load,
           "runs": [{"wall": float(w), "user": float(u), "system": float(s), "rss_kib": int(m)} for w, u, s, m in rows]},
          open(file, "w"), indent=2)
PY
    rm -f "$dir/runs.txt" "$dir/time.txt"
}

for size in $big_sizes; do
    dir="$OUT/big/rows-$size"
    mkdir -p "$dir"
    generate "$dir/csv" "$size"
    key="binary=$BIN_SHA data=$(cat "$dir/csv.stamp")"
    runs="${BIG_RUNS:-$(( size <= 200000 ? 3 : 1 ))}"

    # first sync: `sync` in a folder that holds the CSVs and no store (it pulls, then syncs).
    measure_big "$dir" first-sync "$runs" \
        "rm -rf $dir/first && mkdir -p $dir/first && cp $dir/csv/*.csv $dir/first/" \
        "cd $dir/first && exec $BIN sync --quiet"

    # The synced snapshot every edit run starts from: a first sync, then one more sync to settle.
    if [ "$(cat "$dir/snap.key" 2>/dev/null)" != "$key" ]; then
        say "$(basename "$dir"): preparing the synced snapshot"
        rm -rf "$dir/snap" "$dir/snap.key" "$dir/first"
        mkdir -p "$dir/first" && cp "$dir/csv/"*.csv "$dir/first/"
        (cd "$dir/first" && "$BIN" sync --quiet && "$BIN" sync --quiet)
        mv "$dir/first" "$dir/snap"
        python3 "$BENCH/edit_one_row.py" pick "$dir/snap" > "$dir/row-id"
        echo "$key" > "$dir/snap.key"
    fi
    rm -rf "$dir/first"
    big_id="$(cat "$dir/row-id")"

    measure_big "$dir" hand-edit-sync "$runs" \
        "rm -rf $dir/work && cp -a $dir/snap $dir/work && $EDIT hand $dir/work $big_id >/dev/null && sync" \
        "cd $dir/work && exec $BIN sync --quiet"
    measure_big "$dir" store-edit-sync "$runs" \
        "rm -rf $dir/work && cp -a $dir/snap $dir/work && $EDIT store $dir/work $big_id >/dev/null && sync" \
        "cd $dir/work && exec $BIN sync --quiet"
    rm -rf "$dir/work"
done
