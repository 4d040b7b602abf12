#!/usr/bin/env python3
"""GTP front end for Zebra (Gunnar Andersson's Othello engine), for `othello match`.

Zebra has no engine protocol, only a console game and an endgame script mode
(`scrzebra -script` solves positions exactly, so it cannot play a midgame).
This adapter keeps the game itself and, on every `genmove`, runs one short
`zebra` process on the current position:

    zebra -g POS -test -l D E W D E W -r 0 -slack 0 -b 0|1 -n 1 -e 0 -p 0

`-g POS` loads the position (64 board characters, then "Black"/"White"),
`-test` makes Zebra stop after that one move, and Zebra writes the game score,
with the move it chose, to `current.mov` in its working directory.  The
adapter reads the move from there and checks it against its own board.

Each adapter runs Zebra in a private temporary directory holding links to
`coeffs2.bin` (and `book.bin`), because Zebra writes current.gam, current.mov
and zebra.log into its working directory and two games may run at once.

Zebra is GPL; this script only drives its binary and contains none of its code.

Usage:
    zebra_gtp.py --zebra-dir "$ZEBRA_DIR" --depth 8 --exact 14 --wld 16

Passes: `othello match` never sends `play X pass`; a `play` or `genmove` for
the side that is not to move is taken as a pass by the side to move, allowed
only when that side has no legal move.  `genmove` for a side without a legal
move answers `pass` without starting Zebra.

Failures never hang: each Zebra run has a wall-clock timeout (--timeout).  A
run that gives no legal move (crash, timeout, illegal square) is retried once,
then tried at --fallback-depth (default 8), each step logged on stderr; if that
fails too the answer is a GTP error (`? zebra ...`), which the referee scores
as a forfeit and reports.
"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

BLACK, WHITE, EMPTY = 1, 2, 0
DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
COMMANDS = [
    "protocol_version", "name", "version", "known_command", "list_commands",
    "boardsize", "clear_board", "komi", "play", "genmove", "undo", "showboard",
    "time_settings", "time_left", "quit",
]


def opp(c):
    return BLACK + WHITE - c


class Board:
    """8x8 Othello board; cells[r][c], r and c from 0; row 0 is row 1 (a1 top left)."""

    def __init__(self):
        self.cells = [[EMPTY] * 8 for _ in range(8)]
        self.cells[3][3] = self.cells[4][4] = WHITE
        self.cells[3][4] = self.cells[4][3] = BLACK
        self.to_move = BLACK

    def copy(self):
        b = Board.__new__(Board)
        b.cells = [row[:] for row in self.cells]
        b.to_move = self.to_move
        return b

    def flips(self, r, c, color):
        if self.cells[r][c] != EMPTY:
            return []
        out = []
        for dr, dc in DIRS:
            rr, cc, line = r + dr, c + dc, []
            while 0 <= rr < 8 and 0 <= cc < 8 and self.cells[rr][cc] == opp(color):
                line.append((rr, cc))
                rr += dr
                cc += dc
            if line and 0 <= rr < 8 and 0 <= cc < 8 and self.cells[rr][cc] == color:
                out.extend(line)
        return out

    def legal(self, color):
        return [(r, c) for r in range(8) for c in range(8) if self.flips(r, c, color)]

    def play(self, r, c, color):
        f = self.flips(r, c, color)
        if not f:
            return False
        self.cells[r][c] = color
        for rr, cc in f:
            self.cells[rr][cc] = color
        self.to_move = opp(color)
        return True

    def game_over(self):
        return not self.legal(BLACK) and not self.legal(WHITE)

    def zebra_file(self):
        ch = {BLACK: "X", WHITE: "O", EMPTY: "-"}
        s = "".join(ch[self.cells[r][c]] for r in range(8) for c in range(8))
        return s + "\n" + ("Black" if self.to_move == BLACK else "White") + " to move\n"

    def show(self):
        ch = {BLACK: "X", WHITE: "O", EMPTY: "."}
        lines = ["  A B C D E F G H"]
        for r in range(8):
            lines.append(str(r + 1) + " " + " ".join(ch[self.cells[r][c]] for c in range(8)))
        lines.append(("Black" if self.to_move == BLACK else "White") + " to move")
        return "\n".join(lines)


def parse_color(s):
    s = s.lower()
    if s in ("b", "black", "x"):
        return BLACK
    if s in ("w", "white", "o"):
        return WHITE
    return None


def parse_vertex(s):
    s = s.lower()
    if s == "pass":
        return "pass"
    m = re.fullmatch(r"([a-h])([1-8])", s)
    if not m:
        return None
    return (int(m.group(2)) - 1, ord(m.group(1)) - ord("a"))


def vertex(rc):
    return "%s%d" % (chr(ord("A") + rc[1]), rc[0] + 1)


class Zebra:
    def __init__(self, args):
        self.args = args
        zdir = os.path.abspath(args.zebra_dir)
        self.exe = os.path.join(zdir, "zebra")
        if not os.access(self.exe, os.X_OK):
            sys.exit("zebra_gtp: no executable %s (set --zebra-dir or ZEBRA_DIR)" % self.exe)
        self.work = tempfile.mkdtemp(prefix="zebra_gtp.")
        needed = ["coeffs2.bin"] + (["book.bin"] if args.book else [])
        for name in needed:
            src = os.path.realpath(os.path.join(zdir, name))
            if not os.path.isfile(src):
                sys.exit("zebra_gtp: %s missing in %s" % (name, zdir))
            os.symlink(src, os.path.join(self.work, name))
        self.calls = 0
        self.total = 0.0

    def close(self):
        shutil.rmtree(self.work, ignore_errors=True)

    def log(self, msg):
        if self.args.verbose:
            print("zebra_gtp: " + msg, file=sys.stderr, flush=True)

    def command(self, depth):
        level = [str(depth), str(self.args.exact), str(self.args.wld)]
        return [self.exe, "-l"] + level + level + [
            "-g", "pos.gam", "-test", "-r", "0", "-slack", "0",
            "-b", "1" if self.args.book else "0", "-n", str(self.args.threads),
            "-h", str(self.args.hash_bits), "-e", "0", "-p", "0", "-w", "0",
        ]

    def move(self, board, depth):
        """Zebra's move for board.to_move at midgame depth `depth`, or (None, why)."""
        for name in ("current.mov", "current.gam", "zebra.log", "zebra.err"):
            try:
                os.unlink(os.path.join(self.work, name))
            except FileNotFoundError:
                pass
        with open(os.path.join(self.work, "pos.gam"), "w") as f:
            f.write(board.zebra_file())
        start = time.monotonic()
        try:
            proc = subprocess.run(self.command(depth), cwd=self.work, stdin=subprocess.DEVNULL,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  timeout=self.args.timeout)
        except subprocess.TimeoutExpired:
            return None, "timed out after %ss" % self.args.timeout
        except OSError as e:
            return None, "could not run: %s" % e
        took = time.monotonic() - start
        self.calls += 1
        self.total += took
        try:
            with open(os.path.join(self.work, "current.mov")) as f:
                score = f.read()
        except OSError:
            score = ""
        squares = re.findall(r"\b([a-h][1-8])\b", score)
        self.log("%.3fs rc=%d move=%s" % (took, proc.returncode, squares[-1:] or "-"))
        if proc.returncode != 0 or not squares:
            tail = proc.stdout.decode(errors="replace").strip().splitlines()[-3:]
            return None, "rc=%d, no move (%s)" % (proc.returncode, " | ".join(tail))
        rc = parse_vertex(squares[-1])
        if rc is None or not board.flips(rc[0], rc[1], board.to_move):
            return None, "illegal move %s" % squares[-1]
        return rc, None


def main():
    ap = argparse.ArgumentParser(description="GTP front end for Zebra (one zebra run per move)")
    ap.add_argument("--zebra-dir", default=os.environ.get("ZEBRA_DIR", "."),
                    help="directory with zebra and coeffs2.bin (default $ZEBRA_DIR, else .)")
    ap.add_argument("--depth", type=int, default=8, help="midgame search depth")
    ap.add_argument("--exact", type=int, default=14, help="empties at which Zebra solves exactly")
    ap.add_argument("--wld", type=int, default=16, help="empties at which Zebra solves win/loss/draw")
    ap.add_argument("--book", type=int, default=0, choices=[0, 1],
                    help="use Zebra's book.bin (needs one; none is in the public sources)")
    ap.add_argument("--threads", type=int, default=1, help="Zebra -n (endgame threads)")
    ap.add_argument("--hash-bits", type=int, default=22, help="Zebra -h")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per Zebra run")
    ap.add_argument("--fallback-depth", type=int, default=8,
                    help="depth of a last try after two failed runs (0: none; then a GTP error)")
    ap.add_argument("--verbose", action="store_true", help="log each Zebra run on stderr")
    args = ap.parse_args()

    zebra = Zebra(args)
    # A referee that ends us with SIGTERM/SIGHUP still gets the temp dir removed.
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda *_: sys.exit(1))
    board = Board()
    history = []

    def out(ok, id_, text=""):
        sys.stdout.write(("=" if ok else "?") + id_ + (" " + text if text else "") + "\n\n")
        sys.stdout.flush()

    def implicit_pass(color):
        """Make `color` the side to move if the side to move can only pass."""
        if board.to_move == color:
            return True
        if board.legal(board.to_move):
            return False
        history.append(board.copy())
        board.to_move = color
        return True

    try:
        for line in sys.stdin:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            words = line.split()
            id_ = ""
            if words[0].isdigit():
                id_ = words.pop(0)
                if not words:
                    continue
            cmd, rest = words[0].lower(), words[1:]
            if cmd == "protocol_version":
                out(True, id_, "2")
            elif cmd == "name":
                out(True, id_, "Zebra")
            elif cmd == "version":
                out(True, id_, "%d/%d/%d%s" % (args.depth, args.exact, args.wld,
                                               " book" if args.book else ""))
            elif cmd == "known_command":
                out(True, id_, "true" if rest and rest[0] in COMMANDS else "false")
            elif cmd == "list_commands":
                out(True, id_, "\n".join(COMMANDS))
            elif cmd == "boardsize":
                if rest == ["8"]:
                    out(True, id_)
                else:
                    out(False, id_, "unacceptable size")
            elif cmd == "clear_board":
                board = Board()
                history = []
                out(True, id_)
            elif cmd in ("komi", "time_settings", "time_left"):
                out(True, id_)
            elif cmd == "play":
                color = parse_color(rest[0]) if len(rest) == 2 else None
                where = parse_vertex(rest[1]) if len(rest) == 2 else None
                if color is None or where is None:
                    out(False, id_, "syntax error")
                    continue
                saved = (board.copy(), len(history))
                if not implicit_pass(color):
                    out(False, id_, "illegal move (not %s's turn)" % rest[0])
                    continue
                if where == "pass":
                    if board.legal(color):
                        board = saved[0]
                        del history[saved[1]:]
                        out(False, id_, "illegal move (pass with moves)")
                        continue
                    history.append(board.copy())
                    board.to_move = opp(color)
                    out(True, id_)
                    continue
                before = board.copy()
                if not board.play(where[0], where[1], color):
                    board = saved[0]
                    del history[saved[1]:]
                    out(False, id_, "illegal move")
                    continue
                history.append(before)
                out(True, id_)
            elif cmd == "genmove":
                color = parse_color(rest[0]) if rest else None
                if color is None:
                    out(False, id_, "syntax error")
                    continue
                if not implicit_pass(color):
                    out(False, id_, "not %s's turn" % rest[0])
                    continue
                if not board.legal(color):
                    history.append(board.copy())
                    board.to_move = opp(color)
                    out(True, id_, "pass")
                    continue
                rc, why = zebra.move(board, args.depth)
                if rc is None:
                    print("zebra_gtp: retrying: " + why, file=sys.stderr, flush=True)
                    rc, why = zebra.move(board, args.depth)
                if rc is None and 0 < args.fallback_depth < args.depth:
                    # Seen once, on an unreachable hand-made position: zebra -g
                    # crashed in its midgame search at depth >= 10 but not below.
                    print("zebra_gtp: falling back to depth %d: %s" % (args.fallback_depth, why),
                          file=sys.stderr, flush=True)
                    rc, why = zebra.move(board, args.fallback_depth)
                if rc is None:
                    print("zebra_gtp: " + why, file=sys.stderr, flush=True)
                    out(False, id_, "zebra " + why)
                    continue
                history.append(board.copy())
                board.play(rc[0], rc[1], color)
                out(True, id_, vertex(rc))
            elif cmd == "undo":
                if history:
                    board = history.pop()
                    out(True, id_)
                else:
                    out(False, id_, "cannot undo")
            elif cmd == "showboard":
                out(True, id_, "\n" + board.show())
            elif cmd == "quit":
                out(True, id_)
                break
            else:
                out(False, id_, "unknown command")
    finally:
        if zebra.calls:
            zebra.log("%d runs, mean %.3fs" % (zebra.calls, zebra.total / zebra.calls))
        zebra.close()


if __name__ == "__main__":
    main()
