#!/usr/bin/env bash
# Makes books/8x8.book, the book that ships with the program: lines from the start explored
# within 3 discs of the best to 8 plies, then a few lines from each opening of
# openings/8x8.txt (the openings the strength matches start from), then the main line of every
# named opening (src/opening/names.txt) kept in the book to 20 plies below it, then Takizawa's
# line of perfect play (a draw) to where it is solved, each move of it that ties the best
# explored. Every step is resumable: a step that finished leaves a mark beside the book, and a
# stopped one goes on when run again. Usage: books/make.sh [OTHELLO] [THREADS]
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
# How many plies the book's main line below MOVES reaches: its first move at each position,
# while that move leads to a position of the book.
main_line() {
    local moves=$1 first
    while first=$("$othello" book show "$book" "$moves" | sed -n 4p) &&
        [[ -n $first && $first != *"out of the book"* ]]; do
        moves+=${first%% *}
    done
    echo $((${#moves} / 2))
}
# Each named opening's main line, kept in the book to ply 20: where it leaves the book before,
# the moves below it that tie the best are played, a few games at a time, until it does not
# (ten rounds at most). Learning below one opening moves the values, and so the main lines, of
# others: a pass over them all says whether one was short.
named_pass() {
    local pass=$1 short=0 moves name round
    while read -r moves name; do
        [[ $moves == \#* || -z $moves ]] && continue
        # The opening's own moves, in the book whatever their values.
        learn "named line $moves" --moves "$moves" --deviation 0
        round=0
        while ((round < 10 && $(main_line "$moves") < 20)); do
            round=$((round + 1)) short=1
            learn "named $pass $moves $round" --moves "$moves" --margin 0 --games 4 \
                --deviation $((20 - ${#moves} / 2 > 1 ? 20 - ${#moves} / 2 : 1))
        done
    done <src/opening/names.txt
    ((short))
}
named_pass 1 || true
# Takizawa's line ("Othello is Solved", 2023): to its 40th move, then the moves that tie the
# best below its 20th, 8th and 12th.
takizawa=f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6a7g5e3b4c8g6g4c2e8d1f7e2g3h4f1e1f2g1b1f8
learn "takizawa line" --moves "$takizawa" --deviation 0
learn "takizawa 20" --moves "${takizawa:0:40}" --deviation 20 --margin 0
learn "takizawa 8" --moves "${takizawa:0:16}" --deviation 32 --margin 0 \
    --games 400
learn "takizawa 12" --moves "${takizawa:0:24}" --deviation 28 --margin 0 \
    --games 400
# Then over the named openings again, until a pass finds none short (five passes at most).
for pass in 2 3 4 5; do
    named_pass $pass || break
done
rm -r "$marks"
ls -l "$book"
