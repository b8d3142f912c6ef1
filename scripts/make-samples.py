#!/usr/bin/env python3
"""Writes the sample CSV workbooks in samples/ (run once; the results are committed).

samples/clean        a tidy workbook as sheetsync writes it
samples/hand-edited  the same kind of ledger after people edited it by hand, with the usual mistakes
"""
import csv, os, uuid

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "samples")
TX = ["transactionId", "type", "date", "year", "month", "amount", "category", "tags", "note",
      "paidFlag", "reimbursedFlag", "recurringRuleId", "createdAt", "lastModifiedAt"]
RC = ["receiptId", "transactionId", "driveFileId", "fileName", "createdAt", "lastModifiedAt"]
CAT = ["name", "type", "emoji", "colorHex", "isActive", "sortOrder", "createdAt", "lastModifiedAt"]
RR = ["recurringRuleId", "isEnabled", "type", "amount", "category", "tags", "note", "startDate", "cadence",
      "interval", "endDate", "lastGeneratedDate", "createdAt", "lastModifiedAt"]
ST = ["datasetId", "schemaVersion", "timezone", "rootFolderId", "dataSpreadsheetId", "receiptsFolderId",
      "createdAt", "lastModifiedAt"]
T0 = "2026-01-01T09:00:00.000Z"

def uid(name):
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "sheetsync-sample/" + name))

def write(folder, name, header, rows):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name + ".csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)

CATEGORIES = [("Groceries", "expense", "🛒", "#4caf50", "TRUE", "1"), ("Rent", "expense", "🏠", "#795548", "TRUE", "2"),
              ("Dining", "expense", "🍽️", "#ff9800", "TRUE", "3"), ("Transport", "expense", "🚌", "#2196f3", "TRUE", "4"),
              ("Utilities", "expense", "💡", "#9c27b0", "TRUE", "5"), ("Salary", "income", "💼", "#009688", "TRUE", "6"),
              ("Gifts", "both", "🎁", "#e91e63", "FALSE", "7")]

def clean():
    d = os.path.join(ROOT, "clean")
    write(d, "Settings", ST, [[uid("clean-dataset"), "1", "America/New_York", "", "", "", T0, T0]])
    write(d, "Categories", CAT, [list(c) + [T0, T0] for c in CATEGORIES])
    rent_rule = uid("clean-rule-rent")
    write(d, "RecurringRules", RR, [
        [rent_rule, "TRUE", "expense", "1450.00", "Rent", "home", "Monthly rent", "2026-01-01", "monthly", "1", "", "2026-01-31", T0, T0],
        [uid("clean-rule-salary"), "TRUE", "income", "3200.00", "Salary", "", "Paycheck", "2026-01-15", "monthly", "1", "", "2026-01-31", T0, T0],
    ])
    tx = []
    items = [("2026-01-02", "expense", "54.20", "Groceries", "food,weekly", "Market"),
             ("2026-01-03", "expense", "18.75", "Dining", "", "Lunch with Sam"),
             ("2026-01-05", "expense", "2.90", "Transport", "bus", ""),
             ("2026-01-09", "expense", "61.03", "Groceries", "food", "Big shop, \"organic\" stuff"),
             ("2026-01-12", "expense", "89.99", "Utilities", "", "Electricity\nJanuary bill"),
             ("2026-01-20", "expense", "35.00", "Gifts", "birthday", "Book for Ana"),
             ("2026-01-24", "expense", "12.40", "Dining", "", "Coffee"),
             ("2026-01-28", "expense", "47.15", "Groceries", "food", "")]
    for i, (date, typ, amount, cat, tags, note) in enumerate(items):
        tx.append([uid(f"clean-tx-{i}"), typ, date, date[:4], str(int(date[5:7])), amount, cat, tags, note,
                   "paid", "", "", T0, T0])
    tx.append([uid("clean-rent-jan"), "expense", "2026-01-01", "2026", "1", "1450.00", "Rent", "home", "Monthly rent",
               "paid", "", rent_rule, T0, T0])
    tx.append([uid("clean-salary-jan"), "income", "2026-01-15", "2026", "1", "3200.00", "Salary", "", "Paycheck",
               "", "", uid("clean-rule-salary"), T0, T0])
    write(d, "Transactions", TX, tx)
    write(d, "Receipts", RC, [[uid("clean-receipt-0"), uid("clean-tx-3"), "20260109_Groceries_" + uid("clean-tx-3") + "_1.jpg",
                               "20260109_Groceries_" + uid("clean-tx-3") + "_1.jpg", T0, T0]])

def hand_edited():
    d = os.path.join(ROOT, "hand-edited")
    write(d, "Settings", ST, [[uid("hand-dataset"), "1", "Europe/Berlin", "", "", "", T0, T0]])
    # A user-added column, and columns in the user's own order.
    cat_header = ["name", "emoji", "type", "isActive", "colorHex", "sortOrder", "createdAt", "lastModifiedAt", "Budget"]
    write(d, "Categories", cat_header, [
        ["Groceries", "🛒", "expense", "TRUE", "#4caf50", "1", T0, T0, "400"],
        ["Rent", "🏠", "Expense", "yes", "", "2", T0, T0, ""],
        ["Dining", "", "expense", "1", "", "3", "", "", "120"],
        ["Salary", "", "INCOME", "true", "", "", T0, T0, ""],
    ])
    write(d, "RecurringRules", RR, [
        [uid("hand-rule-rent"), "TRUE", "expense", "900", "Rent", "", "Rent", "2026-01-31", "monthly", "1", "", "", T0, T0],
        [uid("hand-rule-gym"), "TRUE", "expense", "30", "Gym", "", "Gym", "2026-01-01", "monthly", "1", "", "", T0, T0],
    ])
    header = ["date", "amount", "category", "type", "note", "Shop", "tags", "transactionId", "year", "month",
              "paidFlag", "reimbursedFlag", "recurringRuleId", "createdAt", "lastModifiedAt"]
    dup = uid("hand-tx-dup")
    rows = [
        ["2026-01-02", "54.20", "Groceries", "expense", "Market", "Aldi", "food", uid("hand-tx-0"), "2026", "1", "paid", "", "", T0, T0],
        ["1/15/2026", "$1,234.50", "Rent", "Expense", "Deposit", "", "", uid("hand-tx-1"), "2025", "12", "", "", "", T0, T0],
        ["2026-01-05", "12.5", "Dining", "", "typed without id", "Café", "", "", "", "", "", "", "", "", ""],
        ["2026-01-06", "7", "groceries", "expense", "mis-cased category", "", "", uid("hand-tx-3"), "2026", "1", "", "", "", T0, T0],
        ["2026-01-07", "19.99", "Grocery", "expense", "unknown category", "", "", uid("hand-tx-4"), "2026", "1", "", "", "", T0, T0],
        ["", "", "", "", "", "", "", "", "", "", "", "", "", "", ""],
        ["2026-01-08", "12,50", "Dining", "expense", "decimal comma", "", "", uid("hand-tx-6"), "2026", "1", "", "", "", T0, T0],
        ["2026-01-09", "-5", "Dining", "expense", "negative amount", "", "", uid("hand-tx-7"), "2026", "1", "", "", "", T0, T0],
        ["2026-01-10", "23.10", "Dining", "expense", "Pizza night", "", "", dup, "2026", "1", "", "", "", T0, T0],
        ["2026-01-10", "23.10", "Dining", "expense", "Pizza night", "", "", dup, "2026", "1", "", "", "", T0, T0],
        ["2026-01-11", "3200", "Salary", "income", "Paycheck", "", "", "", "", "", "", "", "", "", ""],
        ["2026-01-12", "15.00", "Dining", "expense", "=HYPERLINK(\"http://example.com\")", "", "", uid("hand-tx-11"), "2026", "1", "unpaid", "", "", T0, T0],
    ]
    write(d, "Transactions", header, rows)
    write(d, "Receipts", RC, [
        [uid("hand-receipt-0"), uid("hand-tx-0"), "20260102_Groceries_" + uid("hand-tx-0") + "_1.jpg", "20260102_Groceries_1.jpg", T0, T0],
        [uid("hand-receipt-1"), uid("hand-tx-missing"), "orphan.jpg", "orphan.jpg", T0, T0],
    ])

clean()
hand_edited()
