#!/usr/bin/env bash
# The bench node signature: the total nodes of `othello bench --threads 1`, which repeats exactly
# for a given search and weights, checked against bench/signature.txt. A change that was meant to
# leave the search alone (a reorganisation, a speed-up) must leave it as it is; a change that moves
# it changes what the engine searches, and says so.
#   bench/signature.sh [BINARY]   without BINARY: `cargo build --release` and its binary
# Prints the expected and the measured count; exits 1 when they differ, 2 when bench gave no total.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -ge 1 ]; then
    bin=$(realpath "$1")
    [ -x "$bin" ] || { echo "signature.sh: not an executable: $1" >&2; exit 2; }
fi
cd "$here/.."
if [ -z "${bin:-}" ]; then
    # One thread in a debug build takes minutes; the release build takes seconds.
    cargo build --release --quiet
    target=${CARGO_TARGET_DIR:-target}
    bin=$target/release/othello
fi
expected=$(grep -v '^#' bench/signature.txt | tr -d '[:space:]')
# The last line of bench's output: "# total NODES nodes in S s: K knodes/s".
measured=$("$bin" bench --threads 1 | awk '$1 == "#" && $2 == "total" {print $3}')
[ -n "$measured" ] || { echo "signature.sh: no '# total' line in the output of $bin bench" >&2; exit 2; }
echo "expected: $expected nodes"
echo "measured: $measured nodes"
if [ "$measured" != "$expected" ]; then
    echo "signature.sh: the bench node signature moved. A search change that moves it must say so in" >&2
    echo "its commit message (with the new count) and update bench/signature.txt." >&2
    exit 1
fi
