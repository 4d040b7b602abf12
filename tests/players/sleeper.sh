#!/bin/sh
# Thinks far past any time limit, in a child process of its own, which the referee must end
# too. The sleep's length marks it so a test can look for it afterwards.
c=$OTHELLO_COLOR
[ "$c" = B ] && read -r line
sleep "${SLEEP_FOR:-30}"
echo "($c D 3)"
