#!/usr/bin/env bash
# Solves every position string of a file (one a line; '#' lines are comments) with one thread
# and prints each one's nodes and seconds, then the totals: node counts repeat exactly, so a
# change to the solver shows in them even on a noisy machine.
#   bench/solve-set.sh FILE [solve options, such as --rules simple --hash-mb 4]
#   environment: OTHELLO (our binary, already built: skips cargo)
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: bench/solve-set.sh FILE [solve options]" >&2; exit 2; }
FILE=$(realpath "$1")
shift
if [ -n "${OTHELLO:-}" ]; then
    OURS=$(realpath "$OTHELLO")
else
    cd "$(dirname "$0")/.."
    cargo build --release --quiet
    OURS=${CARGO_TARGET_DIR:-target}/release/othello
fi
total_nodes=0
total_seconds=0
while IFS= read -r position; do
    case $position in '' | '#'*) continue ;; esac
    line=$("$OURS" solve --position "$position" --threads 1 "$@" | grep '^Nodes:')
    # "Nodes: N in S s (R nodes/s)"
    read -r _ nodes _ seconds _ <<<"$line"
    echo "$position $nodes nodes $seconds s"
    total_nodes=$((total_nodes + nodes))
    total_seconds=$(awk -v a="$total_seconds" -v b="$seconds" 'BEGIN { printf "%.3f", a + b }')
done <"$FILE"
echo "# total $total_nodes nodes in $total_seconds s"
