#!/bin/sh
# A GTP engine that takes a while to start, as some real ones do: the other side's clock must
# not run meanwhile.
sleep "${START_AFTER:-1.5}"
exec "$OTHELLO" gtp --depth 1
