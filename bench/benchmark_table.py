#!/usr/bin/env python3
"""Markdown tables from ldlt_benchmark's JSON lines (stdin or a file).

    build/bench/ldlt_benchmark > bench.jsonl
    python3 bench/benchmark_table.py bench.jsonl
"""
import json
import statistics
import sys


def fmt(v, digits=3):
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.{digits}g}"
    return str(v)


def main():
    src = open(sys.argv[1]) if len(sys.argv) > 1 else sys.stdin
    cases, reuse, summaries = [], [], []
    for line in src:
        line = line.strip()
        if not line.startswith("{"):
            continue
        obj = json.loads(line)
        if "case" in obj:
            cases.append(obj)
        elif "reuse" in obj:
            reuse.append(obj)
        else:
            summaries.append(obj)
    print("| case | n | factord fact. s | MUMPS fact. s | ratio | factord "
          "solve s | MUMPS solve s | nnz(L) factord | nnz(L) MUMPS | "
          "residual factord | residual MUMPS | neg. factord / MUMPS | "
          "zero factord / MUMPS |")
    print("|---" * 13 + "|")
    for c in cases:
        f, m = c.get("factord", {}), c.get("mumps", {})
        if not f.get("ok") or not m.get("ok"):
            print(f"| {c['case']} | {c.get('n', '-')} | "
                  f"{f.get('error', '')} | {m.get('error', '')} |" +
                  " |" * 9)
            continue
        neg = f"{f['inertia'][1]} / {m['negative_pivots']}"
        if f["inertia"][1] != m["negative_pivots"]:
            neg = f"**{neg}**"
        zero = f"{f['inertia'][2]} / {m['null_pivots']}"
        m_fact = m.get("factorize_total_s", m["factorize_s"])
        ratio = f["factorize_s"] / max(1e-9, m_fact)
        retries = m.get("retries", 0)
        m_fact_text = fmt(m_fact) + (f" ({retries} retries)" if retries else "")
        print(f"| {c['case']} | {c['n']} | {fmt(f['factorize_s'])} | "
              f"{m_fact_text} | {fmt(ratio, 2)} | "
              f"{fmt(f['solve_s'])} | {fmt(m['solve_s'])} | "
              f"{f['nnz_factor']} | {m['nnz_factor']} | "
              f"{fmt(f['relative_residual'], 2)} | "
              f"{fmt(m.get('relative_residual'), 2)} | {neg} | {zero} |")
    print()
    print("| SPD matrix | factord fact. s | CHOLMOD fact. s | factord solve s "
          "| CHOLMOD solve s | nnz(L) factord | nnz(L) CHOLMOD |")
    print("|---" * 7 + "|")
    for c in cases:
        ch, f = c.get("cholmod"), c.get("factord", {})
        if not ch or not f.get("ok"):
            continue
        print(f"| {c['case']} | {fmt(f['factorize_s'])} | "
              f"{fmt(ch['factorize_s'])} | {fmt(f['solve_s'])} | "
              f"{fmt(ch['solve_s'])} | {f['nnz_factor']} | "
              f"{ch['nnz_factor']} |")
    print()
    print("| reuse problem | n | first analyze s | first analyze+factorize s "
          "| second analyze s | second analyze+factorize s | analyze "
          "fraction | total fraction |")
    print("|---" * 8 + "|")
    for r in reuse:
        print(f"| {r['reuse']} | {r['n']} | {fmt(r['first_analyze_s'])} | "
              f"{fmt(r['first_analyze_factorize_s'])} | "
              f"{fmt(r['second_analyze_s'])} | "
              f"{fmt(r['second_analyze_factorize_s'])} | "
              f"{fmt(r['analyze_fraction'], 2)} | {fmt(r['ratio'], 2)} |")
    print()
    for s in summaries:
        print("    " + json.dumps(s))
    # Medians restricted to the larger systems, for the text.
    big = [c for c in cases if c.get("n", 0) >= 1000 and
           c.get("factord", {}).get("ok") and c.get("mumps", {}).get("ok")]
    if big:
        fr = [c["factord"]["factorize_s"] /
              max(1e-9, c["mumps"].get("factorize_total_s",
                                       c["mumps"]["factorize_s"]))
              for c in big]
        sr = [c["factord"]["solve_s"] / max(1e-9, c["mumps"]["solve_s"])
              for c in big]
        print(f"\nn >= 1000: {len(big)} cases, median factorize ratio "
              f"{statistics.median(fr):.3g}, median solve ratio "
              f"{statistics.median(sr):.3g}")


if __name__ == "__main__":
    main()
