#!/usr/bin/env python3
"""Writes deterministic bank statements for the statement-import bench: a German bank's CSV export, an
OFX 1.x (SGML) statement, a QIF file and a CAMT.053 statement, each of the same N entries, and the config
whose rules categorise them.

    bench/statement_gen.py OUT_DIR [--rows 10000] [--seed 20260101]

OUT_DIR/bank.csv: a preamble (account, period), a header, N entries and a summary line, `;`-separated,
Windows-1252, decimal commas and day-first dates (`02.11.2026`), payees and purposes with umlauts and
`€`; no reference column, so every entry is identified by its fingerprint (date, amount, text, the
occurrence among equal entries of a day), the costlier way. OUT_DIR/statement.ofx: the same kind of
entries with FITIDs. OUT_DIR/statement.qif: a `!Type:Bank` section, day-first dates with slashes
(fingerprints). OUT_DIR/statement.camt053.xml: one `Stmt` of the account, each `Ntry` with its
`AcctSvcrRef`, parties and remittance lines. OUT_DIR/rules.json: the `import` section (a dozen rules) for the config.
The same seed gives the same bytes.
"""
import argparse, datetime, json, os, random

PAYEES = [("REWE Markt GmbH", "REWE SAGT DANKE {n} Köln", 5, 120),
          ("Lidl Dienstleistung", "LIDL {n} Düsseldorf", 3, 90),
          ("Bäckerei Müller", "Brötchen & Kaffee für {a} €", 2, 12),
          ("Deutsche Bahn", "Fahrkarte Köln–München {n}", 19, 140),
          ("Stadtwerke Straßburg", "Strom/Gas Abschlag {m}", 60, 160),
          ("Amazon EU S.a.r.l.", "Bestellung 302-{n}", 8, 250),
          ("Apotheke am Markt", "Kartenzahlung {n}", 4, 60),
          ("Kino Lichtspiele", "2 Karten, \"Premiere\"", 16, 30),
          ("Hausverwaltung Groß", "Miete {m}", 950, 1150),
          ("Café Crème", "Kartenzahlung", 3, 9),
          ("Shell Station {n}", "Tankstelle", 30, 90),
          ("Spotify AB", "Abo {m}", 10, 10)]
INCOME = [("Arbeitgeber AG", "Gehalt {m}", 2500, 3500), ("Finanzamt", "Erstattung {n}", 50, 900),
          ("Jana Schmidt", "Geschenk; danke!", 20, 100)]
RULES = [{"match": "rewe|lidl|aldi|edeka", "category": "Groceries", "tags": ["food"]},
         {"match": "b(ä|ae)ckerei|caf(é|e)", "category": "Dining"},
         {"match": "bahn|shell|tankstelle", "category": "Transport"},
         {"match": "stadtwerke|strom", "category": "Utilities"},
         {"match": "miete|hausverwaltung", "category": "Rent"},
         {"match": "amazon", "category": "Shopping"},
         {"match": "apotheke", "category": "Health"},
         {"match": "kino|spotify|netflix", "category": "Entertainment"},
         {"match": "gehalt|lohn", "category": "Salary"},
         {"match": "finanzamt", "category": "Taxes"},
         {"match": "geschenk", "category": "Gifts"},
         {"match": "^paypal\\b", "category": "Shopping"}]


def entries(rows, seed):
    rng = random.Random(seed)
    day = datetime.date(2024, 1, 1)
    out = []
    while len(out) < rows:
        for _ in range(rng.randint(2, 12)):
            if len(out) == rows:
                break
            income = rng.random() < 0.06
            payee, purpose, low, high = rng.choice(INCOME if income else PAYEES)
            cents = rng.randint(low * 100, high * 100)
            text = {"n": rng.randint(1000, 99999), "m": day.strftime("%m/%Y"), "a": f"{cents // 100},{cents % 100:02d}"}
            out.append((day, cents if income else -cents, payee.format(**text), purpose.format(**text)))
        day += datetime.timedelta(days=1)
    return out


def german(cents):
    sign = "-" if cents < 0 else ""
    whole, frac = divmod(abs(cents), 100)
    return f"{sign}{whole:,}".replace(",", ".") + f",{frac:02d}"


def write_csv(path, items):
    lines = ['"Kontonummer:";"DE02120300000000202051 / Girokonto";', "",
             f'"Von:";"{items[0][0]:%d.%m.%Y}";', f'"Bis:";"{items[-1][0]:%d.%m.%Y}";', "",
             '"Buchungstag";"Wertstellung";"Buchungstext";"Auftraggeber / Begünstigter";"Verwendungszweck";'
             '"Kontonummer";"BLZ";"Betrag (EUR)";']
    for day, cents, payee, purpose in items:
        kind = "Gutschrift" if cents > 0 else "Lastschrift"
        quoted = purpose.replace('"', '""')
        lines.append(f'"{day:%d.%m.%Y}";"{day:%d.%m.%Y}";"{kind}";"{payee}";"{quoted}";'
                     f'"DE89370400440532013000";"COBADEFFXXX";"{german(cents)}";')
    lines.append(f'"Summe";"";"";"";"";"";"";"{german(sum(c for _, c, _, _ in items))}";')
    with open(path, "wb") as f:
        f.write(("\r\n".join(lines) + "\r\n").encode("cp1252"))


def write_ofx(path, items):
    def esc(s):
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    head = ["OFXHEADER:100", "DATA:OFXSGML", "VERSION:102", "SECURITY:NONE", "ENCODING:UTF-8", "CHARSET:NONE",
            "COMPRESSION:NONE", "OLDFILEUID:NONE", "NEWFILEUID:NONE", "",
            "<OFX>", "<BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS>",
            "<STMTRS><CURDEF>EUR", "<BANKACCTFROM><BANKID>12030000<ACCTID>0000202051<ACCTTYPE>CHECKING</BANKACCTFROM>",
            f"<BANKTRANLIST><DTSTART>{items[0][0]:%Y%m%d}<DTEND>{items[-1][0]:%Y%m%d}"]
    body = []
    for i, (day, cents, payee, purpose) in enumerate(items):
        amount = ("-" if cents < 0 else "") + f"{abs(cents) // 100}.{abs(cents) % 100:02d}"
        body.append(f"<STMTTRN><TRNTYPE>{'CREDIT' if cents > 0 else 'DEBIT'}<DTPOSTED>{day:%Y%m%d}120000[+1:CET]"
                    f"<TRNAMT>{amount}<FITID>{day:%Y%m%d}{i:06d}<NAME>{esc(payee)}<MEMO>{esc(purpose)}</STMTTRN>")
    tail = ["</BANKTRANLIST>", "</STMTRS></STMTTRNRS></BANKMSGSRSV1>", "</OFX>"]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\r\n".join(head + body + tail) + "\r\n")


def write_qif(path, items):
    lines = ["!Type:Bank"]
    for day, cents, payee, purpose in items:
        amount = ("-" if cents < 0 else "") + f"{abs(cents) // 100:,}.{abs(cents) % 100:02d}"
        lines += [f"D{day:%d/%m/%Y}", f"T{amount}", f"P{payee}", f"M{purpose}", "^"]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def write_camt(path, items):
    def esc(s):
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    head = ['<?xml version="1.0" encoding="UTF-8"?>',
            '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">', "<BkToCstmrStmt>",
            "<GrpHdr><MsgId>BENCH</MsgId><CreDtTm>2026-01-01T06:00:00+01:00</CreDtTm></GrpHdr>",
            "<Stmt><Id>BENCH</Id><Acct><Id><IBAN>DE02120300000000202051</IBAN></Id><Ccy>EUR</Ccy></Acct>"]
    body = []
    for i, (day, cents, payee, purpose) in enumerate(items):
        party = "Dbtr" if cents > 0 else "Cdtr"
        body.append(f'<Ntry><Amt Ccy="EUR">{abs(cents) // 100}.{abs(cents) % 100:02d}</Amt>'
                    f"<CdtDbtInd>{'CRDT' if cents > 0 else 'DBIT'}</CdtDbtInd><Sts>BOOK</Sts>"
                    f"<BookgDt><Dt>{day:%Y-%m-%d}</Dt></BookgDt><AcctSvcrRef>{day:%Y%m%d}{i:06d}</AcctSvcrRef>"
                    f"<NtryDtls><TxDtls><RltdPties><{party}><Nm>{esc(payee)}</Nm></{party}></RltdPties>"
                    f"<RmtInf><Ustrd>{esc(purpose)}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>")
    tail = ["</Stmt>", "</BkToCstmrStmt>", "</Document>"]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(head + body + tail) + "\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--rows", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=20260101)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    items = entries(args.rows, args.seed)
    write_csv(os.path.join(args.out, "bank.csv"), items)
    write_ofx(os.path.join(args.out, "statement.ofx"), items)
    write_qif(os.path.join(args.out, "statement.qif"), items)
    write_camt(os.path.join(args.out, "statement.camt053.xml"), items)
    with open(os.path.join(args.out, "rules.json"), "w") as f:
        json.dump({"rules": RULES, "defaultCategory": "Uncategorized"}, f, ensure_ascii=False)


if __name__ == "__main__":
    main()
