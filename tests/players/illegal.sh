#!/bin/sh
# Plays the corner A1 as its first move: never legal at the start.
c=$OTHELLO_COLOR
[ "$c" = B ] && read -r line
echo "($c A 1)"
cat >/dev/null
