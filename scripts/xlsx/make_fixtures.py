#!/usr/bin/env python3
"""Generate the XLSX reader's fixture workbooks under Tests/WorkbookTests/Fixtures/.

Run once (the results are committed): `python3 scripts/xlsx/make_fixtures.py`.
Needs `pip install openpyxl xlsxwriter`; the LibreOffice fixtures also need `soffice`
(Debian: libreoffice-calc-nogui) and are skipped, with a note, when it is absent.

Every value written here is asserted by Tests/WorkbookTests/XLSX/ProducerFixtureTests.swift;
change both together.
"""
import datetime
import os
import shutil
import subprocess
import sys
import tempfile

import openpyxl
import xlsxwriter
from openpyxl.utils.datetime import CALENDAR_MAC_1904

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "Tests", "WorkbookTests", "Fixtures")


def openpyxl_types(path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Types"
    ws.append(["text", "number", "date", "datetime", "bool", "note"])
    ws.append(["plain", 12.5, datetime.date(2024, 3, 5), datetime.datetime(2024, 3, 5, 13, 45, 30), True, "  padded  "])
    ws.append(["int", -3, datetime.date(1900, 1, 1), datetime.datetime(1900, 3, 1, 6, 0), False, "multi\nline"])
    # Row 4 is left out entirely; row 5 is sparse (A and F only).
    ws["A5"] = "sparse"
    ws["F5"] = "far"
    ws["A6"] = "#N/A"  # openpyxl stores a known error code as an error cell (t="e")
    ws["B6"] = "=1+2"  # a formula without a cached value reads as empty
    ws["A7"] = "exact"
    ws["B7"] = 0.1
    ws["C7"] = 123456789012
    other = wb.create_sheet("R&D ü")
    other.append(["name", "value"])
    other.append(["ä & <b>", 1])
    hidden = wb.create_sheet("Hidden")
    hidden.sheet_state = "hidden"
    hidden["A1"] = "secret"
    wb.save(path)


def openpyxl_1904(path):
    wb = openpyxl.Workbook()
    wb.epoch = CALENDAR_MAC_1904
    ws = wb.active
    ws.title = "Mac"
    ws.append(["date", "datetime"])
    ws.append([datetime.date(2024, 3, 5), datetime.datetime(2024, 3, 5, 12, 0)])
    wb.save(path)


def openpyxl_formatted(path):
    """A tab a person has dressed up: what a preserving write keeps and drops."""
    from openpyxl.comments import Comment
    from openpyxl.formatting.rule import CellIsRule
    from openpyxl.styles import PatternFill
    from openpyxl.worksheet.datavalidation import DataValidation

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Transactions"
    ws.append(["id", "date", "category", "amount"])
    ws.append(["t1", datetime.date(2024, 3, 5), "Groceries", 12.5])
    ws.append(["t2", datetime.date(2024, 3, 6), "Rent", 800])
    ws.freeze_panes = "A2"
    ws.column_dimensions["A"].width = 40
    ws.column_dimensions["C"].width = 25
    validation = DataValidation(type="list", formula1='"Groceries,Rent,Transport"', allow_blank=True)
    validation.add("C2:C1000")
    ws.add_data_validation(validation)
    red = PatternFill(start_color="FFC7CE", end_color="FFC7CE", fill_type="solid")
    ws.conditional_formatting.add("D2:D1000", CellIsRule(operator="greaterThan", formula=["500"], fill=red))
    ws["A2"].hyperlink = "https://example.com/receipt/t1"
    ws["B3"].comment = Comment("checked", "me")
    notes = wb.create_sheet("Notes")
    notes["A1"] = "my own notes"
    wb.save(path)


FORMATS = [
    # (label, number format, value as stored)
    ("custom datetime", "yyyy-mm-dd hh:mm:ss", 45356.5),
    ("google date", "M/d/yyyy", 45356),
    ("builtin 14", 14, 45356),
    ("builtin 22", 22, 45356.25),
    ("builtin 45", 45, 0.5),
    ("builtin 46 duration", 46, 1.5),
    ("builtin 47", 47, 0.25),
    ("custom duration", "[h]:mm", 2.25),
    ("percent", "0.00%", 0.125),
    ("quoted days", '#,##0.00 "days"', 3),
    ("quoted letters", '"Date:" 0', 7),
    ("color", "[Red]0.00", -1.5),
    ("locale date", "[$-409]mmmm d, yyyy", 45356),
    ("general", "General", 42),
    ("escaped", "0.0\\h", 5),
]


def xlsxwriter_formats(path):
    wb = xlsxwriter.Workbook(path)
    ws = wb.add_worksheet("Formats")
    ws.write_row(0, 0, ["label", "value"])
    for row, (label, fmt, value) in enumerate(FORMATS, start=1):
        ws.write_string(row, 0, label)
        ws.write_number(row, 1, value, wb.add_format({"num_format": fmt}))
    strings = wb.add_worksheet("Strings")
    strings.write_row(0, 0, ["kind", "value"])
    bold = wb.add_format({"bold": True})
    strings.write_string(1, 0, "rich")
    strings.write_rich_string(1, 1, "plain ", bold, "bold", " tail")
    strings.write_string(2, 0, "spaces")
    strings.write_string(2, 1, "  both ends  ")
    strings.write_string(3, 0, "crlf")
    strings.write_string(3, 1, "line1\r\nline2")
    strings.write_string(4, 0, "escape literal")
    strings.write_string(4, 1, "_x000D_ stays")
    strings.write_string(5, 0, "bool")
    strings.write_boolean(5, 1, True)
    strings.write_string(6, 0, "formula string")
    strings.write_formula(6, 1, '="a"&"b"', None, "ab")
    strings.write_string(7, 0, "formula error")
    strings.write_formula(7, 1, "=NA()", None, "#N/A")
    strings.write_string(8, 0, "control")
    strings.write_string(8, 1, "bell\x07here")
    wb.close()


def xlsxwriter_inline(path):
    wb = xlsxwriter.Workbook(path, {"constant_memory": True})
    ws = wb.add_worksheet("Inline")
    date_format = wb.add_format({"num_format": "yyyy-mm-dd"})
    ws.write_row(0, 0, ["id", "date", "amount"])
    for i in range(1, 51):
        ws.write_string(i, 0, f"row{i}")
        ws.write_datetime(i, 1, datetime.date(2024, 1, 1) + datetime.timedelta(days=i), date_format)
        ws.write_number(i, 2, i * 1.25)
    wb.close()


def libreoffice_copy(source, target):
    soffice = shutil.which("soffice")
    if soffice is None:
        print(f"skipping {os.path.basename(target)}: soffice not found")
        return
    with tempfile.TemporaryDirectory() as work:
        profile = "file://" + os.path.join(work, "profile")
        subprocess.run(
            [soffice, f"-env:UserInstallation={profile}", "--headless", "--calc",
             "--convert-to", "xlsx:Calc MS Excel 2007 XML", "--outdir", work, source],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        produced = os.path.join(work, os.path.splitext(os.path.basename(source))[0] + ".xlsx")
        shutil.copyfile(produced, target)


def main():
    os.makedirs(OUT, exist_ok=True)
    openpyxl_types(os.path.join(OUT, "openpyxl-types.xlsx"))
    openpyxl_1904(os.path.join(OUT, "openpyxl-1904.xlsx"))
    openpyxl_formatted(os.path.join(OUT, "openpyxl-formatted.xlsx"))
    xlsxwriter_formats(os.path.join(OUT, "xlsxwriter-formats.xlsx"))
    xlsxwriter_inline(os.path.join(OUT, "xlsxwriter-inline.xlsx"))
    with tempfile.TemporaryDirectory() as work:
        # LibreOffice names its output after the input, so give the inputs the final names.
        for source, target in [("openpyxl-types.xlsx", "libreoffice-types.xlsx"),
                               ("openpyxl-1904.xlsx", "libreoffice-1904.xlsx")]:
            staged = os.path.join(work, target)
            shutil.copyfile(os.path.join(OUT, source), staged)
            libreoffice_copy(staged, os.path.join(OUT, target + ".tmp"))
            if os.path.exists(os.path.join(OUT, target + ".tmp")):
                os.replace(os.path.join(OUT, target + ".tmp"), os.path.join(OUT, target))
    print("fixtures written to", OUT)


if __name__ == "__main__":
    sys.exit(main())
