#!/usr/bin/env python3
"""Runs the factord Python test suite for ctest (python.pytest) and fails
unless every test it holds ran and passed.

pytest alone exits 0 when tests are skipped, and a suite whose files stop
being collected would shrink unnoticed. So this script:
  1. collects the suite (pytest --collect-only), counts the items, and
     checks that every test function of tests/python/test_*.py gave at
     least one (a duplicate name, say, would hide one);
  2. runs it with a JUnit XML report (-rs lists any skip with its reason);
  3. fails when pytest failed, when any test was skipped, xfailed or
     errored, or when fewer tests ran than were collected.
It ends with the closing line "python.pytest: N passed, N failed".
Extra arguments go to pytest (e.g. -k NAME, which the count then follows).
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent


def pytest_command(*args: str) -> list:
    return [sys.executable, "-m", "pytest", "-c", str(HERE / "pytest.ini"),
            "--rootdir", str(HERE), str(HERE), *args]


def defined_tests() -> list:
    """"file::name" of every test function pytest should collect: top-level
    test_* functions and test_* methods of Test* classes of test_*.py (a
    name defined twice appears twice)."""
    names = []
    for path in sorted(HERE.glob("test_*.py")):
        for node in ast.parse(path.read_text(), str(path)).body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                names.append(f"{path.name}::{node.name}")
            elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
                names += [f"{path.name}::{node.name}::{m.name}" for m in node.body
                          if isinstance(m, ast.FunctionDef) and m.name.startswith("test_")]
    return names


def collected_tests(listing: str) -> set:
    """"file::name" of the items of `pytest --collect-only -q` (parameters
    dropped)."""
    names = set()
    for line in listing.splitlines():
        if "::" in line and not line.startswith(" "):
            path, _, rest = line.strip().partition("::")
            names.add(f"{Path(path).name}::{rest.split('[', 1)[0]}")
    return names


def main() -> int:
    extra = sys.argv[1:]
    collect = subprocess.run(pytest_command("--collect-only", "-q", *extra),
                             capture_output=True, text=True)
    # "92 tests collected", or "11/93 tests collected (82 deselected)".
    found = re.search(r"(?:(\d+)/)?(\d+) tests? collected", collect.stdout)
    if collect.returncode != 0 or not found:
        sys.stdout.write(collect.stdout + collect.stderr)
        print("python.pytest: collecting the suite failed")
        return 1
    collected = int(found.group(1) or found.group(2))
    if not extra:
        defined = defined_tests()
        duplicates = sorted({name for name in defined if defined.count(name) > 1})
        if duplicates:
            print("python.pytest: test functions defined twice (pytest runs only the "
                  "last): " + ", ".join(duplicates))
            return 1
        missing = sorted(set(defined) - collected_tests(collect.stdout))
        if missing:
            print("python.pytest: test functions that pytest did not collect: "
                  + ", ".join(missing))
            return 1

    with tempfile.TemporaryDirectory() as tmp:
        junit = Path(tmp) / "junit.xml"
        run = subprocess.run(pytest_command("-rs", f"--junitxml={junit}", *extra))
        if not junit.exists():
            print(f"python.pytest: pytest exited {run.returncode} without a report")
            return 1
        root = ET.parse(junit).getroot()
    suite = root if root.tag == "testsuite" else root.find("testsuite")
    count = {k: int(suite.get(k, 0)) for k in ("tests", "failures", "errors", "skipped")}
    passed = count["tests"] - count["failures"] - count["errors"] - count["skipped"]
    problems = []
    if run.returncode != 0:
        problems.append(f"pytest exited {run.returncode}")
    if count["skipped"]:
        problems.append(f"{count['skipped']} skipped (a skip is a failure here)")
    if count["errors"]:
        problems.append(f"{count['errors']} errors")
    if count["tests"] < collected:
        problems.append(f"only {count['tests']} of {collected} collected tests ran")
    for problem in problems:
        print(f"python.pytest: {problem}")
    print(f"python.pytest: {passed} passed, {count['failures'] + count['errors']} failed"
          + (f", {count['skipped']} skipped" if count["skipped"] else ""))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
