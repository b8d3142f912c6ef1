#!/usr/bin/env python3
"""Turns bench/run.sh's hyperfine exports and peak-RSS files into a table of medians and ratios.

    summarize.py OUT_DIR ROWS      prints Markdown; also writes OUT_DIR/results.json
"""
import json, os, statistics, sys

out, rows = sys.argv[1], int(sys.argv[2])


def median(name, cpu=False):
    """Median wall-clock seconds, or with cpu=True the mean user+system seconds (what hyperfine exports)."""
    path = os.path.join(out, f"t-{name}.json")
    if not os.path.exists(path):
        return None
    result = json.load(open(path))["results"][0]
    if cpu:
        return result["user"] + result["system"]
    return statistics.median(result["times"])


def rss_mib(name):
    path = os.path.join(out, f"rss-{name}.kib")
    if not os.path.exists(path):
        return None
    return int(open(path).read().strip()) / 1024


# (what, sheetsync command, reference, target ratio, how the ratio reads)
RATIOS = [
    ("check CSV vs Python csv.reader", "check-csv", "py-csv-reader", 0.5, "≤"),
    ("check CSV vs polars.read_csv", "check-csv", "polars", 2.0, "≤"),
    ("first pull vs sqlite3 .import", "pull", "sqlite3-import", 4.0, "≤"),
    ("no-op sync vs check CSV", "noop-sync", "check-csv", 1.5, "≤"),
    ("check XLSX vs python-calamine", "check-xlsx", "calamine", 1.5, "≤"),
    ("check XLSX vs openpyxl read_only", "check-xlsx", "openpyxl", 0.1, "≤"),
    ("export XLSX vs XlsxWriter constant_memory", "export-xlsx", "xlsxwriter", 0.3, "≤"),
]

names = ["check-csv", "py-csv-reader", "polars", "sqlite3-import", "pull", "noop-sync", "edit-sync",
         "check-xlsx", "calamine", "openpyxl", "export-xlsx", "xlsxwriter"]
times = {n: median(n) for n in names}
cpu = {n: median(n, cpu=True) for n in names}
lines = [f"Workbook: {rows} transactions (bench/generate.py). Medians of hyperfine runs, seconds:",
         "wall clock, and mean user+system CPU (steadier on a shared machine).", ""]
lines += ["| command | wall s | cpu s |", "|---|---:|---:|"]
for name in names:
    if times[name] is not None:
        lines.append(f"| {name} | {times[name]:.3f} | {cpu[name]:.3f} |")
lines += ["", "| target | sheetsync s | reference s | ratio (wall) | ratio (cpu) | target | met (wall) |",
          "|---|---:|---:|---:|---:|---:|:---:|"]
result = {"rows": rows, "medians": times, "cpu_medians": cpu, "ratios": [], "rss_mib": {}}
for label, mine, ref, target, _ in RATIOS:
    a, b = times.get(mine), times.get(ref)
    if a is None or b is None:
        continue
    ratio, cpu_ratio = a / b, cpu[mine] / cpu[ref]
    met = ratio <= target
    lines.append(f"| {label} | {a:.3f} | {b:.3f} | {ratio:.2f}× | {cpu_ratio:.2f}× | ≤ {target}× | {'yes' if met else 'NO'} |")
    result["ratios"].append({"what": label, "ratio": ratio, "cpu_ratio": cpu_ratio, "target": target, "met": met})
lines += ["", "| peak RSS | MiB | target | met |", "|---|---:|---:|:---:|"]
for name in ["check-csv", "pull", "noop-sync", "edit-sync", "check-xlsx", "export-xlsx"]:
    m = rss_mib(name)
    if m is None:
        continue
    result["rss_mib"][name] = m
    lines.append(f"| {name} | {m:.0f} | ≤ 250 | {'yes' if m <= 250 else 'NO'} |")
print("\n".join(lines))
json.dump(result, open(os.path.join(out, "results.json"), "w"), indent=2)
