#!/usr/bin/env python3
"""Every ratio of the performance bars for several ledger shapes side by side, from one run of bench/run.sh.

    shapes.py OUT_DIR SHAPE=DIR...     prints Markdown; also writes OUT_DIR/shapes.json

Each DIR holds one shape's measurements and its results.json (summarize.py). The ratios are those of the
bars (wall / cpu, the Python references in-process); "one path" compares each shape's sheetsync commands with
the first shape's (the canonical ledger): a user-shaped ledger may cost at most 1.2× it, a dirty one 1.5×.
"""
import json, os, sys

out, pairs = sys.argv[1], [a.split("=", 1) for a in sys.argv[2:]]
results = {name: json.load(open(os.path.join(d, "results.json"))) for name, d in pairs}
dirs = dict(pairs)
shapes = [name for name, _ in pairs]
base = shapes[0]

# The bars of the issue that asks for every shape: (id, what, mine, reference, bar).
RATIOS = [
    ("check-csv/csv-reader", "`check DIR` / Python `csv.reader`", "check-csv", "py-csv-reader", 0.5),
    ("check-csv/polars", "`check DIR` / `polars.read_csv`", "check-csv", "polars", 2.0),
    ("check-xlsx/calamine", "`check book.xlsx` / python-calamine", "check-xlsx", "calamine", 1.0),
    ("pull/sqlite3-import", "first `pull` / `sqlite3 .import`", "pull", "sqlite3-import", 4.0),
    ("hand-edit-sync/check-csv", "`sync` after one hand edit / `check DIR`", "hand-edit-sync", "check-csv", 1.5),
    ("store-edit-sync/check-csv", "`sync` after one store edit / `check DIR`", "store-edit-sync", "check-csv", 1.0),
    ("noop-sync/check-csv", "no-op `sync` / `check DIR`", "noop-sync", "check-csv", None),
]
RSS = [("pull", "first pull"), ("hand-edit-sync", "sync after one hand edit"),
       ("store-edit-sync", "sync after one store edit"), ("check-csv", "`check DIR`"), ("check-xlsx", "`check book.xlsx`")]
ONE_PATH = [("check-csv", "`check DIR`"), ("check-xlsx", "`check book.xlsx`"), ("pull", "first `pull`"),
            ("hand-edit-sync", "`sync` after one hand edit"), ("store-edit-sync", "`sync` after one store edit")]
ONE_PATH_BAR = {"user": 1.2, "dirty": 1.5}


def median(shape, name):
    return (results[shape].get("medians") or {}).get(name)


def yes(value, bar):
    return "" if bar is None or value is None else ("yes" if value <= bar else "**no**")


def ratio_cell(a, b, bar):
    if a is None or b is None:
        return "—", None
    w, c = a["wall"] / b["wall"], a["cpu"] / b["cpu"]
    met = "" if bar is None else f" ({yes(w, bar)} / {yes(c, bar)})"
    return f"{w:.2f}× / {c:.2f}×{met}", {"wall": w, "cpu": c, "bar": bar,
                                        "met_wall": None if bar is None else w <= bar,
                                        "met_cpu": None if bar is None else c <= bar}


def exit_line(shape, name):
    path = os.path.join(dirs[shape], f"exit-{name}.txt")
    if not os.path.exists(path):
        return "—"
    lines = [line.strip() for line in open(path) if line.strip()]
    return "; ".join(lines[:2])


table = []
header = "| measure | bar | " + " | ".join(f"{s} (wall / cpu)" for s in shapes) + " |"
lines = ["Every ratio, wall / cpu (cpu = user+system; the Python references in-process), per ledger shape:", "",
         header, "|---|---:|" + "---:|" * len(shapes)]
for id, what, mine, ref, bar in RATIOS:
    cells = []
    for s in shapes:
        text, value = ratio_cell(median(s, mine), median(s, ref), bar)
        cells.append(text)
        table.append({"id": id, "shape": s, **(value or {"status": "not measured"})})
    lines.append(f"| {what} | {'—' if bar is None else f'≤ {bar:g}×'} | " + " | ".join(cells) + " |")
for name, what in RSS:
    cells = []
    for s in shapes:
        mib = (results[s].get("rss_mib") or {}).get(name)
        cells.append("—" if mib is None else f"{mib:.0f} MiB ({yes(mib, 150)})")
        table.append({"id": f"rss:{name}", "shape": s, "mib": mib, "bar": 150, "met": None if mib is None else mib <= 150})
    lines.append(f"| peak RSS, {what} | ≤ 150 MiB | " + " | ".join(cells) + " |")
for name, what in ONE_PATH:
    cells = []
    for s in shapes:
        if s == base:
            cells.append("(base)")
            continue
        bar = ONE_PATH_BAR.get(s)
        text, value = ratio_cell(median(s, name), median(base, name), bar)
        cells.append(text)
        table.append({"id": f"one-path:{name}", "shape": s, **(value or {"status": "not measured"})})
    lines.append(f"| one path: {what} vs the {base} ledger | ≤ 1.2× user, 1.5× dirty | " + " | ".join(cells) + " |")
lines += ["", "Medians in seconds (wall / cpu) per shape:", "",
          "| command | " + " | ".join(shapes) + " |", "|---|" + "---:|" * len(shapes)]
for name in ["check-csv", "py-csv-reader", "polars", "check-xlsx", "calamine", "sqlite3-import", "pull",
             "hand-edit-sync", "store-edit-sync", "noop-sync", "deleted-noop-sync", "status"]:
    cells = []
    for s in shapes:
        m = median(s, name)
        cells.append("—" if m is None else f"{m['wall']:.3f} / {m['cpu']:.3f}")
    lines.append(f"| {name} | " + " | ".join(cells) + " |")
lines += ["", "What `check` said (one untimed run of each, exit code and its summary):", "",
          "| shape | `check DIR` | `check book.xlsx` | first pull |", "|---|---|---|---|"]
for s in shapes:
    lines.append(f"| {s} | {exit_line(s, 'check-csv')} | {exit_line(s, 'check-xlsx')} | {exit_line(s, 'first-pull')} |")
loads = ", ".join(f"{s} {results[s]['load']['start']} → {results[s]['load']['end']}" for s in shapes)
run = results[base].get("run", {})
lines.insert(0, f"{run.get('rows', '?')} transactions per shape; sheetsync at {run.get('commit', '?')} (binary SHA-1 "
                f"{run.get('binary', '?')}), {run.get('date', '?')}; load average (start → end): {loads}.\n")
print("\n".join(lines))
json.dump({"shapes": shapes, "run": run, "table": table,
           "medians": {s: results[s].get("medians") for s in shapes},
           "rss_mib": {s: results[s].get("rss_mib") for s in shapes},
           "load": {s: results[s].get("load") for s in shapes}},
          open(os.path.join(out, "shapes.json"), "w"), indent=2)
