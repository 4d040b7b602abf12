#!/bin/sh
# Plays properly, but first starts a process that leaves every tie to this program: a session
# of its own, its environment cleared, its parent gone at once (so it is an orphan). It must not
# outlive the game. The sleep's length marks it for the test.
( setsid env -i sleep "${SLEEP_FOR:-62.75}" </dev/null >/dev/null 2>&1 & )
exec "$OTHELLO" engine --color "$OTHELLO_COLOR" --depth 1
