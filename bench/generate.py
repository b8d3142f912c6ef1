#!/usr/bin/env python3
"""Writes a deterministic benchmark workbook: a CSV folder, and optionally an .xlsx of the same rows.

    bench/generate.py OUT_DIR [--rows 100000] [--seed 20260101] [--shape plain] [--xlsx BOOK.xlsx]

Every shape holds the same ledger (100k transactions over six years, 12 categories, 20 recurring rules, a
receipt for about one transaction in fifty; notes with commas, quotes and the odd line break, quoted tag
lists); the same seed and shape give the same bytes. The shapes differ in how its cells are spelled:

- `plain` (the default, and what bench/google and the big runs use): timestamps `…T08:00:00Z` without
  milliseconds, everything else as sheetsync writes it;
- `canonical`: exactly sheetsync's own spelling (`…T08:00:00.000Z`);
- `user`: as people and their spreadsheet programs type it, every row still valid under the standard
  forms (`dateOrder` mdy, decimal point: what `check DIR` and a store without settings read): dates
  `3/4/2026` and `03/04/2026` beside ISO ones, amounts `$1,234.50`, `1,234.50`, `12.5` and `1234`, times
  with and without milliseconds and with offsets (`+01:00`, `-05:00`), choices and booleans in other cases
  (`Expense`, `Paid`, `true`, `yes`), tags `food, weekly`, two columns of the user's own in Transactions
  (`Merchant` after `amount`, `Account` last), the Transactions sheet sorted by date, Windows line ends and
  the byte-order mark Excel writes;
- `dirty`: `canonical` with 1 % of the transactions rejected as people break them (a category that does not
  exist, an amount that does not read: `12,50`, `12.5O`, `-4.00`) and 0.5 % holding an id copied from an
  earlier row (not rejected: the copy gets an id of its own, with a note).

With `--xlsx BOOK.xlsx` (needs XlsxWriter) the same rows also go to a workbook, typed as a spreadsheet
program holds them: amounts and whole numbers as number cells, dates as date cells, booleans as checkboxes
(the `user` shape: amounts as number cells in a `$#,##0.00` format, dates in `m/d/yyyy`, a tenth of each
kept as text as typed; anything that does not read, as text).
"""
import argparse, csv, datetime, os, random, sys, uuid

from baselines import TABS, cell_kinds

TX = ["transactionId", "type", "date", "year", "month", "amount", "category", "tags", "note",
      "paidFlag", "reimbursedFlag", "recurringRuleId", "createdAt", "lastModifiedAt"]
RC = ["receiptId", "transactionId", "driveFileId", "fileName", "createdAt", "lastModifiedAt"]
CAT = ["name", "type", "emoji", "colorHex", "isActive", "sortOrder", "createdAt", "lastModifiedAt"]
RR = ["recurringRuleId", "isEnabled", "type", "amount", "category", "tags", "note", "startDate", "cadence",
      "interval", "endDate", "lastGeneratedDate", "createdAt", "lastModifiedAt"]
ST = ["datasetId", "schemaVersion", "timezone", "rootFolderId", "dataSpreadsheetId", "receiptsFolderId",
      "createdAt", "lastModifiedAt"]

CATEGORIES = [("Groceries", "expense", "🛒", "#4caf50"), ("Rent", "expense", "🏠", "#795548"),
              ("Dining", "expense", "🍽️", "#ff9800"), ("Transport", "expense", "🚌", "#2196f3"),
              ("Utilities", "expense", "💡", "#9c27b0"), ("Health", "expense", "💊", "#f44336"),
              ("Entertainment", "expense", "🎬", "#3f51b5"), ("Travel", "expense", "✈️", "#00bcd4"),
              ("Shopping", "expense", "🛍️", "#cddc39"), ("Salary", "income", "💼", "#009688"),
              ("Freelance", "income", "🧾", "#607d8b"), ("Gifts", "both", "🎁", "#e91e63")]
EXPENSE_WEIGHTS = [30, 1, 18, 14, 5, 4, 6, 2, 10, 0, 0, 3]
NOTES = ["", "", "", "Market", "Lunch with Sam", "Coffee", "Big shop, \"organic\" stuff", "Bus pass",
         "Dinner, drinks and dessert", "Electricity bill", "Refund pending, ask \"Ana\" again", "Book for Ana",
         "Weekly groceries", "Taxi home", "Pharmacy", "Cinema: two tickets", "Gas, water, internet",
         "Line one\nline two", "Paid cash", "Split with Jo, Kim and Lee"]
TAGS = ["", "", "", "food", "food,weekly", "work", "home", "bus", "trip,summer", "birthday", "health,kids"]
# The user shape's own columns and what people put in them.
MERCHANTS = ["", "", "REWE", "Aldi Süd", "Amazon.de", "Deutsche Bahn", "Café Central, Wien", "Shell",
             "Stadtwerke", "Apotheke am Markt", "Kino \"Lichtburg\"", "Ikea, Berlin-Tempelhof"]
ACCOUNTS = ["", "Checking", "Visa", "Cash", "Savings"]


def uid(rng):
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def stamp(dt, shape, rng=None):
    """A time as the shape spells it: `…T08:00:00Z` (plain, dirty's base is canonical), sheetsync's own
    `…T08:00:00.000Z` (canonical), or as people's tools write it (user: a third without milliseconds, a
    third with them, a third in local time with an offset)."""
    if shape == "plain":
        return dt.strftime("%Y-%m-%dT%H:%M:%SZ")
    if shape in ("canonical", "dirty") or rng is None:
        return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{dt.microsecond // 1000:03d}Z"
    pick = rng.randrange(6)
    if pick < 2:
        return dt.strftime("%Y-%m-%dT%H:%M:%SZ")
    if pick < 4:
        return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{dt.microsecond // 1000:03d}Z"
    hours = 1 if pick == 4 else -5
    local = dt + datetime.timedelta(hours=hours)
    return local.strftime("%Y-%m-%dT%H:%M:%S") + ("+01:00" if hours == 1 else "-05:00")


def typed_date(date, rng):
    """A date as a person types it under `mdy`: ISO, `3/4/2026` or `03/04/2026`."""
    pick = rng.randrange(4)
    if pick == 0:
        return date.isoformat()
    if pick == 3:
        return f"{date.month:02d}/{date.day:02d}/{date.year}"
    return f"{date.month}/{date.day}/{date.year}"


def typed_amount(cents, rng):
    """An amount as typed: `12.50`, `12.5`, `1234`, `1,234.50`, `$1,234.50`, `$12.50`."""
    whole, frac = divmod(cents, 100)
    pick = rng.randrange(6)
    if pick == 1 and frac % 10 == 0:
        return f"{whole}.{frac // 10}"
    if pick == 2 and frac == 0:
        return str(whole)
    grouped = f"{whole:,}.{frac:02d}"
    if pick == 3:
        return grouped
    if pick >= 4:
        return "$" + grouped
    return f"{whole}.{frac:02d}"


def recase(text, rng):
    return text.capitalize() if text and rng.random() < 0.3 else text


def build(rows, seed, shape):
    rng = random.Random(seed)
    user = shape == "user"
    # The user shape's spelling draws from its own generator: the ledger (ids, dates, amounts) is the
    # same in every shape.
    spell = random.Random(seed + 1)
    dirt = random.Random(seed + 3)  # and so do the dirty shape's defects
    epoch = datetime.datetime(2020, 1, 1, 8, 0, 0)
    t0 = stamp(epoch, shape)
    settings = [[uid(rng), "1", "Europe/Berlin", "", "", "", t0, t0]]
    categories = [[n, t, e, c, spell.choice(["true", "TRUE", "yes"]) if user else "TRUE", str(i + 1), t0, t0]
                  for i, (n, t, e, c) in enumerate(CATEGORIES)]
    rules = []
    for i in range(20):
        income = i % 5 == 0
        cat = "Salary" if income else rng.choice(["Rent", "Utilities", "Transport", "Entertainment"])
        start = datetime.date(2020, 1, 1) + datetime.timedelta(days=rng.randrange(365))
        rules.append([uid(rng), "TRUE" if i % 7 else "FALSE", "income" if income else "expense",
                      f"{rng.randrange(500, 400000) / 100:.2f}", cat, rng.choice(TAGS), rng.choice(NOTES[3:]),
                      start.isoformat(), rng.choice(["daily", "weekly", "monthly", "monthly", "yearly"]),
                      str(rng.choice([1, 1, 1, 2, 3])), "", "", t0, t0])
    names = [c[0] for c in CATEGORIES]
    transactions, receipts, dates = [], [], []
    span = 6 * 365 * 86400
    for n in range(rows):
        created = epoch + datetime.timedelta(seconds=rng.randrange(span), milliseconds=rng.randrange(1000))
        modified = created + datetime.timedelta(seconds=rng.choice([0, 0, 0, rng.randrange(1, 86400 * 30)]))
        income = rng.random() < 0.08
        cat = rng.choice(["Salary", "Freelance", "Gifts"]) if income else rng.choices(names, EXPENSE_WEIGHTS)[0]
        cents = max(rng.randrange(100_000, 900_000) if income else int(rng.lognormvariate(7.5, 1.2)), 1)
        amount = f"{cents // 100}.{cents % 100:02d}"
        rule = rng.choice(rules)[0] if rng.random() < 0.05 else ""
        date = created.date()
        tid = uid(rng)
        kind = "income" if income else "expense"
        tags, note = rng.choice(TAGS), rng.choice(NOTES)
        paid = rng.choice(["paid", "paid", "paid", "unpaid", ""])
        reimbursed = rng.choice(["", "", "", "", "reimbursed", "unreimbursed"])
        row = [tid, kind, date.isoformat(), str(date.year), str(date.month), amount, cat, tags, note, paid,
               reimbursed, rule, stamp(created, shape), stamp(modified, shape)]
        if user:
            row[1], row[9], row[10] = recase(kind, spell), recase(paid, spell), recase(reimbursed, spell)
            row[2], row[5] = typed_date(date, spell), typed_amount(cents, spell)
            row[7] = tags.replace(",", ", ") if spell.random() < 0.5 else tags
            row[12], row[13] = stamp(created, shape, spell), stamp(modified, shape, spell)
            row = row[:6] + [spell.choice(MERCHANTS)] + row[6:] + [spell.choice(ACCOUNTS)]
        elif shape == "dirty" and n > 0 and dirt.random() < 0.015:
            # 1 % rejected (a category or an amount), and 0.5 % ids copied: the copy is not rejected, it
            # gets an id of its own (a note), so it does not count in the 1 %.
            defect = dirt.randrange(3)
            if defect == 0:
                row[6] = cat + "s" if cat[-1] != "s" else cat[:-1]                        # no such category
            elif defect == 1:
                row[5] = dirt.choice([amount.replace(".", ","), amount[:-1] + "O", "-" + amount])  # does not read
            else:
                row[0] = transactions[dirt.randrange(len(transactions))][0]               # an id copied
        transactions.append(row)
        dates.append(date)
        if rng.random() < 0.02:
            name = f"{date.strftime('%Y%m%d')}_{cat}_{tid}_1.jpg"
            receipts.append([uid(rng), tid, "drive-" + uid(rng)[:13], name, stamp(created, shape),
                             stamp(created, shape)])
    tx_header = TX
    if user:
        tx_header = TX[:6] + ["Merchant"] + TX[6:] + ["Account"]
        order = sorted(range(len(transactions)), key=lambda i: dates[i])      # the sheet sorted by date
        transactions = [transactions[i] for i in order]
    return {"Settings": (ST, settings), "Categories": (CAT, categories), "RecurringRules": (RR, rules),
            "Transactions": (tx_header, transactions), "Receipts": (RC, receipts)}


def write_csv(folder, tabs, shape):
    os.makedirs(folder, exist_ok=True)
    user = shape == "user"
    for name, (header, rows) in tabs.items():
        # Excel's "CSV UTF-8" writes a byte-order mark and Windows line ends.
        with open(os.path.join(folder, name + ".csv"), "w", newline="", encoding="utf-8-sig" if user else "utf-8") as f:
            w = csv.writer(f, lineterminator="\r\n" if user else "\n")
            w.writerow(header)
            w.writerows(rows)


def parse_amount(text):
    try:
        value = float(text.replace("$", "").replace(",", ""))
    except ValueError:
        return None
    return value if value >= 0 and "," not in text.split(".")[-1] else None


def parse_date(text):
    for form in ("%Y-%m-%d", "%m/%d/%Y"):
        try:
            return datetime.datetime.strptime(text, form)
        except ValueError:
            pass
    return None


def write_xlsx(book, tabs, shape, seed):
    try:
        import xlsxwriter
    except ImportError:  # the smoke run installs nothing: the few calls used here, written out
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import minixlsx as xlsxwriter
    rng = random.Random(seed + 2)
    user = shape == "user"
    wb = xlsxwriter.Workbook(book, {"constant_memory": True})
    date_format = wb.add_format({"num_format": "m/d/yyyy" if user else "yyyy-mm-dd"})
    money_format = wb.add_format({"num_format": "$#,##0.00"})
    for name in TABS:
        header, rows = tabs[name]
        ws = wb.add_worksheet(name)
        ws.write_row(0, 0, header)
        kinds = cell_kinds(header)
        for r, row in enumerate(rows, start=1):
            for c, (kind, text) in enumerate(zip(kinds, row)):
                if text == "":
                    continue
                as_typed = user and rng.random() < 0.1
                value = None
                if kind == "n" and not as_typed:
                    value = parse_amount(text)
                    if value is not None:
                        ws.write_number(r, c, value, money_format if user and header[c] == "amount" else None)
                elif kind == "d" and not as_typed:
                    value = parse_date(text)
                    if value is not None:
                        ws.write_datetime(r, c, value, date_format)
                elif kind == "b":
                    value = text.lower() in ("true", "yes", "1")
                    ws.write_boolean(r, c, value)
                if value is None:
                    ws.write_string(r, c, text)
    wb.close()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out")
    p.add_argument("--rows", type=int, default=100_000)
    p.add_argument("--seed", type=int, default=20260101)
    p.add_argument("--shape", choices=["plain", "canonical", "user", "dirty"], default="plain")
    p.add_argument("--stamps", choices=["plain", "canonical"], help="the same as --shape plain / canonical")
    p.add_argument("--xlsx", metavar="BOOK.xlsx", help="also write the rows to this workbook")
    a = p.parse_args()
    shape = a.stamps or a.shape
    tabs = build(a.rows, a.seed, shape)
    write_csv(a.out, tabs, shape)
    if a.xlsx:
        write_xlsx(a.xlsx, tabs, shape, a.seed)


if __name__ == "__main__":
    main()
