#!/usr/bin/env python3
"""Checks the Kubernetes manifests and the image's build file without a cluster: each manifest
is filled as its header says (with envsubst when installed), parsed as YAML and checked field by
field; then the pods' own commands are run here, with /work a temporary folder and each index
in turn, through every round of a split solve and every shard of a training run, and the
MPIJob's launcher under mpirun with the hostfile the MPI Operator would give it, and the
results compared with a direct run. With kubernetes-validate (PyPI) installed, the filled
manifests are validated against Kubernetes' own schemas, and the MPIJob against the MPI
Operator's published CRD where it can be fetched.

Usage: python3 cluster/kubernetes/check.py OTHELLO [MPI_OTHELLO]
  OTHELLO      any build of othello
  MPI_OTHELLO  one built with `--features mpi`, for the MPIJob's launcher (skipped without it,
               without mpirun, or when it has no MPI)
Needs python3-yaml; run by .ci/run. MPIJOB_CRD_URL names another copy of the operator's
install manifest (a file:// URL does).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.request

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
PLACEHOLDER = re.compile(r"\$\{([A-Z_]+)\}")
IMAGE = "registry.example/othello:1"
CLAIM = "othello-work"
# The board of the checks, as options of `othello solve`: a split solve of it takes a second.
BOARD = ["--rules", "simple", "--misere", "--rows", "4", "--cols", "5"]
# The MPI Operator release whose install manifest (with the MPIJob CRD) the MPIJob is checked
# against; it is fetched when the check runs, never kept here.
MPIJOB_CRD_URL = ("https://raw.githubusercontent.com/kubeflow/mpi-operator/v0.8.0/"
                  "deploy/v2beta1/mpi-operator.yaml")
# The oldest Kubernetes the manifests need (backoffLimitPerIndex and FailIndex are on by
# default from 1.29), checked beside the newest that kubernetes-validate knows.
OLDEST_KUBERNETES = "1.29.0"


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
    assert spec["backoffLimitPerIndex"] > 0 and spec["ttlSecondsAfterFinished"] > 0, spec
    rules = spec["podFailurePolicy"]["rules"]
    ignored = [r for r in rules if r["action"] == "Ignore"]
    assert [c["type"] for r in ignored for c in r["onPodConditions"]] == ["DisruptionTarget"]
    pod = spec["template"]["spec"]
    # Kubernetes takes a podFailurePolicy only with this.
    assert pod["restartPolicy"] == "Never"
    check_volume(pod, values)
    (container,) = pod["containers"]
    assert container["image"] == values["IMAGE"]
    return container["command"]


def policy_action(job, status):
    """What the Job's podFailurePolicy does with a pod that exits with this status: the action
    of the first rule on exit codes that matches, else Count (the pod counts as a failure)."""
    for rule in job["spec"]["podFailurePolicy"]["rules"]:
        codes = rule.get("onExitCodes")
        if codes and (status in codes["values"]) == (codes["operator"] == "In"):
            return rule["action"]
    return "Count"


def check_policy(name, job, command, othello, env, expected):
    """Runs pod 0's command so that it fails, in each way of `expected` ({the action wanted:
    (words added to the command, the folder that is its /work)}), and checks that its exit
    status gets that action."""
    for wanted, (extra, root) in expected.items():
        ended = run(pod_command(command, 0, root) + extra, othello, env)
        action = policy_action(job, ended.returncode)
        if action != wanted:
            fail(f"{name}: status {ended.returncode} gets {action}, not {wanted}: "
                 f"{ended.stderr}")


def check_volume(pod, values, shm=False):
    """The claim at /work, and with `shm` a memory volume at /dev/shm (the ranks' shared table)."""
    volumes = {v["name"]: v for v in pod["volumes"]}
    (container,) = pod["containers"]
    mounts = {m["mountPath"]: m["name"] for m in container["volumeMounts"]}
    assert volumes[mounts["/work"]]["persistentVolumeClaim"]["claimName"] == values["CLAIM"]
    if shm:
        assert volumes[mounts["/dev/shm"]]["emptyDir"] == {"medium": "Memory"}, volumes
    assert len(volumes) == len(mounts) == 1 + shm, (volumes, mounts)


def pod_command(command, index, root):
    """What the pod of this index runs, with its /work the folder root."""
    words = [w.replace("$(JOB_COMPLETION_INDEX)", str(index)) for w in command]
    words = [re.sub(r"(^|[\s=])/work(?=/)", lambda m: m.group(1) + root, w) for w in words]
    return words


def run(words, othello, env=None, timeout=300):
    words = [othello if w == "othello" else w for w in words]
    return subprocess.run(words, capture_output=True, text=True, env=env, timeout=timeout)


def on_path(othello, root):
    """PATH with `othello` this binary first: the pods' sh scripts call it by name."""
    bindir = os.path.join(root, "bin")
    os.makedirs(bindir)
    os.symlink(othello, os.path.join(bindir, "othello"))
    return bindir + os.pathsep + os.environ.get("PATH", "")


def without_nodes(text):
    return [line for line in text.splitlines() if not line.startswith("Nodes:")]


def check_solve(othello, root, filled):
    work = os.path.join(root, "4x5")
    split = run(["othello", "solve", *BOARD, "--split", "6", "--work", work], othello)
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
        values = dict(NAME=f"othello-4x5-r{m.group(1)}", IMAGE=IMAGE, CLAIM=CLAIM, WORK="4x5",
                      ROUND=int(m.group(1)), TASKS=(jobs + batch - 1) // batch, BATCH=batch,
                      PARALLEL=4, THREADS=1, HASH_MB=16)
        job = fill("solve-round.yaml", values)
        filled.setdefault("solve-round.yaml", job)
        command = check_job(job, values, "TASKS", "PARALLEL")
        for i in range(values["TASKS"]):
            env = dict(os.environ, JOB_COMPLETION_INDEX=str(i))
            ended = run(pod_command(command, i, root), othello, env)
            if ended.returncode != 0:
                fail(f"round {values['ROUND']} pod {i}: status {ended.returncode}: "
                     f"{ended.stderr}")
        rounds += 1
        merge = run(["othello", "solve", "--work", work, "--merge"], othello)
        if merge.returncode == 0:
            break
        if merge.returncode != 4:
            fail(f"merge: status {merge.returncode}: {merge.stderr}")
        last = merge.stdout.splitlines()[-1]
    direct = run(["othello", "solve", *BOARD], othello)
    if without_nodes(merge.stdout) != without_nodes(direct.stdout):
        fail(f"the rounds gave\n{merge.stdout}\nthe direct solve\n{direct.stdout}")
    # A pod of a folder that holds no solve, and one with a bad option.
    empty = os.path.join(root, "empty")
    os.makedirs(empty)
    env = dict(os.environ, JOB_COMPLETION_INDEX="0")
    check_policy("solve-round.yaml", job, command, othello, env, {
        "FailIndex": ([], empty), "FailJob": (["--no-such-option"], root)})
    print(f"solve-round.yaml: 4x5 SIMPLE misère in {rounds} rounds, as the direct solve; "
          "an error fails the index, a bad command line the Job")


def check_train(othello, root, filled):
    gen = "--rows 4 --cols 4 --depth 1 --exact-empties 6 --seed 9"
    values = dict(NAME="othello-4x4-games", IMAGE=IMAGE, CLAIM=CLAIM, OUT="games", SHARDS=3,
                  SHARD_SIZE=5, PARALLEL=2, THREADS=1, GEN_OPTIONS=gen)
    job = fill("train-gen.yaml", values)
    filled["train-gen.yaml"] = job
    command = check_job(job, values, "SHARDS", "PARALLEL")
    path = on_path(othello, root)
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
    # A bad option: the words go into the pod's sh script.
    env = dict(os.environ, JOB_COMPLETION_INDEX="0", PATH=path)
    bad = command[:-1] + [command[-1] + " --no-such-option"]
    check_policy("train-gen.yaml", job, bad, othello, env, {"FailIndex": ([], root)})
    print(f"train-gen.yaml: {values['SHARDS']} shards fit as one run of {games} games; "
          "a bad command line fails its index")


def check_claim(filled):
    values = dict(CLAIM=CLAIM, STORAGE_CLASS="nfs-client", SIZE="20Gi")
    claim = fill("work-claim.yaml", values)
    filled["work-claim.yaml"] = claim
    assert claim["apiVersion"] == "v1" and claim["kind"] == "PersistentVolumeClaim"
    assert claim["metadata"]["name"] == CLAIM
    spec = claim["spec"]
    # Every pod of a solve mounts it at once, from any node.
    assert spec["accessModes"] == ["ReadWriteMany"], spec
    assert spec["storageClassName"] == values["STORAGE_CLASS"]
    assert spec["resources"]["requests"]["storage"] == values["SIZE"]


def mpijob_values():
    # One worker of three slots: rank 0 coordinating, two solving.
    return dict(NAME="othello-4x5", IMAGE=IMAGE, CLAIM=CLAIM, WORK="4x5",
                SOLVE_OPTIONS=" ".join(BOARD + ["--split", "8"]), WORKERS=1, SLOTS=3,
                MEMORY="240Mi", HASH_MB=16)


def check_mpijob(filled):
    """The MPIJob's fields; returns its launcher's command."""
    values = mpijob_values()
    job = fill("solve-mpi.yaml", values)
    filled["solve-mpi.yaml"] = job
    assert job["apiVersion"] == "kubeflow.org/v2beta1" and job["kind"] == "MPIJob", job
    assert job["metadata"]["name"] == values["NAME"]
    spec = job["spec"]
    assert spec["mpiImplementation"] == "OpenMPI"
    assert spec["slotsPerWorker"] == values["SLOTS"]
    assert spec["launcherCreationPolicy"] == "WaitForWorkersReady"
    policy = spec["runPolicy"]
    assert policy["backoffLimit"] > 0 and policy["ttlSecondsAfterFinished"] > 0, policy
    assert policy["cleanPodPolicy"] == "Running", policy
    replicas = spec["mpiReplicaSpecs"]
    assert set(replicas) == {"Launcher", "Worker"}, replicas
    launcher, worker = replicas["Launcher"], replicas["Worker"]
    # The launcher runs again after a failure, and goes on from the folder.
    assert launcher["replicas"] == 1 and launcher["restartPolicy"] == "OnFailure", launcher
    assert worker["replicas"] == values["WORKERS"], worker
    containers = {}
    for role, replica in replicas.items():
        pod = replica["template"]["spec"]
        # The replica's restartPolicy is the one the operator applies.
        assert "restartPolicy" not in pod, role
        check_volume(pod, values, shm=role == "Worker")
        (containers[role],) = pod["containers"]
        assert containers[role]["image"] == values["IMAGE"], role
    solving = containers["Worker"]
    wanted = {"cpu": str(values["SLOTS"]), "memory": values["MEMORY"]}
    assert solving["resources"] == {"requests": wanted, "limits": wanted}, solving["resources"]
    assert solving["readinessProbe"]["tcpSocket"]["port"] == 22
    assert re.search(r"\bexec /usr/sbin/sshd -D\b", solving["command"][-1]), solving["command"]
    command = containers["Launcher"]["command"]
    assert command[:2] == ["sh", "-c"] and len(command) == 3, command
    assert f"othello solve --work /work/{values['WORK']} --mpi" in command[2], command
    assert re.search(r"\bexec mpirun\b", command[2]), command
    return command


def check_mpi(mpi_othello, othello, root, command):
    """Runs the MPIJob's launcher here, twice: the report of the direct solve each time."""
    if not mpi_othello:
        print("solve-mpi.yaml: the launcher is not run: no MPI build given (MPI_OTHELLO)")
        return
    if not shutil.which("mpirun"):
        print("solve-mpi.yaml: the launcher is not run: no mpirun (openmpi-bin)")
        return
    values = mpijob_values()
    # The hostfile and the variables the operator gives an Open MPI launcher, with this
    # machine the one worker.
    hostfile = os.path.join(root, "hostfile")
    with open(hostfile, "w", encoding="utf-8") as f:
        f.write(f"localhost slots={values['SLOTS']}\n")
    env = dict(os.environ, PATH=on_path(os.path.abspath(mpi_othello), root),
               OMPI_MCA_orte_default_hostfile=hostfile,
               OMPI_MCA_orte_keep_fqdn_hostnames="true",
               OMPI_MCA_orte_set_default_slots=str(values["SLOTS"]),
               OMPI_MCA_plm_rsh_args="-o ConnectionAttempts=10",
               K_MPI_JOB_ROLE="launcher")
    direct = run(["othello", "solve", *BOARD], othello)
    for attempt in ("first", "second"):
        ended = run(pod_command(command, 0, root), othello, env, timeout=120)
        if ended.returncode == 2 and "built without MPI" in ended.stderr:
            print("solve-mpi.yaml: the launcher's MPI solve is not checked: MPI_OTHELLO is "
                  "built without MPI")
            return
        if ended.returncode != 0:
            fail(f"the launcher's {attempt} run: status {ended.returncode}: {ended.stderr}")
        if without_nodes(ended.stdout) != without_nodes(direct.stdout):
            fail(f"the launcher's {attempt} run gave\n{ended.stdout}\n"
                 f"the direct solve\n{direct.stdout}")
    print(f"solve-mpi.yaml: the launcher splits and solves 4x5 SIMPLE misère on "
          f"{values['SLOTS']} ranks as the direct solve, and again from the folder")


def check_containerfile():
    """The image's build file: a build stage and a runtime stage on one Debian release, the
    build as CI's with the feature, and the binary where the manifests call it by name."""
    with open(os.path.join(HERE, "..", "Containerfile"), encoding="utf-8") as f:
        lines = [line for line in f.read().splitlines() if not line.lstrip().startswith("#")]
    text = re.sub(r"\\\n", " ", "\n".join(lines))
    stages = []
    for line in text.splitlines():
        word, _, rest = line.strip().partition(" ")
        if word.upper() == "FROM":
            stages.append({"from": rest.split(), "RUN": [], "COPY": []})
        elif word.upper() in ("RUN", "COPY"):
            stages[-1][word.upper()].append(" ".join(rest.split()))
    assert len(stages) == 2, [s["from"] for s in stages]
    build, runtime = stages
    assert build["from"][1:] == ["AS", "build"], build["from"]
    for stage in stages:
        assert re.search(r":(.*-)?bookworm(-slim)?$", stage["from"][0]), stage["from"]

    def installs(stage):
        return {w for r in stage["RUN"] if "apt-get install" in r for w in r.split()}

    assert {"libclang-dev", "libopenmpi-dev"} <= installs(build), build["RUN"]
    assert any("cargo build --release --locked --features mpi" in r for r in build["RUN"])
    assert {"openmpi-bin", "openssh-client", "openssh-server"} <= installs(runtime)
    assert any(re.fullmatch(r"--from=build \S*/target/release/othello /usr/local/bin/othello", c)
               for c in runtime["COPY"]), runtime["COPY"]
    with open(os.path.join(HERE, "..", "..", ".dockerignore"), encoding="utf-8") as f:
        ignored = {line.strip() for line in f if line.strip() and not line.startswith("#")}
    assert "**/target" in ignored and not ignored & {"src", "Cargo.toml", "Cargo.lock"}, ignored
    print("Containerfile: othello built with the feature mpi, at /usr/local/bin/othello of a "
          "bookworm image with Open MPI and ssh")


def as_pod_templates(mpijob):
    """The MPIJob's pod templates as v1 PodTemplates, which Kubernetes' schemas cover."""
    for role, replica in mpijob["spec"]["mpiReplicaSpecs"].items():
        yield role, {"apiVersion": "v1", "kind": "PodTemplate",
                     "metadata": {"name": f"{mpijob['metadata']['name']}-{role.lower()}"},
                     "template": replica["template"]}


def validate_kubernetes(filled):
    try:
        import kubernetes_validate
    except ImportError:
        print("kubernetes-validate is not installed (pip install kubernetes-validate): the "
              "manifests are not validated against Kubernetes' schemas")
        return
    versions = [OLDEST_KUBERNETES, kubernetes_validate.latest_version()]
    for name, doc in filled.items():
        resources = as_pod_templates(doc) if doc["kind"] == "MPIJob" else [(doc["kind"], doc)]
        for what, resource in resources:
            for version in versions:
                try:
                    kubernetes_validate.validate(resource, version, strict=True)
                except kubernetes_validate.ValidationError as e:
                    where = ".".join(str(p) for p in e.path)
                    fail(f"{name}: {what} against Kubernetes {version}: {where}: {e.message}")
    print(f"kubernetes-validate {kubernetes_validate.__version__}: {', '.join(filled)} "
          f"(the MPIJob's pod templates) valid for Kubernetes {' and '.join(versions)}, strict")


def closed(schema):
    """The schema with fields it does not name refused, as the API server refuses them under
    strict field validation (and otherwise drops them with a warning)."""
    if not isinstance(schema, dict):
        return schema
    schema = dict(schema)
    if "properties" in schema:
        schema["properties"] = {k: closed(v) for k, v in schema["properties"].items()}
        if ("additionalProperties" not in schema
                and not schema.get("x-kubernetes-preserve-unknown-fields")):
            schema["additionalProperties"] = False
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            schema[key] = closed(schema[key])
    for key in ("allOf", "anyOf", "oneOf"):
        if key in schema:
            schema[key] = [closed(s) for s in schema[key]]
    return schema


def validate_mpijob(mpijob):
    try:
        import jsonschema
    except ImportError:
        print("jsonschema is not installed (it comes with kubernetes-validate): the MPIJob is "
              "not validated against the MPI Operator's CRD")
        return
    url = os.environ.get("MPIJOB_CRD_URL", MPIJOB_CRD_URL)
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            text = response.read().decode("utf-8")
    except OSError as e:
        print(f"the MPI Operator's CRD cannot be fetched ({e}): the MPIJob is not validated "
              f"against it ({url})")
        return
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    crds = [d for d in yaml.load_all(text, Loader=loader)
            if d and d.get("kind") == "CustomResourceDefinition"
            and d["metadata"]["name"] == "mpijobs.kubeflow.org"]
    if len(crds) != 1:
        fail(f"{url}: no CustomResourceDefinition mpijobs.kubeflow.org")
    group, version = mpijob["apiVersion"].split("/")
    assert crds[0]["spec"]["group"] == group
    (schema,) = [v["schema"]["openAPIV3Schema"] for v in crds[0]["spec"]["versions"]
                 if v["name"] == version]
    try:
        jsonschema.Draft7Validator(closed(schema)).validate(mpijob)
    except jsonschema.ValidationError as e:
        where = ".".join(str(p) for p in e.path)
        fail(f"solve-mpi.yaml against the MPI Operator's CRD: {where}: {e.message}")
    print(f"solve-mpi.yaml: valid against the MPI Operator's CRD ({url}), strict")


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    othello = os.path.abspath(sys.argv[1])
    mpi_othello = sys.argv[2] if len(sys.argv) == 3 else None
    filled = {}
    pod = fill("work-pod.yaml", dict(IMAGE=IMAGE, CLAIM=CLAIM))
    filled["work-pod.yaml"] = pod
    assert pod["apiVersion"] == "v1" and pod["kind"] == "Pod"
    check_volume(pod["spec"], dict(CLAIM=CLAIM))
    check_claim(filled)
    launcher = check_mpijob(filled)
    check_containerfile()
    with tempfile.TemporaryDirectory() as root:
        check_solve(othello, root, filled)
    with tempfile.TemporaryDirectory() as root:
        check_train(othello, root, filled)
    with tempfile.TemporaryDirectory() as root:
        check_mpi(mpi_othello, othello, root, launcher)
    validate_kubernetes(filled)
    validate_mpijob(filled["solve-mpi.yaml"])


if __name__ == "__main__":
    main()
