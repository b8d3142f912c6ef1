#!/usr/bin/env python3
"""Turns bench/run.sh's measurements into the performance bars' table: every row with its bar and goal, met or not
on wall clock and on CPU (user+system, steadier on a shared machine), and the peak-RSS rows.

    summarize.py OUT_DIR      prints Markdown; also writes OUT_DIR/results.json

Reads OUT_DIR/t-NAME.json (hyperfine exports), rss-NAME.kib (GNU time), skipped-NAME.txt (a reference
that could not run, and why), run.json, load-*.txt, and big/rows-N/m-NAME.json (the big runs).
Every row of the table is in results.json, measured or not, with its status saying which.
"""
import glob, json, os, re, statistics, sys

out = sys.argv[1]


def read(path, default=None):
    return open(path).read().strip() if os.path.exists(path) else default


run = json.loads(read(os.path.join(out, "run.json"), "{}"))
rows = run.get("rows")


def hyperfine(name):
    """{"wall": median seconds, "cpu": mean user+system seconds (what hyperfine exports)} or None."""
    path = os.path.join(out, f"t-{name}.json")
    if not os.path.exists(path):
        return None
    result = json.load(open(path))["results"][0]
    return {"wall": statistics.median(result["times"]), "cpu": result["user"] + result["system"]}


def in_process(name):
    """A Python reference's own time of its work (baselines.py, BASELINE_TIMES): median wall and cpu."""
    path = os.path.join(out, f"inproc-{name}.jsonl")
    if not os.path.exists(path):
        return None
    runs = [json.loads(line) for line in open(path) if line.strip()]
    if not runs:
        return None
    return {"wall": statistics.median(r["wall"] for r in runs), "cpu": statistics.median(r["cpu"] for r in runs)}


def rss_mib(name):
    kib = read(os.path.join(out, f"rss-{name}.kib"))
    return None if kib is None else int(kib) / 1024


def skipped(name):
    return read(os.path.join(out, f"skipped-{name}.txt"))


def big(size, name):
    """A big run's medians: {"wall", "cpu", "rss" (MiB, the largest of its runs), "runs"} or None."""
    path = os.path.join(out, "big", f"rows-{size}", f"m-{name}.json")
    if not os.path.exists(path):
        return None
    m = json.load(open(path))
    runs = m["runs"]
    return {"wall": statistics.median(r["wall"] for r in runs),
            "cpu": statistics.median(r["user"] + r["system"] for r in runs),
            "rss": max(r["rss_kib"] for r in runs) / 1024, "runs": len(runs), "key": m["key"]}


NAMES = ["check-csv", "py-csv-reader", "polars", "check-xlsx", "calamine", "sqlite3-import", "pull",
         "hand-edit-sync", "store-edit-sync", "noop-sync", "deleted-noop-sync", "status", "export-xlsx",
         "xlsxwriter", "openpyxl"]
whole = {n: hyperfine(n) for n in NAMES}
inproc = {n: in_process(n) for n in NAMES}
# The Python references count in-process, as the bars' table states; the whole process stays in the
# medians table.
measured = {n: inproc[n] or whole[n] for n in NAMES}
RSS_NAMES = ["pull", "hand-edit-sync", "store-edit-sync", "check-csv", "noop-sync", "deleted-noop-sync",
             "status", "check-xlsx", "export-xlsx"]
rss = {n: rss_mib(n) for n in RSS_NAMES}

table = []


def met(value, limit):
    return None if value is None or limit is None else value <= limit


def add(id, what, unit, wall, cpu, bar, goal, status, mine=None, ref=None):
    table.append({"id": id, "what": what, "unit": unit, "sheetsync": mine, "reference": ref,
                  "wall": wall, "cpu": cpu, "bar": bar, "goal": goal,
                  "bar_met_wall": met(wall, bar), "bar_met_cpu": met(cpu, bar),
                  "goal_met_wall": met(wall, goal), "goal_met_cpu": met(cpu, goal), "status": status})


def why_missing(*names):
    for n in names:
        if skipped(n):
            return f"skipped: {n}: {skipped(n)}"
    return f"not measured: {', '.join(n for n in names if measured.get(n) is None)}"


def ratio(id, what, mine, ref, bar, goal):
    a, b = measured.get(mine), measured.get(ref)
    if a is None or b is None:
        add(id, what, "×", None, None, bar, goal, why_missing(mine, ref), mine, ref)
    else:
        add(id, what, "×", a["wall"] / b["wall"], a["cpu"] / b["cpu"], bar, goal, "measured", mine, ref)


def seconds(id, what, mine, bar, goal):
    a = measured.get(mine)
    if a is None:
        add(id, what, "s", None, None, bar, goal, why_missing(mine), mine)
    else:
        add(id, what, "s", a["wall"], a["cpu"], bar, goal, "measured", mine)


def peak(id, what, mine, bar, goal):
    m = rss.get(mine)
    add(id, what, "MiB", m, None, bar, goal, "measured" if m is not None else why_missing(mine), mine)


# The performance bars' table, in its order; bars and goals as stated (ratios, seconds, MiB).
ratio("check-csv/csv-reader", "`check DIR` vs Python `csv.reader`", "check-csv", "py-csv-reader", 0.5, 0.25)
ratio("check-csv/polars", "`check DIR` vs `polars.read_csv`", "check-csv", "polars", 2.0, 1.0)
ratio("check-xlsx/calamine", "`check book.xlsx` vs python-calamine, all five sheets", "check-xlsx", "calamine", 1.0, 0.5)
ratio("pull/sqlite3-import", "first `pull` into an empty store vs `sqlite3 .import`", "pull", "sqlite3-import", 4.0, 2.0)
ratio("hand-edit-sync/check-csv", "`sync` after one row edited by hand / `check DIR`", "hand-edit-sync", "check-csv", 1.5, 1.1)
ratio("store-edit-sync/check-csv", "`sync` after one row edited in the store / `check DIR`", "store-edit-sync", "check-csv", 1.5, 1.1)
peak("rss:pull", "peak RSS, first pull", "pull", 250, 120)
peak("rss:hand-edit-sync", "peak RSS, sync after one row edited by hand", "hand-edit-sync", 250, 150)
peak("rss:store-edit-sync", "peak RSS, sync after one row edited in the store", "store-edit-sync", 250, 150)

# The big runs: 200k as a ratio to this run's time of the same sync ("linear" read as ≤ 2.0×, "flat
# memory" as the 100k goal of 150 MiB); 1M in seconds and MiB.
for kind, label in [("hand-edit-sync", "by hand"), ("store-edit-sync", "in the store")]:
    b, base = big(200000, kind), measured.get(kind)
    what = f"200k rows: sync after one row edited {label}, vs the {rows or '?'}-row time"
    if b is None or base is None:
        status = "not run (BIG=1 or SIZES=200000)" if b is None else why_missing(kind)
        add(f"200k:{kind}/base", what, "×", None, None, 2.1, 2.0, status, f"200k {kind}", kind)
    else:
        status = "measured" if rows == 100000 else f"measured, but against {rows} rows: the bar is for 100k"
        if f"binary={run.get('binary')} " not in b["key"] + " ":
            status = "measured, but the base run timed another sheetsync binary: run both again"
        add(f"200k:{kind}/base", what, "×", b["wall"] / base["wall"], b["cpu"] / base["cpu"], 2.1, 2.0, status,
            f"200k {kind}", kind)
    add(f"rss:200k:{kind}", f"200k rows: peak RSS, sync after one row edited {label}", "MiB",
        None if b is None else b["rss"], None, 400, 150, "measured" if b else "not run (BIG=1 or SIZES=200000)",
        f"200k {kind}")
for kind, label, bar, goal, rss_bar, rss_goal in [("first-sync", "first sync (empty store)", 30, 15, 1024, None),
                                                   ("store-edit-sync", "sync after one store edit", 10, 2, 500, 300)]:
    b = big(1000000, kind)
    status = "measured" if b else "not run (BIG=1 or SIZES=1000000)"
    add(f"1m:{kind}", f"1M rows: {label}", "s", b and b["wall"], b and b["cpu"], bar, goal, status, f"1M {kind}")
    add(f"rss:1m:{kind}", f"1M rows: peak RSS, {label}", "MiB", b and b["rss"], None, rss_bar, rss_goal, status,
        f"1M {kind}")

seconds("deleted-noop-sync", f"no-op sync after one row was deleted in the store ({rows or '?'} rows)", "deleted-noop-sync", 0.1, 0.05)
seconds("status", f"`status` ({rows or '?'} rows)", "status", 0.2, 0.05)
# Kept from the earlier tables (the XLSX export target; the no-op sync).
ratio("export-xlsx/xlsxwriter", "export XLSX vs XlsxWriter `constant_memory`", "export-xlsx", "xlsxwriter", 0.3, None)
ratio("noop-sync/check-csv", "no-op sync right after a sync / `check DIR`", "noop-sync", "check-csv", 1.5, None)

# Every big measurement, including those without a bar (200k first sync, 1M hand edit).
big_runs = []
for path in sorted(glob.glob(os.path.join(out, "big", "rows-*", "m-*.json"))):
    size = int(re.search(r"rows-(\d+)", path).group(1))
    name = re.search(r"m-(.+)\.json$", path).group(1)
    b = big(size, name)
    big_runs.append({"size": size, "name": name, **b})


def fmt(value, unit):
    if value is None:
        return "—"
    if unit == "×":
        return f"{value:.2f}×"
    if unit == "s":
        return f"{value:.3f} s" if value < 10 else f"{value:.1f} s"
    return f"{value:.0f} MiB"


def cell(value, digits=3):
    return "" if value is None else f"{value:.{digits}f}"


def limit(value, unit):
    if value is None:
        return "—"
    return f"≤ {value:g}{'×' if unit == '×' else ' ' + unit}"


def yes(flag):
    return "—" if flag is None else ("yes" if flag else "**no**")


load = (read(os.path.join(out, "load-start.txt"), "?"), read(os.path.join(out, "load-end.txt"), "?"))
lines = [f"Workbook: {rows} transactions (bench/generate.py --shape {run.get('shape', 'plain')}); sheetsync "
         f"at {run.get('commit', '?')} (Sources as of {run.get('sources_commit', '?')}; binary SHA-1 "
         f"{run.get('binary', '?')}), {run.get('date', '?')}; "
         f"load average at start {load[0]}, at end {load[1]}.", "",
         "| measure | wall | cpu | bar | goal | bar met (wall / cpu) | goal met (wall / cpu) |",
         "|---|---:|---:|---:|---:|:---:|:---:|"]
for r in table:
    if r["status"] != "measured" and not r["status"].startswith("measured,"):
        lines.append(f"| {r['what']} | {r['status']} | | {limit(r['bar'], r['unit'])} | {limit(r['goal'], r['unit'])} | | |")
        continue
    note = "" if r["status"] == "measured" else f" ({r['status']})"
    if r["unit"] == "MiB":
        lines.append(f"| {r['what']}{note} | {fmt(r['wall'], 'MiB')} | | {limit(r['bar'], 'MiB')} | "
                     f"{limit(r['goal'], 'MiB')} | {yes(r['bar_met_wall'])} | {yes(r['goal_met_wall'])} |")
    else:
        lines.append(f"| {r['what']}{note} | {fmt(r['wall'], r['unit'])} | {fmt(r['cpu'], r['unit'])} | "
                     f"{limit(r['bar'], r['unit'])} | {limit(r['goal'], r['unit'])} | "
                     f"{yes(r['bar_met_wall'])} / {yes(r['bar_met_cpu'])} | {yes(r['goal_met_wall'])} / {yes(r['goal_met_cpu'])} |")
lines += ["", "Medians of the hyperfine runs (wall; cpu = mean user+system) and peak RSS of one run; for the",
          "Python references also the work alone (in-process, what the ratios above use):", "",
          "| command | wall s | cpu s | in-process wall s | in-process cpu s | peak RSS MiB |",
          "|---|---:|---:|---:|---:|---:|"]


for name in NAMES:
    m, p, r = whole[name], inproc[name] or {}, rss.get(name)
    if m is not None:
        lines.append(f"| {name} | {cell(m['wall'])} | {cell(m['cpu'])} | {cell(p.get('wall'))} | {cell(p.get('cpu'))} | "
                     f"{cell(r, 0)} |")
    elif skipped(name):
        lines.append(f"| {name} | skipped: {skipped(name)} | | | | |")
if big_runs:
    lines += ["", "Big runs (median of the runs; peak RSS the largest of them):", "",
              "| rows | command | runs | wall s | cpu s | peak RSS MiB |", "|---:|---|---:|---:|---:|---:|"]
    for b in big_runs:
        lines.append(f"| {b['size']} | {b['name']} | {b['runs']} | {b['wall']:.2f} | {b['cpu']:.2f} | {b['rss']:.0f} |")
print("\n".join(lines))
json.dump({"rows": rows, "run": run, "load": {"start": load[0], "end": load[1]}, "table": table,
           "medians": measured, "whole_process": whole, "in_process": inproc, "rss_mib": rss, "big": big_runs},
          open(os.path.join(out, "results.json"), "w"), indent=2)
