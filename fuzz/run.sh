#!/usr/bin/env bash
# Runs each fuzz target for SECONDS (default 600) and prints one line per target: the runs
# libFuzzer executed, the coverage it reached, and the crash it found, if any. Exits 1 if a
# target crashed (its input is under fuzz/artifacts/TARGET/).
#
#   fuzz/run.sh [SECONDS] [TARGET...]      (all targets when none is named)
#
# Each target's whole output is kept in fuzz/logs/TARGET.log; extra libFuzzer options can be
# given in FUZZ_ARGS (e.g. FUZZ_ARGS=-jobs=2). The corpus is seeded by fuzz/seed.py first.
set -u
cd "$(dirname "$0")"
seconds=600
if [[ $# -gt 0 && $1 =~ ^[0-9]+$ ]]; then
    seconds=$1
    shift
fi
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
    mapfile -t targets < <(cargo +nightly fuzz list)
fi
[[ -d corpus ]] || python3 seed.py
mkdir -p logs
failed=0
for target in "${targets[@]}"; do
    log=logs/$target.log
    # -O: optimised without debug assertions, for the most runs a second; -timeout: an input
    # that takes over 10 s counts as a hang.
    cargo +nightly fuzz run -O "$target" -- -max_total_time="$seconds" -timeout=10 \
        -print_final_stats=1 ${FUZZ_ARGS:-} >"$log" 2>&1
    status=$?
    done_line=$(grep -a '^Done [0-9]* runs' "$log" | tail -n 1)
    stats=$(grep -a -o 'cov: [0-9]* ft: [0-9]* corp: [0-9]*' "$log" | tail -n 1)
    if [[ $status -eq 0 && -n $done_line ]]; then
        echo "$target: ${done_line,}; $stats; crashes: 0"
    else
        failed=1
        why=$(grep -a -m 1 -E "panicked at|^==[0-9]+== ?ERROR|ERROR: libFuzzer" "$log")
        artifact=$(grep -a -o 'Test unit written to [^ ]*' "$log" | tail -n 1)
        runs=$(grep -a -o '^#[0-9]*' "$log" | tail -n 1)
        echo "$target: CRASHED after ${runs:-#?} runs; $stats; ${why:-exit $status}; ${artifact:-see $log}"
    fi
done
exit $failed
