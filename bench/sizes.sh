#!/usr/bin/env bash
# Compares builds on boards of every bit-set width: perft from the start and a search of the
# start, each binary in turn (A, B, A, B, ...) for ROUNDS rounds, and prints per case and binary
# the median CPU seconds (user) and the ratio to the first binary. Leaf and node counts must be
# the same for every binary; a WARNING line says when they are not.
#   bench/sizes.sh BINARY BINARY...   environment: ROUNDS (5)
# The cases: 8x8 (one word, the SIMD kernels), 9x9, 10x10, 11x11 and 4x26 (two words), 12x12 and
# 16x16 (four words), 26x26 (eleven words) and 6x20 (two words, long rows).
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: bench/sizes.sh BINARY BINARY... (see the comment at its top)" >&2; exit 2; }
bins=()
for b in "$@"; do
    [ -x "$b" ] || { echo "sizes.sh: not an executable: $b" >&2; exit 2; }
    bins+=("$(realpath "$b")")
done
ROUNDS=${ROUNDS:-5}
TIMEFORMAT=%U
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# "NAME|ARGS": perft cases count leaves, search cases (bench) count nodes.
cases=(
    "perft-8x8-d11|perft --depth 11"
    "perft-9x9-d10|perft --rows 9 --cols 9 --depth 10"
    "perft-10x10-d10|perft --rows 10 --cols 10 --depth 10"
    "perft-11x11-d10|perft --rows 11 --cols 11 --depth 10"
    "perft-4x26-d11|perft --rows 4 --cols 26 --depth 11"
    "perft-6x20-d10|perft --rows 6 --cols 20 --depth 10"
    "perft-12x12-d10|perft --rows 12 --cols 12 --depth 10"
    "perft-16x16-d9|perft --rows 16 --cols 16 --depth 9"
    "perft-26x26-d9|perft --rows 26 --cols 26 --depth 9"
)
# The start of a square board of side N as a position string, for `bench --positions`.
start_of() {
    local n=$1 r c row rows=()
    for ((r = 0; r < n; r++)); do
        row=""
        for ((c = 0; c < n; c++)); do
            if { [ $r -eq $((n / 2 - 1)) ] && [ $c -eq $((n / 2 - 1)) ]; } ||
                { [ $r -eq $((n / 2)) ] && [ $c -eq $((n / 2)) ]; }; then
                row+="w"
            elif { [ $r -eq $((n / 2 - 1)) ] && [ $c -eq $((n / 2)) ]; } ||
                { [ $r -eq $((n / 2)) ] && [ $c -eq $((n / 2 - 1)) ]; }; then
                row+="b"
            else
                row+="-"
            fi
        done
        rows+=("$row")
    done
    echo "(b ${rows[*]})"
}
start_of 10 >"$work/10x10.txt"
start_of 26 >"$work/26x26.txt"
cases+=(
    "search-10x10-d14|bench --threads 1 --positions $work/10x10.txt --depth 14"
    "search-26x26-d11|bench --threads 1 --positions $work/26x26.txt --depth 11"
)

# The count a run reports: perft's last line is "DEPTH LEAVES SECONDS", bench's "# total N nodes ...".
count_of() { awk '/^# total/ {print $3; exit} /^[0-9]+ [0-9]+ / {n = $2} END {if (n) print n}' "$1"; }

for ((round = 1; round <= ROUNDS; round++)); do
    for case in "${cases[@]}"; do
        name=${case%%|*}
        read -r -a args <<<"${case#*|}"
        for i in "${!bins[@]}"; do
            { time "${bins[$i]}" "${args[@]}" >"$work/out" 2>&1; } 2>"$work/time"
            echo "$name $i $(cat "$work/time") $(count_of "$work/out")" >>"$work/runs"
        done
    done
done

printf '%-18s' case
for i in "${!bins[@]}"; do printf '  %-22s' "$(basename "${bins[$i]}")"; done
echo
for case in "${cases[@]}"; do
    name=${case%%|*}
    printf '%-18s' "$name"
    first=
    for i in "${!bins[@]}"; do
        median=$(awk -v n="$name" -v i="$i" '$1 == n && $2 == i {print $3}' "$work/runs" | sort -n |
            awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}')
        [ -n "$first" ] || first=$median
        printf '  %6.3f s (x%5.2f)      ' "$median" "$(awk -v a="$median" -v b="$first" 'BEGIN {print (b > 0 ? a / b : 0)}')"
    done
    echo
    counts=$(awk -v n="$name" '$1 == n {print $4}' "$work/runs" | sort -u | wc -l)
    [ "$counts" -eq 1 ] || echo "WARNING: $name: the builds report different counts"
done
