#!/usr/bin/env python3
"""Open a workbook in LibreOffice (headless), let it recalculate, and check every formula's result.

    python3 scripts/xlsx/recalc_check.py BOOK.xlsx

LibreOffice converts each sheet to CSV with raw (not displayed) values. Every formula cell of the
workbook (read from its XML: shared formulas included) must come out without an error value, and
each formula a small evaluator understands (cell and range references, whole columns, other
sheets, SUM, + - * / and parentheses) must equal its value worked out from the other cells as
LibreOffice shows them: a formula written without a cached value, or whose inputs a push
changed, only passes when LibreOffice recalculated it on open (the push sets `fullCalcOnLoad`).

Prints JSON {"formulas": n, "evaluated": n, "problems": [text, ...], "sheets": [names]} and exits
0 when there are no problems, 1 when there are, 3 when `soffice` is not installed (a caller
skips, saying why). Needs only the standard library and LibreOffice.
"""
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zipfile

MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
PKG = "{http://schemas.openxmlformats.org/package/2006/relationships}"
ERRORS = ("#REF!", "#NAME?", "#VALUE!", "#DIV/0!", "#N/A", "#NUM!", "#NULL!", "Err:")

CELL = re.compile(r"^\$?([A-Z]{1,3})\$?(\d+)$")
REFERENCE = re.compile(
    r"(?:(?P<sheet>'(?:[^']|'')+'|[A-Za-z_][\w.]*)!)?"
    r"(?P<range>\$?[A-Z]{1,3}\$?\d+(?::\$?[A-Z]{1,3}\$?\d+)?|\$?[A-Z]{1,3}:\$?[A-Z]{1,3})(?![\w(])"
)


def column_index(letters):
    index = 0
    for letter in letters:
        index = index * 26 + ord(letter) - 64
    return index


def formulas(path):
    """{sheet name: {cell: formula text or None for a shared formula's child}}, sheets in order."""
    with zipfile.ZipFile(path) as package:
        names = {n.replace("\\", "/").lower(): n for n in package.namelist()}

        def read(name):
            return package.read(names[name.lower()])

        workbook = ET.fromstring(read("xl/workbook.xml"))
        rels = ET.fromstring(read("xl/_rels/workbook.xml.rels"))
        targets = {r.get("Id"): r.get("Target") for r in rels.iter(PKG + "Relationship")}
        result = {}
        for sheet in workbook.iter(MAIN + "sheet"):
            target = targets.get(sheet.get(REL + "id"), "")
            part = target.lstrip("/") if target.startswith("/") else "xl/" + target
            if part.lower() not in names:
                continue
            cells = {}
            for cell in ET.fromstring(read(part)).iter(MAIN + "c"):
                formula = cell.find(MAIN + "f")
                if formula is not None:
                    cells[cell.get("r")] = formula.text or None
            result[sheet.get("name")] = cells
        return result


def libreoffice_values(path, work):
    """{sheet name: rows of raw text} as LibreOffice computes them after opening `path`."""
    book = os.path.join(work, "book.xlsx")
    shutil.copyfile(path, book)
    profile = "file://" + os.path.join(work, "profile")
    # Tokens: comma, double quote, UTF-8, from line 1, no column types, default language, no
    # quoted-as-text, detect numbers, raw values (not as shown), no formulas, keep spaces, all sheets.
    fmt = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1"
    subprocess.run(
        ["soffice", "-env:UserInstallation=" + profile, "--headless", "--norestore", "--convert-to", fmt,
         "--outdir", work, book],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300)
    values = {}
    for name in os.listdir(work):
        if name.startswith("book-") and name.endswith(".csv"):
            with open(os.path.join(work, name), newline="", encoding="utf-8") as handle:
                values[name[len("book-"):-len(".csv")]] = list(csv.reader(handle))
    return values


class Unsupported(Exception):
    pass


def evaluate(text, sheet, values):
    """The number `text` (a formula without `=`) gives, from the cells as LibreOffice shows them."""
    if '"' in text or "&" in text or "#" in text:
        raise Unsupported(text)

    def cell_value(grid, row, column):
        if row - 1 >= len(grid) or column - 1 >= len(grid[row - 1]):
            return 0.0
        raw = grid[row - 1][column - 1]
        if raw == "":
            return 0.0
        try:
            return float(raw)
        except ValueError:
            raise Unsupported(raw)

    def numbers(qualifier, reference):
        name = sheet if qualifier is None else qualifier.strip("'").replace("''", "'")
        grid = values.get(name)
        if grid is None:
            raise Unsupported(name)
        parts = reference.replace("$", "").split(":")
        if len(parts) == 2 and parts[0].isalpha():
            first, last, top, bottom = column_index(parts[0]), column_index(parts[1]), 1, len(grid)
        else:
            start = CELL.match(parts[0])
            end = CELL.match(parts[-1])
            first, top = column_index(start.group(1)), int(start.group(2))
            last, bottom = column_index(end.group(1)), int(end.group(2))
        found = []
        for row in range(top, bottom + 1):
            for column in range(first, last + 1):
                raw = grid[row - 1][column - 1] if row - 1 < len(grid) and column - 1 < len(grid[row - 1]) else ""
                try:
                    found.append(float(raw) if raw != "" else 0.0)
                except ValueError:
                    if len(parts) == 1:
                        raise Unsupported(raw)  # a single text cell in arithmetic
        return found if len(parts) == 2 else found[0]

    refs = []

    def swap(match):
        refs.append(numbers(match.group("sheet"), match.group("range")))
        return "_r[%d]" % (len(refs) - 1)

    expression = REFERENCE.sub(swap, text.replace("\n", " "))
    if not re.fullmatch(r"[\s\d.eE+\-*/(),_r\[\]SUM]*", expression):
        raise Unsupported(text)

    def total(*items):
        return sum(sum(i) if isinstance(i, list) else i for i in items)

    try:
        return float(eval(expression, {"__builtins__": {}}, {"_r": refs, "SUM": total}))
    except Exception as problem:
        raise Unsupported(str(problem))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: recalc_check.py BOOK.xlsx")
    if shutil.which("soffice") is None:
        print(json.dumps({"skipped": "LibreOffice (soffice) is not installed"}))
        sys.exit(3)
    path = sys.argv[1]
    cells = formulas(path)
    work = tempfile.mkdtemp(prefix="recalc-")
    try:
        values = libreoffice_values(path, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    problems = []
    evaluated = 0
    count = 0
    for sheet, found in cells.items():
        grid = values.get(sheet)
        if grid is None:
            problems.append("%s: LibreOffice wrote no CSV for this sheet" % sheet)
            continue
        for reference, text in found.items():
            count += 1
            match = CELL.match(reference)
            row, column = int(match.group(2)), column_index(match.group(1))
            shown = grid[row - 1][column - 1] if row - 1 < len(grid) and column - 1 < len(grid[row - 1]) else ""
            if any(shown.startswith(e) for e in ERRORS):
                if not (text and "#REF!" in text):
                    problems.append("%s!%s: =%s gives %s" % (sheet, reference, text or "(shared)", shown))
                continue
            if text is None:
                continue
            try:
                expected = evaluate(text, sheet, values)
            except Unsupported:
                continue
            evaluated += 1
            try:
                actual = float(shown) if shown != "" else None
            except ValueError:
                actual = None
            if actual is None or abs(actual - expected) > 1e-9 * max(1.0, abs(expected)):
                problems.append("%s!%s: =%s shows %r, expected %r" % (sheet, reference, text, shown, expected))
    print(json.dumps({"formulas": count, "evaluated": evaluated, "problems": problems, "sheets": sorted(values)}))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
