#!/usr/bin/env python3
"""The reference readers and writers that bench/run.sh times sheetsync against.

    baselines.py csv-reader FOLDER      csv.reader over the five CSV files, every row materialized
    baselines.py polars FOLDER          polars.read_csv of the five files (all columns as text)
    baselines.py calamine BOOK.xlsx     python-calamine: every sheet's rows as Python values
    baselines.py openpyxl BOOK.xlsx     openpyxl read_only=True: every sheet's cell values
    baselines.py xlsxwriter FOLDER OUT  XlsxWriter constant_memory: the five CSV tabs as an .xlsx,
                                        amounts/integers as numbers, dates as date cells, like sheetsync

Each prints the row count it saw, so a run that read nothing shows. With BASELINE_TIMES=FILE set, each
also appends {"wall": s, "cpu": s} of the work alone to FILE (a JSON line): the in-process time the performance
bars' table compares against, without the interpreter's start-up and the package's import.
"""
import csv, datetime, json, os, sys, time

TABS = ["Transactions", "Receipts", "Categories", "RecurringRules", "Settings"]


def csv_reader(folder):
    n = 0
    for tab in TABS:
        with open(os.path.join(folder, tab + ".csv"), newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f))
            n += len(rows)
    print(n)


def polars(folder):
    n = 0
    for tab in TABS:
        df = pl.read_csv(os.path.join(folder, tab + ".csv"), infer_schema=False)
        n += df.height
    print(n)


def calamine(book):
    wb = CalamineWorkbook.from_path(book)
    n = 0
    for name in wb.sheet_names:
        n += len(wb.get_sheet_by_name(name).to_python())
    print(n)


def openpyxl(book):
    wb = ox.load_workbook(book, read_only=True, data_only=True)
    n = 0
    for ws in wb.worksheets:
        for row in ws.iter_rows(values_only=True):
            n += 1
    wb.close()
    print(n)


NUMERIC = {"year", "month", "amount", "sortOrder", "interval", "schemaVersion"}
DATES = {"date", "startDate", "endDate", "lastGeneratedDate"}
BOOLEANS = {"isActive", "isEnabled"}


def cell_kinds(header):
    """How each column is typed in a workbook, as sheetsync's export types it: "n" number, "d" date,
    "b" boolean, "s" text."""
    return ["n" if h in NUMERIC else "d" if h in DATES else "b" if h in BOOLEANS else "s" for h in header]


def xlsxwriter(folder, out):
    wb = xw.Workbook(out, {"constant_memory": True})
    date_format = wb.add_format({"num_format": "yyyy-mm-dd"})
    n = 0
    for tab in TABS:
        ws = wb.add_worksheet(tab)
        with open(os.path.join(folder, tab + ".csv"), newline="", encoding="utf-8") as f:
            reader = csv.reader(f)
            header = next(reader)
            ws.write_row(0, 0, header)
            kinds = cell_kinds(header)
            for r, row in enumerate(reader, start=1):
                for c, (kind, text) in enumerate(zip(kinds, row)):
                    if text == "":
                        continue
                    if kind == "n":
                        ws.write_number(r, c, float(text))
                    elif kind == "d":
                        ws.write_datetime(r, c, datetime.datetime.strptime(text, "%Y-%m-%d"), date_format)
                    elif kind == "b":
                        ws.write_boolean(r, c, text == "TRUE")
                    else:
                        ws.write_string(r, c, text)
                n += 1
    wb.close()
    print(n)


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    # The package is imported before the clock starts: the in-process time is the reading alone.
    if command == "polars":
        import polars as pl
    elif command == "calamine":
        from python_calamine import CalamineWorkbook
    elif command == "openpyxl":
        import openpyxl as ox
    elif command == "xlsxwriter":
        import xlsxwriter as xw
    work = {"csv-reader": csv_reader, "polars": polars, "calamine": calamine, "openpyxl": openpyxl,
            "xlsxwriter": xlsxwriter}[command]
    wall, cpu = time.perf_counter(), time.process_time()
    work(*args)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if os.environ.get("BASELINE_TIMES"):
        with open(os.environ["BASELINE_TIMES"], "a") as f:
            f.write(json.dumps({"wall": wall, "cpu": cpu}) + "\n")
