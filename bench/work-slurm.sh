#!/usr/bin/env bash
# A split solve as one MPI job under Slurm against the direct solve, by the clock: the wall
# time of `othello solve --threads T` beside that of `sbatch --wait -N 1 -n T
# cluster/slurm/othello-solve.sbatch` (the split, the coordinator and its workers), and the
# scheduler's share: from submission to the end of the job, less the time the job itself ran.
# job_ratio is the job's wall time over the direct solve's, slurm_ratio the time from
# submission to the report over it.
#
#   bench/work-slurm.sh                          # 5x6 full, 4x6 SIMPLE misère: split 200, 2 tasks
#   TASKS=4 SPLIT=100 bench/work-slurm.sh "6 6" "--rules simple|4 7"
#
# A board is "ROWS COLS [SOLVE OPTIONS]" with, before a `|`, the global options. Environment:
# TASKS (2), COORDINATOR (shared: every task solves, rank 0 shares a core; own: rank 0 takes a
# task of its own, as the batch script's --coordinator), SPLIT (200), OTHELLO (a binary built with
# --features mpi; default: `cargo build --release --features mpi`'s). It uses the cluster
# `sinfo` reaches; without one, as root with slurm-wlm and munge installed (Debian), it starts
# a one-node cluster of its own in a scratch folder and stops it at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
tasks=${TASKS:-2}
coordinator=${COORDINATOR:-shared}
split=${SPLIT:-200}
if [[ -z ${OTHELLO:-} ]]; then
    cargo build --release --features mpi --quiet
    OTHELLO=${CARGO_TARGET_DIR:-target}/release/othello
fi
OTHELLO=$(realpath "$OTHELLO")
boards=("$@")
((${#boards[@]})) || boards=("5 6" "--rules simple|4 6 --misere")
scratch=$(mktemp -d)
daemons=()
finish() {
    for pid_file in "${daemons[@]}"; do
        if [[ -f $pid_file ]]; then kill "$(cat "$pid_file")" 2>/dev/null || true; fi
    done
    rm -rf "$scratch"
}
trap finish EXIT

# A one-node cluster of its own (as tests/slurm.rs starts one), when none is reachable.
if ! sinfo -h >/dev/null 2>&1; then
    for p in slurmctld slurmd sbatch sinfo munged; do
        command -v "$p" >/dev/null || { echo "no Slurm cluster reachable and no $p to start one" >&2; exit 1; }
    done
    [[ $(id -u) == 0 ]] || { echo "no Slurm cluster reachable; starting one needs root" >&2; exit 1; }
    c=$scratch/cluster
    mkdir -p "$c"/{spool,state,log}
    host=$(hostname -s)
    port=$((22000 + $$ % 1000 * 2))
    cat >"$c/slurm.conf" <<CONF
ClusterName=othellobench
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$c/munge.socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmctldPidFile=$c/slurmctld.pid
SlurmdPidFile=$c/slurmd.pid
SlurmdSpoolDir=$c/spool
StateSaveLocation=$c/state
SlurmctldLogFile=$c/log/slurmctld.log
SlurmdLogFile=$c/log/slurmd.log
SlurmUser=root
ReturnToService=2
MinJobAge=4
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=500
PartitionName=bench Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
    head -c 128 /dev/urandom >"$c/munge.key"
    chmod 600 "$c/munge.key"
    export SLURM_CONF=$c/slurm.conf
    daemons=("$c/munged.pid" "$c/slurmctld.pid" "$c/slurmd.pid")
    munged -f --key-file="$c/munge.key" --socket="$c/munge.socket" --pid-file="$c/munged.pid" \
        --log-file="$c/log/munged.log" --seed-file="$c/munged.seed"
    slurmctld -f "$SLURM_CONF"
    slurmd -f "$SLURM_CONF" -N "$host"
    for _ in $(seq 240); do
        [[ $(sinfo -h -o %T 2>/dev/null) == idle ]] && break
        sleep 0.25
    done
    [[ $(sinfo -h -o %T) == idle ]] || { echo "the node of the bench's cluster is not idle" >&2; exit 1; }
fi

now() { date +%s.%N; }
minus() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a - b }'; }
printf '%-28s %5s %9s %9s %9s %9s %11s %11s\n' board tasks direct_s job_s slurm_s job_ratio slurm_ratio scheduler_s
for board in "${boards[@]}"; do
    global=""
    if [[ $board == *"|"* ]]; then
        global=${board%%|*}
        board=${board#*|}
    fi
    read -r rows cols extra <<<"$board"
    # shellcheck disable=SC2086
    /usr/bin/time -f '%e' -o "$scratch/direct.time" "$OTHELLO" $global solve --rows "$rows" \
        --cols "$cols" $extra --threads "$tasks" >"$scratch/direct.out" 2>/dev/null
    rm -rf "$scratch/work" "$scratch/job.log"
    submitted=$(now)
    # shellcheck disable=SC2086
    sbatch --wait --quiet -N 1 -n "$tasks" -o "$scratch/job.log" cluster/slurm/othello-solve.sbatch \
        --work "$scratch/work" --othello "$OTHELLO" --coordinator "$coordinator" -- --rows "$rows" --cols "$cols" $extra \
        --split "$split" $global
    returned=$(now)
    if ! diff <(grep -v '^Nodes:' "$scratch/direct.out") \
        <(grep -v '^Nodes:' "$scratch/work/report.txt") >/dev/null; then
        echo "WARNING: $global ${rows}x$cols $extra: the Slurm solve's report differs from the direct one"
    fi
    job=$(sed -n 's/.*solved in \([0-9.]*\) s.*/\1/p' "$scratch/job.log" | tail -n 1)
    ended=$(stat -c %.9Y "$scratch/work/report.txt")
    total=$(minus "$ended" "$submitted")
    direct=$(cat "$scratch/direct.time")
    ratio() { awk -v a="$1" -v b="$direct" 'BEGIN { printf "%.2f", a / b }'; }
    printf '%-28s %5s %9s %9s %9s %9s %11s %11s   (sbatch --wait returned after %s s)\n' \
        "${global:+$global }${rows}x$cols${extra:+ $extra}" "$tasks" "$direct" "$job" "$total" \
        "$(ratio "$job")" "$(ratio "$total")" "$(minus "$total" "$job")" \
        "$(minus "$returned" "$submitted")"
done
