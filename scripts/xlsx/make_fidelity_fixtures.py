#!/usr/bin/env python3
"""Generate the dressed-up ledger workbooks of other producers under Tests/SheetSyncTests/Fixtures/xlsx/.

Run once (the results are committed): `python3 scripts/xlsx/make_fidelity_fixtures.py`; with file
names as arguments (`... chained-openpyxl.xlsx`) only those are made and the others stay as they are.
Needs `pip install openpyxl xlsxwriter msoffcrypto-tool`.

Each workbook holds the five tabs of samples/clean as a user would dress them up; the tests in
Tests/SheetSyncTests/XLSXFidelity*Tests.swift assert on these values, so change both together.
"""
import csv
import datetime
import io
import math
import os
import shutil
import sys
import uuid
import zipfile

import msoffcrypto
import msoffcrypto.format.ooxml
import openpyxl
import xlsxwriter
from openpyxl.comments import Comment
from openpyxl.formatting.rule import CellIsRule
from openpyxl.styles import Font, PatternFill
from openpyxl.utils.datetime import CALENDAR_MAC_1904
from openpyxl.worksheet.datavalidation import DataValidation

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLE = os.path.join(ROOT, "samples", "clean")
OUT = os.path.join(ROOT, "Tests", "SheetSyncTests", "Fixtures", "xlsx")
TABS = ["Transactions", "Receipts", "Categories", "RecurringRules", "Settings"]
DATE_COLUMNS = {"date", "startDate", "endDate", "lastGeneratedDate"}
NUMBER_COLUMNS = {"amount", "year", "month", "interval", "sortOrder", "schemaVersion"}


def sample(tab):
    with open(os.path.join(SAMPLE, tab + ".csv"), newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def typed(header, row, noisy):
    """Cells as a script would write them: numbers as floats (amounts 1 ulp off, as 17-digit
    writers spell computed amounts), dates as dates, everything else as text."""
    out = []
    for name, text in zip(header, row):
        if text == "":
            out.append(None)
        elif name in DATE_COLUMNS:
            out.append(datetime.date.fromisoformat(text))
        elif name == "amount":
            value = float(text)
            out.append(math.nextafter(value, 0) if noisy else value)
        elif name in NUMBER_COLUMNS:
            out.append(int(text))
        else:
            out.append(text)
    return out


def ledger_openpyxl(noisy=False, epoch1904=False):
    wb = openpyxl.Workbook()
    if epoch1904:
        wb.epoch = CALENDAR_MAC_1904
    wb.remove(wb.active)
    for tab in TABS:
        ws = wb.create_sheet(tab)
        header, rows = sample(tab)
        ws.append(header)
        for row in rows:
            ws.append(typed(header, row, noisy))
        for line in ws.iter_rows(min_row=2):
            for cell in line:
                if isinstance(cell.value, datetime.date):
                    cell.number_format = "yyyy-mm-dd"
    return wb


def dressed(path, rejected=False):
    """Number formats, bold header, a filled row, a Total column of formulas, a Summary sheet,
    a comment, a hyperlink, merged cells, validation, conditional formats and an autofilter."""
    wb = ledger_openpyxl()
    ws = wb["Transactions"]
    if rejected:
        ws.append(["0b9a3c52-6a83-4f0e-9d54-3a0d43b1e001", "expense", datetime.date(2026, 1, 20), 2026, 1, 12.5,
                   "No Such Category", None, "rejected row", "paid", None, None,
                   "2026-01-01T09:00:00.000Z", "2026-01-01T09:00:00.000Z"])
    last = ws.max_row
    ws["O1"] = "Total"
    ws["P1"] = "Memo"
    for r in range(2, last + 1):
        ws[f"O{r}"] = f"=F{r}*2"
        ws[f"F{r}"].number_format = "#,##0.00"
        ws[f"C{r}"].number_format = "yyyy-mm-dd"
    for cell in ws[1]:
        cell.font = Font(bold=True)
    fill = PatternFill("solid", fgColor="FFFF00")
    for cell in ws[3]:
        cell.fill = fill
    ws["I2"].comment = Comment("checked by hand", "me")
    ws["I4"].hyperlink = "https://example.com/receipt"
    ws.merge_cells("P2:Q2")
    ws["P2"] = "merged memo"
    dv = DataValidation(type="list", formula1='"expense,income"', allow_blank=True)
    ws.add_data_validation(dv)
    dv.add(f"B2:B{last}")
    ws.conditional_formatting.add(f"F2:F{last}", CellIsRule(operator="greaterThan", formula=["100"], fill=fill))
    ws.auto_filter.ref = f"A1:O{last}"
    ws.freeze_panes = "A2"
    summary = wb.create_sheet("Summary")
    summary["A1"] = "Total spent"
    summary["B1"] = "=SUM(Transactions!F:F)"
    summary["A2"] = "Twice"
    summary["B2"] = "=SUM(Transactions!O:O)"
    wb.save(path)


def chained(path):
    """Formulas that depend on the ledger through other formulas, and ledger sheets that read
    each other: Transactions has a Total (`O = F*2`), a running balance (`P = P(above) + O`), the
    receipts' total (`Q`) and one receipt's amount (`R3`); Receipts (three rows) reads each
    receipt's transaction amount (`G = Transactions!F…`); Summary chains on its own cells and
    through defined names."""
    wb = ledger_openpyxl()
    ws = wb["Transactions"]
    last = ws.max_row
    ws["O1"], ws["P1"], ws["Q1"], ws["R1"] = "Total", "Balance", "Receipts total", "A receipt"
    row_of = {ws[f"A{r}"].value: r for r in range(2, last + 1)}
    for r in range(2, last + 1):
        ws[f"O{r}"] = f"=F{r}*2"
        ws[f"P{r}"] = "=O2" if r == 2 else f"=P{r - 1}+O{r}"
        ws[f"Q{r}"] = "=SUM(Receipts!G$2:G$4)"
    ws["R3"] = "=Receipts!G4"
    receipts = wb["Receipts"]
    header = [c.value for c in receipts[1]]
    for number, transaction in enumerate(["1c9d4701-1f9d-58f7-ae8f-16bd3aeef5d9", "75d9787f-a841-5952-bc4c-e6e869a07380"]):
        name = f"20260101_Receipt_{transaction}_{number + 2}.jpg"
        values = {"receiptId": str(uuid.uuid5(uuid.NAMESPACE_URL, "sheetsync-receipt-%d" % number)),
                  "transactionId": transaction, "driveFileId": name, "fileName": name,
                  "createdAt": "2026-01-01T09:00:00.000Z", "lastModifiedAt": "2026-01-01T09:00:00.000Z"}
        receipts.append([values[h] for h in header])
    receipts["G1"] = "Amount"
    for r in range(2, receipts.max_row + 1):
        receipts[f"G{r}"] = f"=Transactions!F{row_of[receipts[f'B{r}'].value]}"
    summary = wb.create_sheet("Summary")
    summary["B1"] = "=SUM(Transactions!F:F)"
    summary["B2"] = "=SUM(Transactions!O:O)"
    summary["B3"] = "=B2*2"
    summary["B4"] = "=SUM(Spent)"
    summary["B5"] = "=Doubled+1"
    summary["B6"] = "=SUM(Receipts!G:G)"
    summary["B7"] = "=B6+B3"
    wb.defined_names["Spent"] = openpyxl.workbook.defined_name.DefinedName("Spent", attr_text=f"Transactions!$F$2:$F${last}")
    wb.defined_names["Doubled"] = openpyxl.workbook.defined_name.DefinedName("Doubled", attr_text="Summary!$B$3")
    wb.save(path)


def noisy_amounts(path, noisy=True):
    """The ledger with every amount one ulp below its two-decimal value (`54.199999999999996`);
    with `noisy=False` the same workbook with the amounts spelled plainly (`54.2`)."""
    ledger_openpyxl(noisy=noisy).save(path)


def mac1904(path):
    """A 1904-system workbook with date-formatted numbers in amount and note."""
    wb = ledger_openpyxl(epoch1904=True)
    ws = wb["Transactions"]
    ws["F2"] = 45000
    ws["F2"].number_format = "yyyy-mm-dd"
    ws["I2"] = datetime.date(2026, 1, 2)
    ws["I2"].number_format = "yyyy-mm-dd"
    wb.save(path)


def xlsxwriter_ledger(path, vba=None, repeat_note=0):
    wb = xlsxwriter.Workbook(path, {"strings_to_numbers": False})
    date_format = wb.add_format({"num_format": "yyyy-mm-dd"})
    money = wb.add_format({"num_format": "#,##0.00"})
    for tab in TABS:
        ws = wb.add_worksheet(tab)
        header, rows = sample(tab)
        ws.write_row(0, 0, header)
        if tab == "Transactions" and repeat_note:
            base = rows[0]
            rows = []
            for i in range(repeat_note):
                row = list(base)
                row[0] = "%08x-0000-4000-8000-%012x" % (i, i)
                row[8] = "the same long note about the weekly market run " * 40
                rows.append(row)
        for r, row in enumerate(rows, start=1):
            for c, value in enumerate(typed(header, row, noisy=True)):
                if value is None:
                    continue
                if isinstance(value, datetime.date):
                    ws.write_datetime(r, c, datetime.datetime.combine(value, datetime.time()), date_format)
                elif header[c] == "amount":
                    ws.write_number(r, c, value, money)
                elif isinstance(value, (int, float)):
                    ws.write_number(r, c, value)
                else:
                    ws.write_string(r, c, value)
    if vba:
        wb.add_vba_project(vba)
    wb.close()


def rewrite_zip(source, target, edit):
    """Copies a package entry by entry through `edit(name, data) -> (name, data)`."""
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            name, data = edit(item.filename, zin.read(item.filename))
            zout.writestr(name, data)


def odd_files(base):
    rewrite_zip(base, os.path.join(OUT, "backslash-names.xlsx"),
                lambda n, d: (n.replace("/", "\\") if n.startswith("xl/worksheets") else n, d))

    def empty_shared_string(name, data):
        if name == "xl/worksheets/sheet1.xml":
            data = data.replace(b"</sheetData>", b'<row r="40"><c r="A40" t="s"><v/></c></row></sheetData>', 1)
        return name, data
    rewrite_zip(base, os.path.join(OUT, "empty-shared-string.xlsx"), empty_shared_string)

    def empty_relationship(name, data):
        if name == "xl/workbook.xml":
            data = data.replace(b"</sheets>", b'<sheet name="Ghost" sheetId="99" r:id=""/></sheets>', 1)
        return name, data
    rewrite_zip(base, os.path.join(OUT, "empty-relationship-id.xlsx"), empty_relationship)

    with open(base, "rb") as plain, open(os.path.join(OUT, "password.xlsx"), "wb") as out:
        office = msoffcrypto.format.ooxml.OOXMLFile(plain)
        office.encrypt("secret", out)


def main():
    only = {"chained-openpyxl.xlsx": chained}
    if sys.argv[1:]:
        for name in sys.argv[1:]:
            only[name](os.path.join(OUT, name))
        return
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    os.makedirs(OUT)
    dressed(os.path.join(OUT, "dressed-openpyxl.xlsx"))
    dressed(os.path.join(OUT, "dressed-rejected-openpyxl.xlsx"), rejected=True)
    chained(os.path.join(OUT, "chained-openpyxl.xlsx"))
    noisy_amounts(os.path.join(OUT, "noisy-amounts-openpyxl.xlsx"))
    noisy_amounts(os.path.join(OUT, "plain-amounts-openpyxl.xlsx"), noisy=False)
    mac1904(os.path.join(OUT, "mac1904-openpyxl.xlsx"))
    xlsxwriter_ledger(os.path.join(OUT, "ledger-xlsxwriter.xlsx"))
    vba = os.path.join(OUT, "vbaProject.bin")
    with open(vba, "wb") as f:
        f.write(b"\xd0\xcf\x11\xe0 stand-in macro project bytes " * 8)
    xlsxwriter_ledger(os.path.join(OUT, "ledger-xlsxwriter.xlsm"), vba=vba)
    os.remove(vba)
    odd_files(os.path.join(OUT, "ledger-xlsxwriter.xlsx"))


if __name__ == "__main__":
    main()
