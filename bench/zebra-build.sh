#!/usr/bin/env bash
# Builds Zebra (Gunnar Andersson's engine, GPL, github.com/hoshir/zebra) from a local copy of its
# source, with its real evaluation (data/coeffs2.bin) beside the binary, and prints the folder
# that holds both (bench/zebra_gtp.py's --zebra-dir).
#   bench/zebra-build.sh      environment: ZEBRA_SRC (a work tree) or ZEBRA_GIT (a git dir)
# The source comes from $ZEBRA_SRC, ../zebra, or a bare git mirror ($ZEBRA_GIT, else
# /work/.mirror/*zebra*). Exit status 3, with the reason on stderr, when there is none (or no
# compiler): callers treat that as "skipped". Nothing of Zebra goes into the repository: it is
# built under target/zebra/ ($CARGO_TARGET_DIR/zebra when that is set).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
case $TARGET in /*) ;; *) TARGET=$ROOT/$TARGET ;; esac
BUILD=$TARGET/zebra

skip() { echo "$*" >&2; exit 3; }
die() { echo "zebra-build.sh: $*" >&2; exit 1; }

SRC_TREE= SRC_GIT=
if [ -n "${ZEBRA_SRC:-}" ]; then
    [ -f "$ZEBRA_SRC/Makefile" ] || skip "ZEBRA_SRC=$ZEBRA_SRC has no Makefile"
    SRC_TREE=$ZEBRA_SRC
elif [ -f "$ROOT/../zebra/src/zebra.c" ]; then
    SRC_TREE=$ROOT/../zebra
else
    for d in ${ZEBRA_GIT:-} /work/.mirror/*zebra*/repo /work/.mirror/*zebra*; do
        if [ -n "$d" ] && git --git-dir="$d" rev-parse --verify -q HEAD >/dev/null 2>&1; then
            SRC_GIT=$d
            break
        fi
    done
    [ -n "$SRC_GIT" ] || skip "no Zebra source (set ZEBRA_SRC to a checkout of github.com/hoshir/zebra, or ZEBRA_GIT to a git dir of it)"
fi
command -v make >/dev/null || skip "make is not installed (needed to build Zebra)"
command -v gcc >/dev/null || skip "gcc is not installed (needed to build Zebra)"

if [ -n "$SRC_GIT" ]; then
    STAMP="$SRC_GIT $(git --git-dir="$SRC_GIT" rev-parse --short HEAD)"
else
    STAMP=$(cd "$SRC_TREE" && pwd)
fi
BIN=$BUILD/build/bin
if [ ! -x "$BIN/zebra" ] || [ ! -f "$BIN/coeffs2.bin" ] || [ "$(cat "$BUILD/stamp" 2>/dev/null)" != "$STAMP" ]; then
    echo "building Zebra from $STAMP..." >&2
    rm -rf "$BUILD"
    mkdir -p "$BUILD"
    # Only what the build needs: the opening book (data/book.bin) is large and not used.
    if [ -n "$SRC_GIT" ]; then
        git --git-dir="$SRC_GIT" archive HEAD Makefile src 2>"$BUILD/archive.log" | tar -x -C "$BUILD"
        mkdir -p "$BUILD/data"
        git --git-dir="$SRC_GIT" cat-file blob HEAD:data/coeffs2.bin >"$BUILD/data/coeffs2.bin"
    else
        cp -R "$SRC_TREE/Makefile" "$SRC_TREE/src" "$BUILD/"
        mkdir -p "$BUILD/data" && cp "$SRC_TREE/data/coeffs2.bin" "$BUILD/data/"
    fi
    # The makefile links the evaluation into the binary's folder.
    make -C "$BUILD" -j2 zebra >"$BUILD/build.log" 2>&1 ||
        { tail -20 "$BUILD/build.log" >&2; die "Zebra build failed (log: $BUILD/build.log)"; }
    [ -f "$BIN/coeffs2.bin" ] || die "the build left no $BIN/coeffs2.bin"
    echo "$STAMP" >"$BUILD/stamp"
fi
echo "$BIN"
