#!/usr/bin/env python3
"""Writes a deterministic benchmark workbook: a CSV folder (and optionally an .xlsx of the same rows).

    bench/generate.py OUT_DIR [--rows 100000] [--seed 20260101] [--xlsx BOOK.xlsx]

The rows look like a real ledger as people and other tools write it: timestamps `…T08:00:00Z`
without milliseconds (`--stamps canonical` writes sheetsync's own `…T08:00:00.000Z`), v4 UUIDs, dates over six years with matching year/month, amounts
with two decimals (a few in the thousands), a dozen categories, tags that are sometimes a quoted
comma list, notes with commas, quotes and the odd line break, paid/reimbursed flags, some
transactions made by recurring rules, and receipts for about one transaction in fifty.
"""
import argparse, csv, datetime, os, random, uuid

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


def uid(rng):
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


STAMPS = "plain"  # set by --stamps


def stamp(dt):
    """`2026-01-01T08:00:00Z` as people and other tools write it (default), or sheetsync's own
    millisecond form with `--stamps canonical`."""
    if STAMPS == "plain":
        return dt.strftime("%Y-%m-%dT%H:%M:%SZ")
    return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{dt.microsecond // 1000:03d}Z"


def build(rows, seed):
    rng = random.Random(seed)
    epoch = datetime.datetime(2020, 1, 1, 8, 0, 0)
    t0 = stamp(epoch)
    settings = [[uid(rng), "1", "Europe/Berlin", "", "", "", t0, t0]]
    categories = [[n, t, e, c, "TRUE", str(i + 1), t0, t0] for i, (n, t, e, c) in enumerate(CATEGORIES)]
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
    transactions, receipts = [], []
    span = 6 * 365 * 86400
    for _ in range(rows):
        created = epoch + datetime.timedelta(seconds=rng.randrange(span), milliseconds=rng.randrange(1000))
        modified = created + datetime.timedelta(seconds=rng.choice([0, 0, 0, rng.randrange(1, 86400 * 30)]))
        income = rng.random() < 0.08
        cat = rng.choice(["Salary", "Freelance", "Gifts"]) if income else rng.choices(names, EXPENSE_WEIGHTS)[0]
        cents = rng.randrange(100_000, 900_000) if income else int(rng.lognormvariate(7.5, 1.2))
        amount = f"{max(cents, 1) // 100}.{max(cents, 1) % 100:02d}"
        rule = rng.choice(rules)[0] if rng.random() < 0.05 else ""
        date = created.date()
        tid = uid(rng)
        transactions.append([tid, "income" if income else "expense", date.isoformat(), str(date.year),
                             str(date.month), amount, cat, rng.choice(TAGS), rng.choice(NOTES),
                             rng.choice(["paid", "paid", "paid", "unpaid", ""]),
                             rng.choice(["", "", "", "", "reimbursed", "unreimbursed"]), rule,
                             stamp(created), stamp(modified)])
        if rng.random() < 0.02:
            name = f"{date.strftime('%Y%m%d')}_{cat}_{tid}_1.jpg"
            receipts.append([uid(rng), tid, "drive-" + uid(rng)[:13], name, stamp(created), stamp(created)])
    return {"Settings": (ST, settings), "Categories": (CAT, categories), "RecurringRules": (RR, rules),
            "Transactions": (TX, transactions), "Receipts": (RC, receipts)}


def write_csv(folder, tabs):
    os.makedirs(folder, exist_ok=True)
    for name, (header, rows) in tabs.items():
        with open(os.path.join(folder, name + ".csv"), "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(header)
            w.writerows(rows)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out")
    p.add_argument("--rows", type=int, default=100_000)
    p.add_argument("--seed", type=int, default=20260101)
    p.add_argument("--stamps", choices=["plain", "canonical"], default="plain")
    a = p.parse_args()
    global STAMPS
    STAMPS = a.stamps
    write_csv(a.out, build(a.rows, a.seed))


if __name__ == "__main__":
    main()
