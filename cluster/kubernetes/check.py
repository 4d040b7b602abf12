#!/usr/bin/env python3
"""Checks the Kubernetes manifests without a cluster: each is filled as its header says (with
envsubst when installed), parsed as YAML and checked field by field; then the pods' own commands
are run here, with /work a temporary folder and each index in turn, through every round of a
split solve and every shard of a training run, and the results compared with a direct run.

Usage: python3 cluster/kubernetes/check.py OTHELLO   (needs python3-yaml; run by .ci/run)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
PLACEHOLDER = re.compile(r"\$\{([A-Z_]+)\}")


def fail(message):
    sys.exit(f"check.py: {message}")


def read(name):
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        return f.read()


def fill(name, values):
    """The manifest filled the way its header says: envsubst with the listed variables."""
    text = read(name)
    listed = re.search(r"envsubst '([^']*)'", text)
    if not listed:
        fail(f"{name}: no envsubst line in its header")
    names = [v.lstrip("$") for v in listed.group(1).split()]
    used = set(PLACEHOLDER.findall(text))
    if set(names) != used:
        fail(f"{name}: the header lists {sorted(names)}, the manifest uses {sorted(used)}")
    if set(values) != used:
        fail(f"{name}: filled with {sorted(values)}, needs {sorted(used)}")
    if shutil.which("envsubst"):
        env = dict(os.environ, **{k: str(v) for k, v in values.items()})
        filled = subprocess.run(["envsubst", listed.group(1)], input=text, env=env,
                                capture_output=True, text=True, check=True).stdout
    else:
        filled = PLACEHOLDER.sub(lambda m: str(values[m.group(1)]), text)
    return yaml.safe_load(filled)


def check_job(job, values, count, parallel):
    assert job["apiVersion"] == "batch/v1" and job["kind"] == "Job", job
    assert job["metadata"]["name"] == values["NAME"]
    spec = job["spec"]
    assert spec["completionMode"] == "Indexed"
    assert spec["completions"] == values[count], spec
    assert spec["parallelism"] == values[parallel], spec
    pod = spec["template"]["spec"]
    assert pod["restartPolicy"] == "Never"
    check_volume(pod, values)
    (container,) = pod["containers"]
    assert container["image"] == values["IMAGE"]
    return container["command"]


def check_volume(pod, values):
    (volume,) = pod["volumes"]
    assert volume["persistentVolumeClaim"]["claimName"] == values["CLAIM"]
    (container,) = pod["containers"]
    (mount,) = container["volumeMounts"]
    assert mount["name"] == volume["name"] and mount["mountPath"] == "/work"


def pod_command(command, index, root):
    """What the pod of this index runs, with its /work the folder root."""
    words = [w.replace("$(JOB_COMPLETION_INDEX)", str(index)) for w in command]
    words = [re.sub(r"(^|[\s=])/work(?=/)", lambda m: m.group(1) + root, w) for w in words]
    return words


def run(words, othello, env=None):
    words = [othello if w == "othello" else w for w in words]
    return subprocess.run(words, capture_output=True, text=True, env=env)


def without_nodes(text):
    return [line for line in text.splitlines() if not line.startswith("Nodes:")]


def check_solve(othello, root):
    board = ["--rules", "simple", "--misere", "--rows", "4", "--cols", "5"]
    work = os.path.join(root, "4x5")
    split = run(["othello", "solve", *board, "--split", "6", "--work", work], othello)
    if split.returncode != 0:
        fail(f"split: {split.stderr}")
    last = split.stdout.splitlines()[-1]
    rounds = 0
    while True:
        m = re.fullmatch(r"round (\d+): (\d+) jobs?", last)
        if not m:
            fail(f"expected 'round R: M jobs', got {last!r}")
        # Two jobs a pod: the last pod of a round of an odd number has one.
        jobs, batch = int(m.group(2)), 2
        values = dict(NAME=f"othello-4x5-r{m.group(1)}", IMAGE="registry.example/othello:1",
                      CLAIM="othello-work", WORK="4x5", ROUND=int(m.group(1)),
                      TASKS=(jobs + batch - 1) // batch, BATCH=batch, PARALLEL=4, THREADS=1,
                      HASH_MB=16)
        command = check_job(fill("solve-round.yaml", values), values, "TASKS", "PARALLEL")
        for i in range(values["TASKS"]):
            env = dict(os.environ, JOB_COMPLETION_INDEX=str(i))
            job = run(pod_command(command, i, root), othello, env)
            if job.returncode != 0:
                fail(f"round {values['ROUND']} pod {i}: status {job.returncode}: {job.stderr}")
        rounds += 1
        merge = run(["othello", "solve", "--work", work, "--merge"], othello)
        if merge.returncode == 0:
            break
        if merge.returncode != 4:
            fail(f"merge: status {merge.returncode}: {merge.stderr}")
        last = merge.stdout.splitlines()[-1]
    direct = run(["othello", "solve", *board], othello)
    if without_nodes(merge.stdout) != without_nodes(direct.stdout):
        fail(f"the rounds gave\n{merge.stdout}\nthe direct solve\n{direct.stdout}")
    print(f"solve-round.yaml: 4x5 SIMPLE misère in {rounds} rounds, as the direct solve")


def check_train(othello, root):
    gen = "--rows 4 --cols 4 --depth 1 --exact-empties 6 --seed 9"
    values = dict(NAME="othello-4x4-games", IMAGE="registry.example/othello:1",
                  CLAIM="othello-work", OUT="games", SHARDS=3, SHARD_SIZE=5, PARALLEL=2,
                  THREADS=1, GEN_OPTIONS=gen)
    command = check_job(fill("train-gen.yaml", values), values, "SHARDS", "PARALLEL")
    bindir = os.path.join(root, "bin")
    os.makedirs(bindir)
    os.symlink(othello, os.path.join(bindir, "othello"))
    path = bindir + os.pathsep + os.environ.get("PATH", "")
    for i in range(values["SHARDS"]):
        env = dict(os.environ, JOB_COMPLETION_INDEX=str(i), PATH=path)
        shard = run(pod_command(command, i, root), othello, env)
        if shard.returncode != 0:
            fail(f"shard {i}: status {shard.returncode}: {shard.stderr}")
    shards = [os.path.join(root, "games", f"shard-{i}.dat") for i in range(values["SHARDS"])]
    one = os.path.join(root, "one.dat")
    games = str(values["SHARDS"] * values["SHARD_SIZE"])
    made = run(["othello", "train", "gen", *gen.split(), "--games", games, "--out", one], othello)
    if made.returncode != 0:
        fail(f"one run: {made.stderr}")
    fits = []
    for name, files in (("shards", shards), ("one", [one])):
        out = os.path.join(root, f"{name}.weights")
        fit = run(["othello", "train", "fit", "--phases", "2", "--out", out, *files], othello)
        if fit.returncode != 0:
            fail(f"fit of {name}: {fit.stderr}")
        with open(out, "rb") as f:
            fits.append(f.read())
    if fits[0] != fits[1]:
        fail("the shards' weights differ from those of one run")
    print(f"train-gen.yaml: {values['SHARDS']} shards fit as one run of {games} games")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    othello = os.path.abspath(sys.argv[1])
    pod = fill("work-pod.yaml", dict(IMAGE="registry.example/othello:1", CLAIM="othello-work"))
    assert pod["apiVersion"] == "v1" and pod["kind"] == "Pod"
    check_volume(pod["spec"], dict(CLAIM="othello-work"))
    with tempfile.TemporaryDirectory() as root:
        check_solve(othello, root)
    with tempfile.TemporaryDirectory() as root:
        check_train(othello, root)


if __name__ == "__main__":
    main()
