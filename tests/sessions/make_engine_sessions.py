#!/usr/bin/env python3
"""Writes the engine_*.txt transcripts: `othello engine` (ARGS from the first line) against a
second `othello engine` (depth 1 unless CASES says otherwise), relayed line by line. Lines starting with `> ` are what the
engine under test wrote, `< ` what it read. Moves alternate strictly (a pass is a move), so the
relay needs no rules. Both sides play from the built-in 8x8 book, so a new book means writing these again. Run from the
repository root after `cargo build --release`:
python3 tests/sessions/make_engine_sessions.py"""
import shlex
import subprocess

OTHELLO = "target/release/othello"
# name: (arguments of the engine under test, depth of its opponent)
CASES = {
    "engine_8x8_white": ("--color W --depth 3 --eval classic", 1),
    "engine_8x8_black": ("--color B --depth 3 --eval classic", 1),
    "engine_4x4_passes": ("--color B --depth 4 --rows 4 --cols 4 --eval classic", 1),
    "engine_6x6_misere": ("--color W --depth 2 --rows 6 --cols 6 --misere --eval classic", 1),
    "engine_8x8_opening": ("--color B --depth 2 --opening f5d6c3 --eval classic", 1),
    "engine_8x8_own_pass": ("--color B --depth 1 --opening c4c3 --eval classic", 5),
}


def relay(args, opponent_depth):
    argv = shlex.split(args)
    color = argv[argv.index("--color") + 1]
    other = "B" if color == "W" else "W"
    size = []
    for flag in ("--rows", "--cols"):
        if flag in argv:
            size += [flag, argv[argv.index(flag) + 1]]
    # The opponent evaluates as the engine under test does (--eval classic keeps these games
    # the same when the built-in weights are retrained).
    extra = [a for a in ("--misere",) if a in argv] + ["--eval", argv[argv.index("--eval") + 1]]
    if "--opening" in argv:
        extra += ["--opening", argv[argv.index("--opening") + 1]]
    me = subprocess.Popen([OTHELLO, "engine"] + argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    them = subprocess.Popen([OTHELLO, "engine", "--color", other, "--depth", str(opponent_depth)] + size + extra,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    opening = argv[argv.index("--opening") + 1] if "--opening" in argv else ""
    plies = len(opening) // 2
    # White moves first; after the opening, the side to move alternates.
    mover = ["W", "B"][plies % 2]
    lines = ["# othello engine " + args]
    while True:
        src, dst, tag = (me, them, "> ") if mover == color else (them, me, "< ")
        line = src.stdout.readline()
        if not line:
            break
        lines.append(tag + line.strip())
        try:
            dst.stdin.write(line)
            dst.stdin.flush()
        except BrokenPipeError:
            pass
        mover = "B" if mover == "W" else "W"
    for p in (me, them):
        p.stdin.close()
        p.wait()
    lines.append("# exit %d" % me.returncode)
    return "\n".join(lines) + "\n"


for name, (args, opponent_depth) in CASES.items():
    with open("tests/sessions/%s.txt" % name, "w") as f:
        f.write(relay(args, opponent_depth))
