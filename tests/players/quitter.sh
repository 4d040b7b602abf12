#!/bin/sh
# Plays three good moves, then leaves in the middle of the game: the whole program (this
# script and the engine it runs) stops at once.
"$OTHELLO" engine --color "$OTHELLO_COLOR" --depth 1 | {
    n=0
    while read -r line; do
        echo "$line"
        n=$((n + 1))
        [ "$n" -ge 3 ] && kill 0
    done
}
