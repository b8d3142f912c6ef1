#!/usr/bin/env python3
"""The one-row changes bench/run.sh times a sync after, applied to a synced work folder.

    edit_one_row.py pick FOLDER        prints the transactionId of the middle row of Transactions.csv
    edit_one_row.py hand FOLDER ID     edits that row's note in Transactions.csv as a person would with a
                                       text editor: only that record's bytes change (the note gets
                                       " (edited)" appended, lastModifiedAt becomes now, `…T08:00:00Z`)
    edit_one_row.py store FOLDER ID    the same note edit in the store with SQL (the triggers stamp it)
    edit_one_row.py delete FOLDER ID   deletes that transaction from the store with SQL

Python's own sqlite3 module does the SQL, so the script needs no sqlite3 CLI. Each prints what it did,
and fails (exit 1) when the row is not there, so a prepare step that changed nothing cannot pass.
"""
import csv, datetime, io, os, sqlite3, sys

STORE = "sheetsync.sqlite"


def transactions_csv(folder):
    return os.path.join(folder, "Transactions.csv")


def pick(folder):
    with open(transactions_csv(folder), newline="", encoding="utf-8-sig") as f:
        reader = csv.reader(f)
        header = next(reader)
        ids = [row[header.index("transactionId")] for row in reader]
    if not ids:
        sys.exit(f"edit_one_row.py: {transactions_csv(folder)} has no rows")
    print(ids[len(ids) // 2])


def record_end(data, start):
    """The offset just past the line break that ends the CSV record starting at `start` (quote-aware:
    a note may hold a line break inside quotes)."""
    quoted = False
    i = start
    while i < len(data):
        byte = data[i]
        if byte == 0x22:  # "
            quoted = not quoted  # a doubled "" toggles twice, which is right
        elif byte == 0x0A and not quoted:
            return i + 1
        i += 1
    return len(data)


def hand(folder, tid):
    path = transactions_csv(folder)
    data = open(path, "rb").read()
    header_end = record_end(data, 0)
    newline = "\r\n" if data[:header_end].endswith(b"\r\n") else "\n"
    header = next(csv.reader(io.StringIO(data[:header_end].decode("utf-8-sig"))))  # Excel's byte-order mark
    # The key is the first column of a generated ledger, so the record starts at a line start with it;
    # the header names the columns, so a reordered file still finds note and lastModifiedAt.
    key_column = header.index("transactionId")
    start = data.find(b"\n" + tid.encode() + b",") + 1 if key_column == 0 else 0
    if key_column != 0 or start == 0:
        sys.exit(f"edit_one_row.py: {path}: no row starting with transactionId {tid}")
    end = record_end(data, start)
    row = next(csv.reader(io.StringIO(data[start:end].decode("utf-8"), newline="")))
    note = header.index("note")
    row[note] = (row[note] + " (edited)").strip()  # an empty note becomes "(edited)", as the store's TRIM does
    row[header.index("lastModifiedAt")] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    out = io.StringIO()
    csv.writer(out, lineterminator=newline).writerow(row)
    with open(path, "wb") as f:
        f.write(data[:start] + out.getvalue().encode("utf-8") + data[end:])
    print(f"edited the note of {tid} in {path}")


def sql(folder, tid, statement, what):
    db = sqlite3.connect(os.path.join(folder, STORE))
    try:
        changed = db.execute(statement, (tid,)).rowcount
        db.commit()
    finally:
        db.close()
    if changed != 1:
        sys.exit(f"edit_one_row.py: {folder}/{STORE}: {changed} rows for transactionId {tid}")
    print(f"{what} {tid} in the store")


if __name__ == "__main__":
    command, folder, rest = sys.argv[1], sys.argv[2], sys.argv[3:]
    if command == "pick":
        pick(folder)
    elif command == "hand":
        hand(folder, rest[0])
    elif command == "store":
        sql(folder, rest[0], "UPDATE transactions SET note = TRIM(COALESCE(note, '') || ' (edited)') WHERE transactionId = ?", "edited the note of")
    elif command == "delete":
        sql(folder, rest[0], "DELETE FROM transactions WHERE transactionId = ?", "deleted")
    else:
        sys.exit(__doc__)
