#!/usr/bin/env bash
# Builds Edax from a local copy of its source and an all-zero evaluation file for it, then prints
# three lines: the binary's path, the evaluation file's path, and where the source came from
# and how it was compiled.
#   bench/edax-build.sh      environment: EDAX_SRC / EDAX_GIT / EDAX_REF (v4.6), EDAX_ARCH,
#                            EDAX_CC (gcc), EDAX_BIN (Edax already built from EDAX_SRC: no make)
# Edax's source comes from $EDAX_SRC (a work tree), ../edax-reversi, or a bare git mirror
# ($EDAX_GIT, else /work/.mirror/*edax-reversi*). Exit status 3, with the reason on stderr, when
# there is none (or no compiler): callers treat that as "skipped". Nothing of Edax goes into the
# repository: it is built under target/edax/ ($CARGO_TARGET_DIR/edax when that is set).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

EDAX_REF=${EDAX_REF:-v4.6}
EDAX_CC=${EDAX_CC:-gcc}
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
case $TARGET in /*) ;; *) TARGET=$ROOT/$TARGET ;; esac
EDAX_DIR=$TARGET/edax

skip() { echo "$*" >&2; exit 3; }
die() { echo "edax-build.sh: $*" >&2; exit 1; }

# --- where Edax's source is: a work tree, or a bare git dir to export from --------------------
SRC_TREE= SRC_GIT=
if [ -n "${EDAX_SRC:-}" ]; then
    [ -f "$EDAX_SRC/src/Makefile" ] || skip "EDAX_SRC=$EDAX_SRC has no src/Makefile"
    SRC_TREE=$EDAX_SRC
elif [ -f "$ROOT/../edax-reversi/src/Makefile" ]; then
    SRC_TREE=$ROOT/../edax-reversi
else
    for d in ${EDAX_GIT:-} /work/.mirror/*edax-reversi*/repo /work/.mirror/*edax-reversi*; do
        if [ -n "$d" ] && git --git-dir="$d" rev-parse --verify -q HEAD >/dev/null 2>&1; then
            SRC_GIT=$d
            break
        fi
    done
    [ -n "$SRC_GIT" ] || skip "no Edax source (set EDAX_SRC to a checkout of github.com/abulmo/edax-reversi, or EDAX_GIT to a git dir of it)"
fi
if [ -z "${EDAX_BIN:-}" ]; then
    command -v make >/dev/null || skip "make is not installed (needed to build Edax)"
    command -v "$EDAX_CC" >/dev/null || skip "$EDAX_CC is not installed (needed to build Edax)"
fi

# --- Edax: export the source, build it with its own makefile (into target/edax/) ----------------
if [ -z "${EDAX_ARCH:-}" ]; then
    # The makefile passes ARCH to -march; x86-64-v3 (AVX2, BMI2) is Edax's usual build.
    if [ "$(uname -m)" = x86_64 ]; then
        if grep -qw avx2 /proc/cpuinfo 2>/dev/null && grep -qw bmi2 /proc/cpuinfo; then
            EDAX_ARCH=x86-64-v3
        else
            EDAX_ARCH=x86-64
        fi
    else
        EDAX_ARCH=native
    fi
fi
if [ -n "$SRC_GIT" ]; then
    git --git-dir="$SRC_GIT" rev-parse --verify -q "$EDAX_REF^{commit}" >/dev/null || EDAX_REF=HEAD
    EDAX_COMMIT=$(git --git-dir="$SRC_GIT" rev-parse --short "$EDAX_REF^{commit}")
    SRC_DESC="$SRC_GIT $EDAX_REF ($EDAX_COMMIT)"
else
    SRC_DESC=$(cd "$SRC_TREE" && pwd)
fi
BUILD=$EDAX_DIR/build
EDAX=$BUILD/bin/edax
STAMP="$SRC_DESC $EDAX_CC $EDAX_ARCH"
if [ -n "${EDAX_BIN:-}" ]; then
    [ -x "$EDAX_BIN" ] || die "EDAX_BIN=$EDAX_BIN is not an executable"
    [ -n "$SRC_TREE" ] || die "EDAX_BIN needs EDAX_SRC, the source it was built from"
    EDAX=$(cd "$(dirname "$EDAX_BIN")" && pwd)/$(basename "$EDAX_BIN")
    BUILD=$(cd "$SRC_TREE" && pwd)
    SRC_DESC="$SRC_DESC (prebuilt $EDAX_BIN)"
elif [ ! -x "$EDAX" ] || [ "$(cat "$BUILD/stamp" 2>/dev/null)" != "$STAMP" ]; then
    echo "building Edax from $SRC_DESC ($EDAX_CC, ARCH=$EDAX_ARCH)..." >&2
    # Two builds at once (parallel tests) would clobber each other's files: one waits.
    mkdir -p "$EDAX_DIR"
    exec 9>"$EDAX_DIR/build.lock"
    flock 9 2>/dev/null || true
    if [ ! -x "$EDAX" ] || [ "$(cat "$BUILD/stamp" 2>/dev/null)" != "$STAMP" ]; then
        rm -rf "$BUILD"
        mkdir -p "$BUILD/bin"
        # git archive reads the mirror without writing to it (a checkout would write its index).
        if [ -n "$SRC_GIT" ]; then
            git --git-dir="$SRC_GIT" archive "$EDAX_REF" src | tar -x -C "$BUILD"
        else
            cp -R "$SRC_TREE/src" "$BUILD/src"
        fi
        # The makefile keys its flags on CC being exactly gcc or clang; the binary is named after ARCH.
        make -C "$BUILD/src" build CC="$EDAX_CC" ARCH="$EDAX_ARCH" OS=linux BIN="$BUILD/bin" \
            >"$BUILD/build.log" 2>&1 || { tail -20 "$BUILD/build.log" >&2; die "Edax build failed (log: $BUILD/build.log)"; }
        mv "$BUILD/bin/lEdax-$EDAX_ARCH" "$EDAX"
        echo "$STAMP" >"$BUILD/stamp"
    fi
fi
grep -q 'EDAX_NAME "Edax 4.6"' "$BUILD/src/const.h" ||
    echo "warning: this Edax source is not 4.6 ($(grep 'define EDAX_NAME' "$BUILD/src/const.h"))" >&2

# --- an all-zero evaluation file in the layout eval_open() (src/eval.c) reads -------------------
# eval_open reads two u32 magic words (EDAX, EVAL from const.h), u32 version, release, build, a
# double date, then EVAL_N_PLY blocks of n_w packed int16 weights. Sizes are taken from the source.
# Edax's real weights are not ours to ship, so its evaluation is blind (every midgame value 0).
RUN=$EDAX_DIR/run
mkdir -p "$RUN/data"
EVAL_C=$BUILD/src/eval.c CONST_H=$BUILD/src/const.h
N_W=$(sed -n 's/.*const uint32_t n_w = \([0-9]*\);.*/\1/p' "$EVAL_C")
N_PLY=$(sed -n 's/.*EVAL_N_PLY = \([0-9]*\);.*/\1/p' "$EVAL_C")
PACKED=$(sed -n 's/.*EVAL_PACKED_SIZE\[\] = {\(.*\)};.*/\1/p' "$EVAL_C" | tr ',' '\n' | awk '{s += $1} END {print s}')
MAGIC_EDAX=$(sed -n 's/^#define EDAX \(0x[0-9a-fA-F]*\).*/\1/p' "$CONST_H")
MAGIC_EVAL=$(sed -n 's/^#define EVAL \(0x[0-9a-fA-F]*\).*/\1/p' "$CONST_H")
[ -n "$N_W" ] && [ -n "$N_PLY" ] && [ -n "$MAGIC_EDAX" ] && [ -n "$MAGIC_EVAL" ] ||
    die "cannot read the evaluation file layout from $EVAL_C / $CONST_H (format changed?)"
[ "$N_W" = "$PACKED" ] || die "eval.c: n_w = $N_W but EVAL_PACKED_SIZE sums to $PACKED"
le32() { # little-endian bytes of a 32-bit number (Edax byte-swaps the file on big-endian hosts)
    local v=$(($1)) i
    for i in 0 8 16 24; do printf "\\$(printf %03o $(((v >> i) & 255)))"; done
}
EVAL=$RUN/data/eval.dat
EVAL_BYTES=$((5 * 4 + 8 + N_PLY * N_W * 2))
if [ "$(stat -c %s "$EVAL" 2>/dev/null || echo 0)" -ne "$EVAL_BYTES" ]; then
    { le32 "$MAGIC_EDAX"; le32 "$MAGIC_EVAL"; head -c $((EVAL_BYTES - 8)) /dev/zero; } >"$EVAL.tmp.$$"
    mv "$EVAL.tmp.$$" "$EVAL"
fi

echo "$EDAX"
echo "$EVAL"
echo "$SRC_DESC, $EDAX_CC ARCH=$EDAX_ARCH"
