#!/usr/bin/env bash
# Builds the libFuzzer targets of Fuzz/ with address sanitizer and runs them (FUZZING.md).
#
#   scripts/fuzz.sh [TARGET|all] [SECONDS]   run one target (or every target in turn) for SECONDS each
#                                            (default 60), then merge what it found into Fuzz/corpus/TARGET,
#                                            minimised (-set_cover_merge=1), so the committed corpus stays small
#   scripts/fuzz.sh --ci [SECONDS]           every target for SECONDS each (default 20) on a copy of the
#                                            corpus (the repo's corpus is left alone); exit 1 on a finding
#   FUZZ_CPU_SECONDS=3600 FUZZ_NICE=19 scripts/fuzz.sh TARGET
#                                            the release run: TARGET until it has used one CPU-hour
#   scripts/fuzz.sh --build                  build only
#   scripts/fuzz.sh --probe                  exit 0 when this toolchain can build libFuzzer targets
#   scripts/fuzz.sh --seed                   merge fresh seeds (Fuzz/make-seeds.py) into the corpora
#   scripts/fuzz.sh --minimise               shrink every committed corpus to a set cover of its coverage
#
# Every crash, hang or out-of-memory input is copied to Fuzz/regressions/TARGET/, which the normal suite
# feeds to the same entry point (Tests/FuzzRegressionTests): commit it with the fix. Before fuzzing, the
# regression inputs run once under the sanitizer and the limits below.
#
# Hangs: libFuzzer's clocks are wall clocks, and on a shared machine under `nice` a process can wait
# seconds for a core. So every input slower than 1 s is reported (-report_slow_units=1) and run again
# alone: it is a finding only if it is still slower than 1 s (the readers' bound), or if a timeout input
# hangs when run 2000 times in one process (a hang that needs state or a race); -timeout (10 s) only
# stops a run that is stuck. Memory: -malloc_limit_mb=500 and -rss_limit_mb (the readers' 500 MiB bound plus
# ASan's own overhead, about 150 MB here).
set -euo pipefail
cd "$(dirname "$0")/.."

TARGETS=(csv xlsx-package xlsx-part fields config google-json csv-roundtrip xlsx-roundtrip terminal-text ofx qif camt statement-csv)
SCRATCH=.build-fuzz
BIN="$SCRATCH/release"
RESULTS="$SCRATCH/results.tsv"
TIMEOUT=${FUZZ_TIMEOUT:-10}
SLOW_MS=${FUZZ_SLOW_MS:-1000}
RSS_LIMIT=${FUZZ_RSS_LIMIT_MB:-768}
NICE=${FUZZ_NICE:-15}
# FUZZ_CPU_SECONDS=3600: run each target until it has used that much CPU time (the release run of
# FUZZING.md), whatever the wall time; SECONDS is then ignored.
CPU_SECONDS=${FUZZ_CPU_SECONDS:-}
# Leak reports are off: Foundation's caches read as leaks at exit, and leaks are not what this hunts.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:quarantine_size_mb=32:malloc_context_size=10}
# Swift's own crash backtracer stalls under ASan; libFuzzer and ASan report the crash themselves.
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no}

dict_for() {
    case "$1" in
        csv | csv-roundtrip) echo Fuzz/dict/csv.dict ;;
        xlsx-package | xlsx-part) echo Fuzz/dict/xml.dict ;;
        fields | xlsx-roundtrip) echo Fuzz/dict/fields.dict ;;
        terminal-text) echo Fuzz/dict/terminal.dict ;;
        config | google-json) echo Fuzz/dict/json.dict ;;
        ofx | qif | camt | statement-csv) echo Fuzz/dict/statements.dict ;;
    esac
}

probe() {
    local dir
    dir=$(mktemp -d)
    cat >"$dir/probe.swift" <<'SWIFT'
@_cdecl("LLVMFuzzerTestOneInput")
public func probe(_ start: UnsafeRawPointer?, _ count: Int) -> CInt { 0 }
SWIFT
    local ok=0
    (cd "$dir" && swiftc -sanitize=fuzzer,address -parse-as-library probe.swift -o probe >/dev/null 2>&1 && ./probe -runs=1 >/dev/null 2>&1) || ok=1
    rm -rf "$dir"
    return $ok
}

build() {
    # FUZZ_SKIP_BUILD=1: several runs in parallel share one build (made first with --build).
    [ "${FUZZ_SKIP_BUILD:-0}" = 1 ] && return 0
    echo "fuzz: building the targets (release, -sanitize=fuzzer,address) into $SCRATCH" >&2
    # SwiftPM keeps the root package's list of source files across builds of this path dependency:
    # a new file under Sources/ is not compiled ("cannot find 'X' in scope") until the build is planned
    # again, which a newer manifest forces.
    touch Fuzz/Package.swift
    nice -n "$NICE" swift build -c release --package-path Fuzz --scratch-path "$SCRATCH" \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library >&2
}

# The fastest of three lone runs of FILE by TARGET's executable, in milliseconds.
rerun_ms() {
    local target=$1 file=$2 best=999999 ms i
    for i in 1 2 3; do
        ms=$("$BIN/fuzz-$target" -timeout="$TIMEOUT" -rss_limit_mb="$RSS_LIMIT" "$file" 2>&1 |
            sed -n 's/^Executed .* in \([0-9]*\) ms$/\1/p' | tail -1)
        [ -n "$ms" ] && [ "$ms" -lt "$best" ] && best=$ms
    done
    echo "$best"
}

# Whether a timeout input that ran fast alone still hangs when run 2000 times in one process: a hang
# that needs state or a race (FUZZING.md finding 14 ran in 11 ms alone and hung after a few hundred
# runs) must not be taken for a machine that kept the fuzzer waiting.
hangs_when_repeated() {
    local target=$1 file=$2 kind=$3
    [[ "$kind" == timeout-* ]] || return 1
    "$BIN/fuzz-$target" -runs=2000 -timeout="$TIMEOUT" -rss_limit_mb="$RSS_LIMIT" "$file" >/dev/null 2>&1 && return 1
    return 0
}

# Copies libFuzzer's artifacts for TARGET into Fuzz/regressions/TARGET; prints how many.
collect() {
    local target=$1 artifacts=$2 found=0 file kind ms
    mkdir -p "Fuzz/regressions/$target"
    for file in "$artifacts"/*; do
        [ -f "$file" ] || continue
        kind=$(basename "$file")
        case "$kind" in
            slow-unit-* | timeout-*)
                ms=$(rerun_ms "$target" "$file")
                if [ "$ms" -lt "$SLOW_MS" ] && ! hangs_when_repeated "$target" "$file" "$kind"; then
                    echo "fuzz: $target: $kind runs in $ms ms alone (it waited for a core): no hang" >&2
                    continue
                fi
                echo "fuzz: $target: $kind takes $ms ms alone, or hangs when run again and again" >&2
                ;;
            oom-*)
                # The limit is on the whole process: memory a dependency leaks a little per input
                # (ZIPFoundation's Archive(url:), FUZZING.md finding 8) adds up over millions of inputs.
                # Only an input that passes the limit alone is a blow-up; otherwise say so and go on.
                if "$BIN/fuzz-$target" -rss_limit_mb="$RSS_LIMIT" -malloc_limit_mb=500 "$file" >/dev/null 2>&1; then
                    echo "fuzz: $target: $kind stays under ${RSS_LIMIT} MB alone: memory built up across inputs" \
                        "(a leak; the heap report is in $SCRATCH/logs/$target.log), not a blow-up of this input" >&2
                    continue
                fi
                ;;
        esac
        cp "$file" "Fuzz/regressions/$target/$kind"
        echo "fuzz: $target: $kind saved as Fuzz/regressions/$target/$kind (fix the bug, commit both)" >&2
        found=$((found + 1))
    done
    rmdir "Fuzz/regressions/$target" 2>/dev/null || true
    echo "$found"
}

# Sends SIGINT to PID once it has used SECONDS of CPU (user+system): on a shared machine a fuzzer at
# low priority gets a fraction of a core, so a release run is measured in CPU time, not wall time.
stop_after_cpu() {  # PID SECONDS TARGET
    local pid=$1 budget=$2 tick used
    tick=$(getconf CLK_TCK)
    while kill -0 "$pid" 2>/dev/null; do
        used=$(awk -v t="$tick" '{ print int(($14 + $15) / t) }' "/proc/$pid/stat" 2>/dev/null || echo 0)
        echo "$used" >"$SCRATCH/logs/$3.cpu"  # the CPU used so far, for the results line
        if [ "$used" -ge "$budget" ]; then
            kill -INT "$pid" 2>/dev/null
            return 0
        fi
        sleep 10
    done
}

# run TARGET SECONDS MODE: MODE "keep" merges new inputs into the repo's corpus, "ci" leaves it alone.
run() {
    local target=$1 seconds=$2 mode=$3
    local work="$SCRATCH/work/$target" artifacts="$SCRATCH/artifacts/$target" log="$SCRATCH/logs/$target.log"
    rm -rf "$work" "$artifacts"
    mkdir -p "$work" "$artifacts" "$SCRATCH/logs" "Fuzz/corpus/$target"
    cp Fuzz/corpus/"$target"/* "$work"/ 2>/dev/null || true
    local started status=0 regressed=0 file
    started=$(date +%s)
    : >"$log"
    # The committed regression inputs, once each, under the sanitizer and the limits.
    for file in Fuzz/regressions/"$target"/*; do
        [ -f "$file" ] || continue
        if ! nice -n "$NICE" "$BIN/fuzz-$target" -timeout="$TIMEOUT" -rss_limit_mb="$RSS_LIMIT" \
            -malloc_limit_mb=500 "$file" >>"$log" 2>&1; then
            echo "fuzz: $target: regression input $file fails again; see $log" >&2
            regressed=1
        fi
    done
    local wall=$seconds
    [ -n "$CPU_SECONDS" ] && wall=$((CPU_SECONDS * 20))
    nice -n "$NICE" "$BIN/fuzz-$target" "$work" -max_total_time="$wall" -timeout="$TIMEOUT" \
        -report_slow_units=1 -rss_limit_mb="$RSS_LIMIT" -malloc_limit_mb=500 -dict="$(dict_for "$target")" \
        -print_final_stats=1 -artifact_prefix="$artifacts/" >>"$log" 2>&1 &
    local pid=$!
    rm -f "$SCRATCH/logs/$target.cpu"
    [ -n "$CPU_SECONDS" ] && stop_after_cpu "$pid" "$CPU_SECONDS" "$target" &
    wait "$pid" || status=$?
    # Stopped by stop_after_cpu: libFuzzer prints its final stats and exits 72 on SIGINT.
    [ -n "$CPU_SECONDS" ] && [ "$status" = 72 ] && status=0
    local elapsed=$(($(date +%s) - started))
    local found
    found=$(collect "$target" "$artifacts")
    local runs cov ft
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    if [ "$mode" = keep ] && [ "$found" = 0 ]; then
        # Minimise: the smallest set of inputs (greedy set cover) with the coverage of all, so the
        # committed corpus stays small.
        local merged="$SCRATCH/merged/$target"
        rm -rf "$merged" && mkdir -p "$merged"
        nice -n "$NICE" "$BIN/fuzz-$target" -set_cover_merge=1 -timeout="$TIMEOUT" -rss_limit_mb="$RSS_LIMIT" \
            "$merged" "$work" >>"$log" 2>&1
        rm -rf "Fuzz/corpus/$target" && mv "$merged" "Fuzz/corpus/$target"
    fi
    local size
    size=$(ls "Fuzz/corpus/$target" | wc -l)
    printf '%s\t%s\t%ss\t%s execs\tcov %s\tft %s\tcorpus %s\tfindings %s%s\n' \
        "$(date -u +%FT%TZ)" "$target" "$elapsed" "${runs:-?}" "${cov:-?}" "${ft:-?}" "$size" "$found" \
        "${CPU_SECONDS:+	cpu $(cat "$SCRATCH/logs/$target.cpu" 2>/dev/null || echo '?')s of ${CPU_SECONDS}s}" | tee -a "$RESULTS"
    # A stop whose only artifact was a wait for a core (above) is no failure; a stop with none is.
    if [ "$found" != 0 ] || [ "$regressed" = 1 ] || { [ "$status" != 0 ] && [ -z "$(ls "$artifacts")" ]; }; then
        echo "fuzz: $target failed (exit $status); see $log" >&2
        return 1
    fi
}

# Shrinks every committed corpus to a set cover of its own coverage.
minimise() {
    for target in "${TARGETS[@]}"; do
        local merged="$SCRATCH/merged/$target"
        rm -rf "$merged" && mkdir -p "$merged"
        nice -n "$NICE" "$BIN/fuzz-$target" -set_cover_merge=1 -timeout="$TIMEOUT" -rss_limit_mb="$RSS_LIMIT" \
            "$merged" "Fuzz/corpus/$target" >"$SCRATCH/logs/minimise-$target.log" 2>&1
        rm -rf "Fuzz/corpus/$target" && mv "$merged" "Fuzz/corpus/$target"
        echo "fuzz: $target corpus: $(ls "Fuzz/corpus/$target" | wc -l) inputs" >&2
    done
}

seed() {
    local raw="$SCRATCH/seeds"
    rm -rf "$raw" && python3 Fuzz/make-seeds.py "$raw"
    for target in "${TARGETS[@]}"; do
        local merged="$SCRATCH/merged/$target"
        rm -rf "$merged" && mkdir -p "$merged" "Fuzz/corpus/$target"
        nice -n "$NICE" "$BIN/fuzz-$target" -set_cover_merge=1 -timeout="$TIMEOUT" -rss_limit_mb="$RSS_LIMIT" \
            "$merged" "Fuzz/corpus/$target" "$raw/$target" >"$SCRATCH/logs/seed-$target.log" 2>&1
        rm -rf "Fuzz/corpus/$target" && mv "$merged" "Fuzz/corpus/$target"
        echo "fuzz: $target corpus: $(ls "Fuzz/corpus/$target" | wc -l) inputs" >&2
    done
}

mkdir -p "$SCRATCH/logs"
case "${1:-all}" in
    --probe) probe ;;
    --build) build ;;
    --seed) build && seed ;;
    --minimise) build && minimise ;;
    --ci)
        seconds=${2:-20}
        build
        failed=0
        for target in "${TARGETS[@]}"; do run "$target" "$seconds" ci || failed=1; done
        exit $failed
        ;;
    all | "")
        seconds=${2:-60}
        build
        failed=0
        for target in "${TARGETS[@]}"; do run "$target" "$seconds" keep || failed=1; done
        exit $failed
        ;;
    *)
        target=$1
        seconds=${2:-60}
        if [[ ! " ${TARGETS[*]} " =~ " $target " ]]; then
            echo "usage: scripts/fuzz.sh [${TARGETS[*]}|all] [SECONDS] | --ci [SECONDS] | --build | --seed | --probe" >&2
            exit 64
        fi
        build
        run "$target" "$seconds" keep
        ;;
esac
