#!/usr/bin/env bash
# Makes books/8x8.book, the book that ships with the program: lines from the start explored
# within 3 discs of the best to 8 plies, then a few lines from each opening of
# openings/8x8.txt (the openings the strength matches start from). Every step is resumable:
# a step that finished leaves a mark beside the book, and a stopped one goes on when run
# again. Usage: books/make.sh [OTHELLO] [THREADS]
set -euo pipefail
cd "$(dirname "$0")/.."
othello=${1:-target/release/othello}
threads=${2:-$(nproc)}
book=books/8x8.book
marks=books/.make
mkdir -p "$marks"
learn() { # mark, then learn's options
    local mark=$1
    shift
    [[ -e $marks/$mark ]] && return
    "$othello" book learn "$book" --depth 10 --exact-empties 18 --threads "$threads" "$@"
    touch "$marks/$mark"
}
learn start --deviation 8 --margin 3 --games 300
while read -r line; do
    [[ $line == \#* || -z $line ]] && continue
    learn "$line" --moves "$line" --deviation 3 --margin 2 --games 6
done <openings/8x8.txt
rm -r "$marks"
ls -l "$book"
