#!/bin/sh
# Moves second, and before its turn comes writes thousands of lines nobody asked for, then
# waits: the referee must keep its memory bounded and forfeit it when its turn comes.
i=0
while [ "$i" -lt 5000 ]; do
    echo "# out of turn $i"
    i=$((i + 1))
done
sleep 30
