#!/usr/bin/env python3
"""factord's --help, --version and a bad flag, on the built daemon.

The flags the daemon must list are the ABSL_FLAG definitions in the files
under server/ (read from the source, not a list kept here); the default each
must show is the one Abseil itself reports for it in --helpfull (a listing
factord does not format). --help must exit 0 with the flags on stdout,
--version must print "factord <version>", and an unknown flag must fail
with a message that names it.
"""
import argparse
import pathlib
import re
import subprocess
import sys


def fail(message):
    print(f"FAIL: factord: {message}", file=sys.stderr)
    sys.exit(1)


def source_flags(server_dir):
    names = set()
    for path in sorted(pathlib.Path(server_dir).rglob("*.cc")):
        text = path.read_text()
        names.update(re.findall(r"\bABSL_FLAG\(\s*[\w:<>, ]+?,\s*(\w+)\s*,",
                                text))
    return names


def run(factord, *args):
    return subprocess.run([factord, *args], capture_output=True, text=True,
                          timeout=20)


def help_entries(help_text):
    """--name -> its entry ("--name=VALUE  description (default: X)"),
    whitespace collapsed."""
    entries = {}
    for chunk in re.split(r"\n(?=  --)", help_text):
        chunk = chunk.strip()
        match = re.match(r"--(\w+)", chunk)
        if match:
            entries[match.group(1)] = " ".join(chunk.split())
    return entries


def abseil_defaults(helpfull_text):
    """--name -> the default Abseil's --helpfull shows for it."""
    flat = " ".join(helpfull_text.split())
    return {name: value for name, value in
            re.findall(r"--(\w+) \(.*?\); default: (.*?);(?= --| Flags from|"
                       r" Try |$)", flat)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--factord", required=True)
    parser.add_argument("--server_dir", required=True)
    parser.add_argument("--version", required=True)
    args = parser.parse_args()

    names = source_flags(args.server_dir)
    if len(names) < 5:
        fail(f"found only {len(names)} ABSL_FLAG names under "
             f"{args.server_dir}; the pattern no longer matches the source")

    shown = run(args.factord, "--help")
    if shown.returncode != 0:
        fail(f"--help exited {shown.returncode}")
    if shown.stderr:
        fail(f"--help wrote to stderr: {shown.stderr[:200]}")
    if not shown.stdout.startswith("Usage: factord "):
        fail("--help does not start with 'Usage: factord '")
    entries = help_entries(shown.stdout)

    full = run(args.factord, "--helpfull")  # Abseil's listing (exits 1)
    defaults = abseil_defaults(full.stdout)

    missing = sorted(names - entries.keys())
    if missing:
        fail(f"--help does not list {missing}")
    extra = sorted(entries.keys() - names - {"help", "helpfull", "version"})
    if extra:
        fail(f"--help lists flags not defined under server/: {extra}")
    for name in sorted(names):
        if name not in defaults:
            fail(f"Abseil's --helpfull shows no default for --{name}")
        expected = f"(default: {defaults[name]})"
        if expected not in entries[name]:
            fail(f"--{name}: expected {expected} in: {entries[name]}")
    print(f"--help: exit 0, {len(names)} flags from server/, each with "
          f"Abseil's default")

    version = run(args.factord, "--version")
    if version.returncode != 0:
        fail(f"--version exited {version.returncode}")
    if version.stdout != f"factord {args.version}\n":
        fail(f"--version printed {version.stdout!r}, expected "
             f"'factord {args.version}'")
    print(f"--version: {version.stdout.strip()}")

    bad = "--no_such_flag_for_the_test"
    wrong = run(args.factord, bad)
    if wrong.returncode == 0:
        fail(f"{bad} exited 0")
    if bad[2:] not in wrong.stderr:
        fail(f"{bad}: stderr does not name it: {wrong.stderr[:200]}")
    print(f"bad flag: exit {wrong.returncode}, "
          f"{wrong.stderr.strip().splitlines()[0]}")
    print("PASS: factord")


if __name__ == "__main__":
    main()
