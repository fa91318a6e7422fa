#!/usr/bin/python3
"""Plots the JSON lines of bench/scale_benchmark (docs/measurements/scale_benchmark.md).

Usage: scripts/plot_scale.py [results.jsonl] [output_dir]
       scripts/plot_scale.py --table [results.jsonl]
  results.jsonl  defaults to docs/measurements/scale_benchmark.jsonl
  output_dir     defaults to docs/images
  --table        prints the Markdown table of docs/measurements/
                 scale_benchmark.md instead of plotting (no matplotlib needed)

Writes
  scale_analyze_factorize.png  analyze + factorize time against n, log-log,
                               one panel a family: factord, MUMPS, CHOLMOD
  scale_solve.png              solve time against n, the same panels
  scale_gflops.png             GFlop/s against front size: factord's dense
                               front kernel (full m x m fronts), each sparse
                               factorization (its flop count / its numeric
                               time, at its largest front), and OpenBLAS'
                               dgemm as a horizontal line
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOLVERS = [("factord", "factord ldlt", "C0", "o"),
           ("mumps", "MUMPS", "C1", "s"),
           ("cholmod", "CHOLMOD", "C2", "^")]
FAMILY_TITLES = {
    "poisson3d": "3D Poisson, 7-point (SPD)",
    "stokes_mac2d": "2D Stokes, MAC (saddle point)",
    "control_kkt2d": "2D optimal control KKT",
}


def load(path):
    machine, dgemm, fronts, cases = None, None, [], []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line.startswith("{"):
                continue
            record = json.loads(line)
            if "machine" in record:
                machine = record
            elif "dgemm" in record:
                # Measured at the start and the end of the run: the better.
                if dgemm is None or (record["dgemm"].get("gflops") or 0) > (
                        dgemm.get("gflops") or 0):
                    dgemm = record["dgemm"]
            elif "front" in record:
                fronts.append(record["front"])
            elif "family" in record:
                cases.append(record)
    return machine, dgemm, fronts, cases


def families_of(cases):
    seen = []
    for c in cases:
        if c["family"] not in seen:
            seen.append(c["family"])
    return seen


def time_panels(plt, cases, machine, key, ylabel, title, path):
    families = families_of(cases)
    if not families:
        return
    fig, axes = plt.subplots(1, len(families), figsize=(5 * len(families), 4.2),
                             squeeze=False)
    for ax, family in zip(axes[0], families):
        rows = sorted((c for c in cases if c["family"] == family),
                      key=lambda c: c["n"])
        for solver, label, color, marker in SOLVERS:
            pts = [(c["n"], c[solver][key]) for c in rows
                   if c.get(solver, {}).get("ok") and c[solver].get(key)]
            if pts:
                ax.loglog(*zip(*pts), marker=marker, color=color, label=label)
        ax.set_title(FAMILY_TITLES.get(family, family))
        ax.set_xlabel("n")
        ax.set_ylabel(ylabel)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    fig.suptitle(f"{title} ({subtitle(machine)})")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print(f"wrote {path}")


def subtitle(machine):
    if not machine:
        return ""
    m = machine["machine"]
    return (f"{m.get('model_name', '?')}, {m.get('cpus', '?')} CPUs, "
            f"{machine.get('threads', '?')} threads, median of "
            f"{machine.get('repeats', '?')}")


def gflops_panel(plt, cases, fronts, dgemm, machine, path):
    fig, ax = plt.subplots(figsize=(11, 5))
    for kernel, color in (("pivoting", "C0"), ("unpivoted", "C4"),
                          ("app", "C5")):
        for kind, style in (("indefinite", "o-"), ("quasidefinite", "d-."),
                            ("spd", "s--")):
            pts = sorted((f["m"], f["gflops"]) for f in fronts
                         if f["kind"] == kind and f.get("gflops")
                         and f.get("kernel", "pivoting") == kernel)
            if pts:
                ax.plot(*zip(*pts), style, color=color,
                        label=f"factord dense front, {kernel} kernel, {kind} "
                              "(m^3/3 / t)")
    markers = {"poisson3d": "o", "stokes_mac2d": "s", "control_kkt2d": "^"}
    for solver, label, color, _ in SOLVERS:
        for family in families_of(cases):
            rows = [c[solver] for c in cases if c["family"] == family
                    and c.get(solver, {}).get("ok")
                    and c[solver].get("largest_front")]
            pts = [(r["largest_front"], r["gflops"]) for r in rows
                   if r.get("gflops")]
            if pts:
                ax.scatter(*zip(*sorted(pts)), color=color,
                           marker=markers.get(family, "x"), alpha=0.8,
                           label=f"{label} sparse, {family}")
    if dgemm and dgemm.get("gflops"):
        ax.axhline(dgemm["gflops"], color="k", linestyle=":",
                   label=f"OpenBLAS dgemm n={dgemm['n']}: "
                         f"{dgemm['gflops']:.1f} GFlop/s")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("front order m (sparse: the largest front)")
    ax.set_ylabel("GFlop/s")
    ax.set_ylim(bottom=0)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=6, loc="center left", bbox_to_anchor=(1.01, 0.5))
    no_flops = [c for c in cases
                if c.get("factord", {}).get("ok") and not c["factord"].get("gflops")]
    note = (" (factord sparse: hollow = analysis' flop estimate)"
            if no_flops else "")
    ax.set_title(f"GFlop/s against front size{note}\n{subtitle(machine)}",
                 fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print(f"wrote {path}")


def fmt(v, digits=3):
    if v is None:
        return "-"
    return f"{v:.{digits}g}"


def gflops_cell(r):
    if r.get("gflops"):
        return fmt(r["gflops"])
    return "-"


def table(path):
    machine, dgemm, fronts, cases = load(path)
    print(f"Machine: {subtitle(machine)}.")
    if dgemm:
        print(f"OpenBLAS dgemm (n = {dgemm['n']}, {dgemm['threads']} threads): "
              f"{dgemm['gflops']:.1f} GFlop/s.")
    print()
    print("| family | k | n | solver | analyze s | factorize s | "
          "analyze+factorize s | solve s | nnz(L) | largest front | GFlop/s | "
          "rel. residual | inertia ok | ratio a+f | ratio solve |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for c in cases:
        for solver, label, _, _ in SOLVERS:
            r = c.get(solver)
            if not r:
                continue
            if not r.get("ok"):
                print(f"| {c['family']} | {c['k']} | {c['n']} | {label} | "
                      f"failed: {r.get('error', '')} |" + " |" * 10)
                continue
            ratio_af = ratio_s = "-"
            if solver == "factord":
                ratio_af = (f"{fmt(c.get('ratio_mumps_analyze_factorize'))} M"
                            + (f", {fmt(c.get('ratio_cholmod_analyze_factorize'))} C"
                               if "cholmod" in c else ""))
                ratio_s = (f"{fmt(c.get('ratio_mumps_solve'))} M"
                           + (f", {fmt(c.get('ratio_cholmod_solve'))} C"
                              if "cholmod" in c else ""))
            inertia = r.get("inertia_matches")
            if solver == "cholmod":
                inertia = "(SPD)"
            factorize = r.get("preprocess_s", 0) + r["factorize_s"]
            print(f"| {c['family']} | {c['k']} | {c['n']} | {label} | "
                  f"{fmt(r['analyze_s'])} | {fmt(factorize)} | "
                  f"{fmt(r['analyze_factorize_s'])} | {fmt(r['solve_s'])} | "
                  f"{r['nnz_factor']:.3g} | {r.get('largest_front') or '-'} | "
                  f"{gflops_cell(r)} | {fmt(r.get('relative_residual'), 2)} | "
                  f"{inertia} | {ratio_af} | {ratio_s} |")
    print()
    print("| dense front m | kind | kernel | seconds | GFlop/s |")
    print("|---|---|---|---|---|")
    for f in fronts:
        gflops = fmt(f.get("gflops"))
        if f.get("passed") is False:
            gflops = "failed the a-posteriori test"
        print(f"| {f['m']} | {f['kind']} | {f.get('kernel', 'pivoting')} | "
              f"{fmt(f['seconds'])} | {gflops} |")
    return 0


def main(argv):
    if len(argv) > 1 and argv[1] == "--table":
        return table(argv[2] if len(argv) > 2 else os.path.join(
            ROOT, "docs", "measurements", "scale_benchmark.jsonl"))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_scale.py needs matplotlib for /usr/bin/python3: "
              "sudo apt-get install python3-matplotlib", file=sys.stderr)
        return 1
    results = argv[1] if len(argv) > 1 else os.path.join(
        ROOT, "docs", "measurements", "scale_benchmark.jsonl")
    out = argv[2] if len(argv) > 2 else os.path.join(ROOT, "docs", "images")
    os.makedirs(out, exist_ok=True)
    machine, dgemm, fronts, cases = load(results)
    time_panels(plt, cases, machine, "analyze_factorize_s",
                "analyze + factorize [s]", "Analyze + factorize",
                os.path.join(out, "scale_analyze_factorize.png"))
    time_panels(plt, cases, machine, "solve_s", "solve [s]", "Solve",
                os.path.join(out, "scale_solve.png"))
    gflops_panel(plt, cases, fronts, dgemm, machine,
                 os.path.join(out, "scale_gflops.png"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
