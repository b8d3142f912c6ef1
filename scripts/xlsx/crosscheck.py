#!/usr/bin/env python3
"""Print what other readers see in an XLSX file, as JSON, for the writer's cross-check tests.

    python3 scripts/xlsx/crosscheck.py FILE.xlsx [--libreoffice]

Output: {"openpyxl": {sheet: rows}, "calamine": {...}, "libreoffice": {...}} where each cell is
null (empty), {"s": text}, {"n": number}, {"b": bool} or {"d": ISO date or date-time}.
"calamine" appears when python-calamine is installed; "libreoffice" with --libreoffice when
`soffice` is on PATH: the file is opened and re-saved by LibreOffice, then read by openpyxl.
Exits 3 when openpyxl is missing, so a caller can skip rather than fail.
"""
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile

try:
    import openpyxl
except ImportError:
    sys.exit(3)


def encode(value):
    if value is None:
        return None
    if isinstance(value, bool):
        return {"b": value}
    if isinstance(value, (int, float)):
        return {"n": value}
    if isinstance(value, datetime.datetime):
        if value.time() == datetime.time(0, 0):
            return {"d": value.date().isoformat()}
        return {"d": value.isoformat(timespec="seconds")}
    if isinstance(value, datetime.date):
        return {"d": value.isoformat()}
    if isinstance(value, datetime.time):
        return {"d": value.isoformat(timespec="seconds")}
    return {"s": str(value)}


def read_openpyxl(path):
    workbook = openpyxl.load_workbook(path, data_only=True)
    sheets = {}
    for sheet in workbook.worksheets:
        rows = []
        for row in sheet.iter_rows(min_row=1, min_col=1, max_row=sheet.max_row, max_col=sheet.max_column):
            cells = [encode(cell.value) for cell in row]
            while cells and cells[-1] is None:
                cells.pop()
            rows.append(cells)
        while rows and not rows[-1]:
            rows.pop()
        sheets[sheet.title] = rows
    return sheets


def read_calamine(path):
    try:
        import python_calamine
    except ImportError:
        return None
    workbook = python_calamine.CalamineWorkbook.from_path(path)
    sheets = {}
    for name in workbook.sheet_names:
        rows = workbook.get_sheet_by_name(name).to_python(skip_empty_area=False)
        encoded = []
        for row in rows:
            cells = [None if value == "" else encode(value) for value in row]
            while cells and cells[-1] is None:
                cells.pop()
            encoded.append(cells)
        while encoded and not encoded[-1]:
            encoded.pop()
        sheets[name] = encoded
    return sheets


def read_libreoffice(path):
    soffice = shutil.which("soffice")
    if soffice is None:
        return None
    with tempfile.TemporaryDirectory() as work:
        source = os.path.join(work, "in", "book.xlsx")
        os.makedirs(os.path.dirname(source))
        shutil.copyfile(path, source)
        profile = "file://" + os.path.join(work, "profile")
        subprocess.run(
            [soffice, f"-env:UserInstallation={profile}", "--headless", "--calc",
             "--convert-to", "xlsx:Calc MS Excel 2007 XML", "--outdir", work, source],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
        return read_openpyxl(os.path.join(work, "book.xlsx"))


def main():
    path = sys.argv[1]
    result = {"openpyxl": read_openpyxl(path)}
    calamine = read_calamine(path)
    if calamine is not None:
        result["calamine"] = calamine
    if "--libreoffice" in sys.argv[2:]:
        libreoffice = read_libreoffice(path)
        if libreoffice is not None:
            result["libreoffice"] = libreoffice
    json.dump(result, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
