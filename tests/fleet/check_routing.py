#!/usr/bin/env python3
"""Checks from the daemons' request logs that every request naming a matrix
reached one daemon.

Each factord writes one line per request with `rpc=<RPC> matrix=<ID>`
(`matrix=-` when the request names none). Usage:

  check_routing.py [--moved-from NAME] NAME=LOG[:FIRST_LINE] ...

reads each daemon's LOG from line FIRST_LINE (1-based, default 1) and fails
(exit 1) when one matrix ID was named in requests to two daemons or more.
With --moved-from NAME (a daemon that was stopped or killed during the
window), an ID may also have reached one other daemon after NAME: the
matrices of NAME move, the others stay where they were. Prints, per daemon,
the requests and distinct IDs it got.
"""
import re
import sys
from collections import defaultdict

LINE = re.compile(r"\brpc=(\S+) matrix=(\S+)")


def main(argv):
    moved_from = None
    specs = []
    args = iter(argv)
    for arg in args:
        if arg == "--moved-from":
            moved_from = next(args)
        else:
            specs.append(arg)
    if not specs:
        print(__doc__, file=sys.stderr)
        return 2
    daemons_of = defaultdict(set)
    for spec in specs:
        name, _, rest = spec.partition("=")
        path, _, first = rest.partition(":")
        first = int(first or 1)
        requests = 0
        ids = set()
        with open(path, encoding="utf-8", errors="replace") as log:
            for number, line in enumerate(log, 1):
                if number < first:
                    continue
                m = LINE.search(line)
                if not m or m.group(2) == "-":
                    continue
                requests += 1
                ids.add(m.group(2))
                daemons_of[m.group(2)].add(name)
        print(f"  {name}: {requests} requests naming a matrix, "
              f"{len(ids)} matrix IDs")
    bad = []
    moved = 0
    for matrix, daemons in sorted(daemons_of.items()):
        if len(daemons) == 1:
            continue
        if (moved_from is not None and len(daemons) == 2
                and moved_from in daemons):
            moved += 1
            continue
        bad.append(f"{matrix}: {', '.join(sorted(daemons))}")
    print(f"  {len(daemons_of)} matrix IDs in all"
          + (f", {moved} moved away from {moved_from}" if moved_from else ""))
    if bad:
        print(f"FAIL: {len(bad)} matrix IDs reached more than one daemon:",
              file=sys.stderr)
        for b in bad[:20]:
            print("  " + b, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
