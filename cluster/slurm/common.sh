# shellcheck shell=bash
# Shared by othello-solve and othello-train-gen (sourced): messages, option checks, and running
# the unfinished indices of a job array on Slurm, waiting until they end.

prog=${0##*/}

say() { printf '%s: %s\n' "$prog" "$*" >&2; }

# fail STATUS MESSAGE...
fail() {
    local status=$1
    shift
    say "$*"
    exit "$status"
}

# counted N WORD: "1 WORD", else "N WORDs".
counted() { if (($1 == 1)); then echo "$1 $2"; else echo "$1 $2s"; fi; }

# need_value OPTION ARGS...: the option is followed by a value.
need_value() { [[ $# -ge 2 ]] || fail 2 "$1 needs a value (--help)"; }

positive() { [[ $2 =~ ^[1-9][0-9]*$ ]] || fail 2 "$1: '$2' is not a positive whole number"; }

# find_othello NAME: the program as an absolute path when it names a file, else as found on
# PATH here (the nodes are expected to have the same PATH).
find_othello() {
    local name=$1
    if [[ $name == */* ]]; then
        [[ -f $name && -x $name ]] || fail 2 "$name: no such program (--othello PATH or OTHELLO)"
        realpath -- "$name"
    else
        command -v -- "$name" >/dev/null || fail 2 "$name: not found on PATH (--othello PATH or OTHELLO)"
        printf '%s\n' "$name"
    fi
}

need_slurm() {
    command -v sbatch >/dev/null ||
        fail 2 "sbatch not found: this runs on a Slurm cluster (cluster/README.md says how to run elsewhere)"
}

# The largest array index Slurm takes is MaxArraySize - 1 (1001 unless the cluster says more).
max_array_size() {
    local v
    v=$(scontrol show config 2>/dev/null | awk '$1 == "MaxArraySize" { print $3 }') || true
    if [[ $v =~ ^[0-9]+$ ]] && ((v > 1)); then echo "$v"; else echo 1001; fi
}

# todo_arrays DIR PREFIX SUFFIX COUNT MAXA [GROUP]: the indices 0..COUNT-1 whose file
# DIR/PREFIX<I>SUFFIX is absent, taken GROUP at a time (task T stands for indices T*GROUP to
# T*GROUP+GROUP-1, and is to run when one of them is absent; GROUP is 1 unless given), as one
# line "OFFSET SPEC N" per sbatch: SPEC the task numbers less OFFSET (all under MAXA, Slurm's
# limit) written as ranges, N how many.
todo_arrays() {
    local dir=$1 prefix=$2 suffix=$3 count=$4 maxa=$5 group=${6:-1}
    { if [[ -d $dir ]]; then find "$dir" -maxdepth 1 -name "$prefix*$suffix" -printf '%f\n'; fi; } |
        awk -v p="$prefix" -v s="$suffix" -v n="$count" -v m="$maxa" -v g="$group" '
        {
            x = substr($0, length(p) + 1)
            x = substr(x, 1, length(x) - length(s))
            if (x ~ /^(0|[1-9][0-9]*)$/) have[x + 0] = 1
        }
        function close_range() {
            if (a >= 0) spec = spec (spec == "" ? "" : ",") (a == b ? a : a "-" b)
            a = -1
        }
        function flush() {
            close_range()
            if (cnt) print off, spec, cnt
            spec = ""; cnt = 0
        }
        END {
            off = -1; a = -1; cnt = 0; spec = ""
            for (t = 0; t * g < n; t++) {
                missing = 0
                for (i = t * g; i < n && i < (t + 1) * g; i++) if (!(i in have)) missing = 1
                if (!missing) continue
                o = t - t % m
                if (o != off) { flush(); off = o }
                j = t - o
                if (a >= 0 && j == b + 1) b = j; else { close_range(); a = j; b = j }
                cnt++
            }
            flush()
        }'
}

# count_todo LINES: the sum of the N column of todo_arrays' lines.
count_todo() { awk '{ n += $3 } END { print n + 0 }' <<<"$1"; }

# last_log DIR: the end of the newest job log in DIR, on stderr, to say why jobs fail.
last_log() {
    local log
    log=$(find "$1" -maxdepth 1 -name '*.log' -printf '%T@ %p\n' 2>/dev/null | sort -rn | head -n 1) || true
    log=${log#* }
    if [[ -n $log ]]; then
        say "the end of $log:"
        tail -n 5 -- "$log" >&2
    fi
}

sbatch_pid=
array_id=

# submit_wait SPEC SBATCH-ARGS... SCRIPT ARGS...: one job array, waiting for its end. Its jobs'
# exit statuses are not judged here: their results are.
submit_wait() {
    local spec=$1 rc=0
    shift
    : >"$tmp/jobid"
    sbatch --parsable --wait --array="$spec" "$@" >"$tmp/jobid" &
    sbatch_pid=$!
    wait "$sbatch_pid" || rc=$?
    sbatch_pid=
    array_id=$(head -n 1 "$tmp/jobid")
    array_id=${array_id%%;*}
    [[ -n $array_id ]] || fail 1 "sbatch did not take the job array (status $rc)"
}

# On SIGINT or SIGTERM the array being waited for is cancelled: the same command goes on later.
interrupted() {
    local id status=$1
    if [[ -n $sbatch_pid ]]; then
        id=$(head -n 1 "$tmp/jobid" 2>/dev/null) || true
        id=${id%%;*}
        if [[ -n $id ]] && scancel "$id"; then say "cancelled job array $id"; fi
        kill "$sbatch_pid" 2>/dev/null || true
    fi
    say "interrupted: the same command goes on from what is done"
    exit "$status"
}

tmp=$(mktemp -d)
trap 'rm -rf -- "$tmp"' EXIT
trap 'interrupted 130' INT
trap 'interrupted 143' TERM
