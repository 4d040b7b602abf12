#!/bin/sh
# Plays a legal square under the other colour's name.
c=$OTHELLO_COLOR
[ "$c" = B ] && { read -r line; echo "(W C 3)"; } || echo "(B D 3)"
cat >/dev/null
