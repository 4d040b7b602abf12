#!/bin/sh
# Plays properly, but first starts a process in a session of its own (so outside its process
# group), which must not outlive the game. The sleep's length marks it for the test.
setsid sleep "${SLEEP_FOR:-61.75}" </dev/null >/dev/null 2>&1 &
exec "$OTHELLO" engine --color "$OTHELLO_COLOR" --depth 1
