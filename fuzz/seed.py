#!/usr/bin/env python3
"""Seeds corpus/TARGET/ from the repository's own examples (transcripts, sessions, saved
games, OBF files, the perfect-play cache and journals, the weights), so that each fuzzer starts
from inputs the program already accepts. Run from anywhere; writes only under fuzz/corpus/."""
import glob
import hashlib
import os
import re
import struct

FUZZ = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(FUZZ)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def files(*patterns):
    for pattern in patterns:
        yield from sorted(glob.glob(os.path.join(ROOT, pattern)))


def put(target, data):
    folder = os.path.join(FUZZ, "corpus", target)
    os.makedirs(folder, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def texts():
    """Every text file of the tests and docs, for the notations found inside them."""
    for path in files("tests/**/*", "docs/*.md", "README.md"):
        if os.path.isfile(path) and os.path.getsize(path) < 300_000:
            try:
                yield read(path).decode()
            except UnicodeDecodeError:
                pass


def main():
    # Sessions: the first byte picks the rules (and for the line protocol the program's side).
    for path in files("tests/transcripts/*.in"):
        for choice in (0, 1, 4, 8):
            put("line", bytes([choice]) + read(path))
    for path in files("tests/sessions/gtp_*.in"):
        put("gtp", b"\0" + read(path))
    for path in files("tests/sessions/nboard_*.in"):
        data = read(path)
        put("nboard", b"\0" + data)
        for line in data.decode().splitlines():
            if line.startswith("set game "):
                put("ggf", line[len("set game "):].encode())
    boards = [(4, 4), (3, 5), (6, 6), (8, 8), (5, 7), (10, 10), (12, 9), (26, 26)]
    for path in files("tests/sessions/engine_*.txt"):
        text = read(path).decode()
        args = text.splitlines()[0].split()
        value = lambda flag, default: args[args.index(flag) + 1] if flag in args else default
        shape = (int(value("--rows", 8)), int(value("--cols", 8)))
        choice = boards.index(shape) if shape in boards else 3
        # The tournament's B is the standard White: the program then plays White.
        choice |= 64 if value("--color", "B") == "B" else 0
        choice |= 32 if "--misere" in args else 0
        moves = [l[2:] for l in text.splitlines() if l.startswith("< ")]
        put("triples", bytes([choice]) + "\n".join(moves).encode() + b"\n")

    # Notations found in the tests and docs.
    for text in texts():
        for found in re.findall(r"\([bwBW](?: [-bwBW]{3,26}){3,26}\)", text):
            put("position", found.encode())
        for found in re.findall(r"--moves\s+(\S+)", text):
            put("moves", found.encode())
    for path in files("tests/play/*.in", "tests/play/*.game"):
        data = read(path)
        for line in data.decode().splitlines():
            if re.fullmatch(r"(?:[a-zA-Z]\d{1,2}|pa|pass|[ ,])+", line):
                put("moves", line.encode())
        if path.endswith(".game"):
            for choice in (0, 2):
                put("play_save", bytes([choice]) + data)
    for path in files("tests/data/*.obf"):
        lines = read(path).decode().splitlines()
        put("obf", "\n".join(lines[:3]).encode())
        for line in lines[:10]:
            put("obf", line.encode())
    put("play_save", b"\0(b -------- -------- -------- ---wb--- ---bw--- -------- -------- --------)\nf5 d6\nc3\n")
    put("play_save", b"\x01f5d6c3d3c4\n")

    # Files: the cache and journals that the perfect-play table is made from.
    cache = read(os.path.join(ROOT, "data/perfect-play-cache.txt")).decode().splitlines(True)
    put("cache", "".join(cache[:40]).encode())
    for line in cache[2:40]:
        put("cache", (cache[0] + line).encode())
        put("journal", b"\0" + line.encode())
    journal = os.path.join(ROOT, "data/perfect-play-journals/6x6-full-normal-anywhere.txt")
    if os.path.exists(journal):
        lines = read(journal).decode().splitlines(True)
        # 6x6 (second board), place-anywhere; the same lines as the sealed part.
        put("journal", b"\x09" + "".join(lines[:40]).encode())
        put("journal", b"\x29" + "".join(lines[:40]).encode())
    put("journal", b"\0board 4x4 full normal standard\nrun nodes=100 seconds=0.5\n"
        b"(b ---- -wb- -bw- ----) -2 2\nrun nodes=20 seconds=0.1 solved\n")
    # A result of the 4x4 folder the target merges: job 0 of round 1, its check line made by
    # the target (first byte 1) or missing (0).
    result = ("# othello: the result of one job of a split solve.\nformat: othello-solve-result 2\n"
              "program: othello 0.1.0\nround: 1\njob: 0\nposition: (w wb-- bbb- -bw- ----)\n"
              "window: -17 17\nscore: 8\nbound: exact\nbest: c1\nnodes: 545\nseconds: 0.013\n")
    put("result", b"\1" + result.encode())
    put("result", b"\0" + result.encode())
    # Weights: the head of a real file (with a checksum added by the target), and a file cut
    # short; the whole files are too large to mutate usefully.
    weights = read(os.path.join(ROOT, "weights/6x6.weights"))
    put("weights", b"\1" + weights[:2000])
    put("weights", b"\0" + weights[:200] + weights[-8:])
    # Training data: 8x8 and 4x4 headers with a start position each, and a torn record.
    for rows, cols in [(8, 8), (4, 4), (5, 7)]:
        side = (rows * cols + 7) // 8
        header = b"OTHELLOD" + struct.pack("<I", 1) + bytes([rows, cols, 0, 0, 0])
        record = struct.pack("<I", 7) + bytes([0x10] * side) + bytes([0x08] * side) + b"\0" + struct.pack("<h", -4) + b"\1"
        put("train_data", header + record + record[:5])

    # Edax's book: the header, the start with its four moves linked, and the position after f5
    # (in Edax's unique orientation) with a leaf; the same cut short.
    header = struct.pack("<IIBBhBBBBBBiiiiii", 0x45444158, 0x424F4F4B, 4, 6, 2024, 1, 2, 3, 4, 5, 0, 21, 24, 2, 1, 0, 2)
    start = struct.pack("<QQIIIIhhhBB", 0x0000000810000000, 0x0000001008000000, 0, 0, 0, 1, -1, -3, 1, 4, 21)
    start += bytes([1, 19, 1, 26, 1, 37, 1, 44, 0x81, 65])
    after = struct.pack("<QQIIIIhhhBB", 0x0000000008000000, 0x0000003810000000, 0, 0, 0, 1, 1, -1, 3, 0, 21)
    after += bytes([1, 29])
    put("edax_book", header + start + after)
    put("edax_book", header + start[:30])


main()
