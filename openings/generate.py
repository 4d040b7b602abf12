#!/usr/bin/env python3
"""Writes 8x8.txt: distinct random opening lines of 6 plies from the standard start, in
standard notation, no two the same position up to the board's symmetries. Run from this folder:
python3 generate.py > 8x8.txt"""
import random

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def flips(board, r, c, me):
    out = []
    for dr, dc in DIRS:
        line, rr, cc = [], r + dr, c + dc
        while 0 <= rr < 8 and 0 <= cc < 8 and board[rr][cc] == 1 - me:
            line.append((rr, cc))
            rr, cc = rr + dr, cc + dc
        if line and 0 <= rr < 8 and 0 <= cc < 8 and board[rr][cc] == me:
            out += line
    return out


def symmetries(board):
    b = [tuple(row) for row in board]
    for _ in range(4):
        b = [tuple(b[7 - c][r] for c in range(8)) for r in range(8)]
        yield tuple(b)
        yield tuple(tuple(row[::-1]) for row in b)


def main(count=40, plies=6, seed=2026):
    rng = random.Random(seed)
    seen, lines = set(), []
    while len(lines) < count:
        board = [[None] * 8 for _ in range(8)]
        board[3][3] = board[4][4] = 1  # white (1) on d4 and e5
        board[3][4] = board[4][3] = 0  # black (0) on e4 and d5; black moves first
        me, text = 0, ""
        for _ in range(plies):
            moves = [(r, c) for r in range(8) for c in range(8)
                     if board[r][c] is None and flips(board, r, c, me)]
            r, c = rng.choice(moves)
            for rr, cc in flips(board, r, c, me) + [(r, c)]:
                board[rr][cc] = me
            text += "abcdefgh"[c] + str(r + 1)
            me = 1 - me
        key = min(str(s) for s in symmetries(board))
        if key not in seen:
            seen.add(key)
            lines.append(text)
    print("# %d random %d-ply openings, distinct up to symmetry (openings/generate.py)" % (count, plies))
    print("\n".join(lines))


main()
