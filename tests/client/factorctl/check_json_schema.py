#!/usr/bin/python3
"""factorctl's --json output against docs/schema/factorctl-v1.schema.json.

Starts the built daemon on a free loopback port with bearer tokens and a
small --max_n, runs the built factorctl for every failure class that
docs/factorctl_json.md lists and for every command's success, and checks
each stdout line against the JSON Schema file (Debian's python3-jsonschema,
Draft 2020-12), then the class's exit code, code and reason.

usage: check_json_schema.py FACTORCTL FACTORD SCHEMA
Exit 0: every check passed; 1: one failed; 77 (ctest's skip): jsonschema is
not installed for this interpreter.
"""

import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time

try:
    import jsonschema
except ImportError:
    print("SKIP: python3-jsonschema is not installed for " + sys.executable +
          " (scripts/install_deps.sh installs it)", file=sys.stderr)
    sys.exit(77)

MAX_N = 100  # the daemon's --max_n: a larger upload is RESOURCE_EXHAUSTED
TOKEN = "schema-test-token"

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL: " + what, file=sys.stderr)
    return condition


def write_matrix(path, n, malformed=False, cols=None):
    """An n x n SPD tridiagonal matrix (2 on the diagonal, -1 beside it),
    lower triangle, symmetric; `cols` makes it n x cols general instead;
    `malformed` puts a column index out of range."""
    with open(path, "w") as f:
        if cols is not None:
            f.write("%%MatrixMarket matrix coordinate real general\n")
            f.write("%d %d 1\n1 %d 1.0\n" % (n, cols, cols))
            return
        f.write("%%MatrixMarket matrix coordinate real symmetric\n")
        f.write("%d %d %d\n" % (n, n, 2 * n - 1))
        for i in range(1, n + 1):
            f.write("%d %d 2.0\n" % (i, i))
            if i > 1:
                j = n + 5 if malformed and i == n else i - 1
                f.write("%d %d -1.0\n" % (i, j))


def free_port():
    """A loopback port nobody listens on (bound, then closed)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_daemon(factord, work, name="factord", extra_flags=()):
    tokens = os.path.join(work, "tokens")
    if not os.path.exists(tokens):
        with open(os.open(tokens, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
            f.write(TOKEN + " schema\n")
    log = open(os.path.join(work, name + ".log"), "w+")
    daemon = subprocess.Popen(
        [factord, "--listen=127.0.0.1:0", "--metrics_listen=",
         "--backend=cpu", "--threads=1", "--workers=1",
         "--max_n=%d" % MAX_N, "--auth_tokens_file=" + tokens,
         "--shutdown_grace=2s"] + list(extra_flags),
        stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    deadline = time.time() + 30
    while time.time() < deadline:
        log.seek(0)
        found = re.search(r"serving gRPC on port (\d+)", log.read())
        if found:
            return daemon, int(found.group(1)), log
        if daemon.poll() is not None:
            break
        time.sleep(0.05)
    log.seek(0)
    print("factord did not start:\n" + log.read(), file=sys.stderr)
    daemon.kill()
    sys.exit(1)


def main():
    factorctl, factord, schema_path = sys.argv[1:4]
    with open(schema_path) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)

    # The schema can fail: a failure object without its reason, and a
    # success object with an undocumented member, are refused.
    check(not validator.is_valid({"schema": "factorctl/1",
                                  "code": "NOT_FOUND", "message": "m"}),
          "the schema accepts a failure without a reason")
    check(not validator.is_valid({"schema": "factorctl/1", "command": "info",
                                  "extra": 1}),
          "the schema accepts an undocumented member")

    work = tempfile.mkdtemp(prefix="factorctl-schema.")
    small = os.path.join(work, "small.mtx")
    large = os.path.join(work, "large.mtx")
    broken = os.path.join(work, "broken.mtx")
    wide = os.path.join(work, "wide.mtx")
    write_matrix(small, 20)
    write_matrix(large, 2 * MAX_N)
    write_matrix(broken, 20, malformed=True)
    write_matrix(wide, 4, cols=5)
    daemon, port, log = start_daemon(factord, work)
    # A second daemon whose cache holds the small matrix (636 bytes) but not
    # one with n = MAX_N (3196 bytes): the cache-budget class.
    small_cache, small_cache_port, small_cache_log = start_daemon(
        factord, work, "factord-small-cache", ["--cache_bytes=2000"])
    medium = os.path.join(work, "medium.mtx")
    write_matrix(medium, MAX_N)
    server = "--server=127.0.0.1:%d" % port
    auth = "--token=" + TOKEN
    env = {k: v for k, v in os.environ.items()
           if k not in ("FACTORD_SERVER", "FACTORD_TOKEN")}
    seen = 0

    def factorctl_json(args, what):
        """Runs factorctl --json ARGS; returns (exit code, the object)."""
        nonlocal seen
        run = subprocess.run([factorctl, "--json"] + args, env=env,
                             capture_output=True, text=True, timeout=60)
        lines = run.stdout.splitlines()
        if not check(len(lines) == 1 and run.stdout.endswith("\n"),
                     "%s: not one line on stdout: %r (stderr %r)" %
                     (what, run.stdout, run.stderr)):
            return run.returncode, {}, run.stderr
        try:
            obj = json.loads(lines[0])
        except ValueError as e:
            check(False, "%s: not JSON (%s): %s" % (what, e, lines[0]))
            return run.returncode, {}, run.stderr
        if not check(validator.is_valid(obj),
                     "%s: does not match the schema: %s" % (what, lines[0])):
            # Which members are wrong, from the one variant it should be.
            variant = "failure" if "code" in obj else obj.get("command", "")
            if variant in schema["$defs"]:
                detail = {"$defs": schema["$defs"],
                          "$ref": "#/$defs/" + variant}
                for e in jsonschema.Draft202012Validator(detail).iter_errors(
                        obj):
                    print("  $defs/%s at %s: %s" %
                          (variant, e.json_path, e.message[-200:]),
                          file=sys.stderr)
        seen += 1
        return run.returncode, obj, run.stderr

    try:
        # Failure classes (docs/factorctl_json.md): args, exit code, code,
        # reason, and what stderr starts with.
        missing_file = os.path.join(work, "no-such-file.mtx")
        nobody = "--server=127.0.0.1:%d" % free_port()
        classes = [
            ("bad flag", ["list", "--bogus", server, auth],
             2, "INVALID_ARGUMENT", "USAGE", "factorctl: "),
            ("unknown command", ["frobnicate", server, auth],
             2, "INVALID_ARGUMENT", "USAGE", "factorctl: "),
            ("bad option name", ["run", small, "--method=cholesky", server,
                                 auth],
             2, "INVALID_ARGUMENT", "INVALID_OPTION", "factorctl: --method"),
            ("unreadable file", ["run", missing_file, server, auth],
             1, "INVALID_ARGUMENT", "FILE_UNREADABLE", "INVALID_ARGUMENT: "),
            ("malformed matrix", ["upload", broken, server, auth],
             1, "INVALID_ARGUMENT", "INVALID_MATRIX", "INVALID_ARGUMENT: "),
            ("non-square matrix", ["run", wide, server, auth],
             1, "INVALID_ARGUMENT", "INVALID_MATRIX", "INVALID_ARGUMENT: "),
            ("not found", ["factorize", "--id=nobody", server, auth],
             1, "NOT_FOUND", "NOT_FOUND", "NOT_FOUND: "),
            ("budget", ["upload", large, server, auth],
             1, "RESOURCE_EXHAUSTED", "MATRIX_TOO_LARGE",
             "RESOURCE_EXHAUSTED: "),
            ("cache budget", ["upload", medium, auth,
                              "--server=127.0.0.1:%d" % small_cache_port],
             1, "RESOURCE_EXHAUSTED", "CACHE_BUDGET", "RESOURCE_EXHAUSTED: "),
            ("no token", ["info", server],
             1, "UNAUTHENTICATED", "UNAUTHENTICATED", "UNAUTHENTICATED: "),
            ("wrong token", ["list", server, "--token=not-" + TOKEN],
             1, "UNAUTHENTICATED", "UNAUTHENTICATED", "UNAUTHENTICATED: "),
            ("unreachable daemon", ["info", nobody, "--timeout=10"],
             1, "UNAVAILABLE", "UNAVAILABLE", "UNAVAILABLE: "),
        ]
        for what, args, exit_code, code, reason, stderr_start in classes:
            rc, obj, err = factorctl_json(args, what)
            check(rc == exit_code, "%s: exit code %d, expected %d" %
                  (what, rc, exit_code))
            check(obj.get("code") == code, "%s: code %r, expected %r" %
                  (what, obj.get("code"), code))
            check(obj.get("reason") == reason, "%s: reason %r, expected %r" %
                  (what, obj.get("reason"), reason))
            check(obj.get("message", "") != "", what + ": empty message")
            check(err.startswith(stderr_start),
                  "%s: stderr %r does not start with %r" %
                  (what, err, stderr_start))

        # Generation mismatch: the matrix is at generation 1.
        rc, obj, _ = factorctl_json(["upload", small, "--id=g", server, auth],
                                    "upload")
        check(rc == 0 and obj.get("generation") == 1, "upload: %r" % obj)
        rc, obj, err = factorctl_json(
            ["update", small, "--id=g", "--expected_generation=7", server,
             auth], "generation mismatch")
        check(rc == 1 and obj.get("code") == "ABORTED" and
              obj.get("reason") == "GENERATION_MISMATCH" and
              obj.get("metadata") == {"expected": "7", "current": "1"} and
              err.startswith("ABORTED: "),
              "generation mismatch: exit %d, %r" % (rc, obj))

        # Every command's success object.
        successes = [
            ("update", ["update", small, "--id=g", "--expected_generation=1"]),
            ("factorize", ["factorize", "--id=g", "--method=ldlt"]),
            ("solve", ["solve", "--id=g", "--krylov=none"]),
            ("get", ["get", "--id=g"]),
            ("list", ["list"]),
            ("release", ["release", "--id=g"]),
            ("run", ["run", small, "--method=jacobi", "--krylov=cg"]),
            ("run --keep", ["run", small, "--id=k", "--keep"]),
            ("info", ["info"]),
        ]
        for what, args in successes:
            rc, obj, err = factorctl_json(args + [server, auth], what)
            check(rc == 0, "%s: exit code %d: %s" % (what, rc, err))
            check(err == "", "%s: stderr %r" % (what, err))
            check(obj.get("command") == args[0], "%s: command %r" %
                  (what, obj.get("command")))
            if "n" in obj:
                check(obj["n"] == 20, "%s: n = %r" % (what, obj["n"]))
        rc, obj, _ = factorctl_json(["info", server, auth], "info")
        check(obj.get("max_n") == MAX_N,
              "info: max_n %r, expected %d" % (obj.get("max_n"), MAX_N))
        rc, obj, _ = factorctl_json(["list", server, auth], "list")
        check([m.get("id") for m in obj.get("matrices", [])] == ["k"],
              "list after run --keep: %r" % obj)
    finally:
        for d, dlog in ((daemon, log), (small_cache, small_cache_log)):
            d.send_signal(signal.SIGTERM)
            try:
                d.wait(timeout=20)
            except subprocess.TimeoutExpired:
                d.kill()
            if failures:
                dlog.seek(0)
                print("--- %s\n%s" % (dlog.name, dlog.read()), file=sys.stderr)
            dlog.close()
        for name in os.listdir(work):
            os.remove(os.path.join(work, name))
        os.rmdir(work)

    print("%d factorctl --json objects checked against %s, %d failures" %
          (seen, os.path.basename(schema_path), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
