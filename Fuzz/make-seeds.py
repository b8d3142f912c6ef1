#!/usr/bin/env python3
"""Writes raw seed inputs for every fuzz target into OUT/<target>/ (scripts/fuzz.sh merges them, minimised,
into Fuzz/corpus/<target>/). Seeds come from samples/, the test fixtures, and hand-made edge cases."""
import glob, io, json, os, sys, zipfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
out = sys.argv[1]
counter = {}

def put(target, data):
    if isinstance(data, str):
        data = data.encode()
    os.makedirs(os.path.join(out, target), exist_ok=True)
    n = counter[target] = counter.get(target, 0) + 1
    with open(os.path.join(out, target, "seed-%03d" % n), "wb") as f:
        f.write(data)

# CSV: the samples (header + a few rows each, to keep inputs short) and line-ending/quoting cases.
csvs = sorted(glob.glob(os.path.join(root, "samples", "*", "*.csv")))
for path in csvs:
    data = open(path, "rb").read()
    lines = data.split(b"\n")
    for target in ("csv", "csv-roundtrip"):
        put(target, b"\n".join(lines[:6]) + b"\n")
edge = [
    b"\xef\xbb\xbfid,note\r\n1,\"a,b\"\r\n2,\"say \"\"hi\"\"\"\r\n",
    b"a,b\rc,d\r",
    b"a,b\n\n,\n\"multi\nline\",x",
    b"h1,h2,h3,h4,h5\n\"1,2,3\n4,5,6,7\n8,9\",x\n",
    b"id,note\n1,caf\xc3\xa9 \xe2\x82\xac\n2,\"x\"tail\n",
]
for e in edge:
    put("csv", e)
    put("csv-roundtrip", e)

# XLSX packages: the in-repo fixture workbooks.
xlsx = sorted(glob.glob(os.path.join(root, "Tests", "*", "Fixtures", "**", "*.xls[xm]"), recursive=True))
for path in xlsx:
    put("xlsx-package", open(path, "rb").read())

# XLSX parts: selector byte (FuzzPackage.Part order) + the part's XML, taken from the fixtures.
selectors = [("worksheets/sheet", 0), ("sharedStrings.xml", 1), ("styles.xml", 2), ("xl/workbook.xml", 3),
             ("xl/_rels/workbook.xml.rels", 4), ("_rels/.rels", 5)]
seen = set()
for path in xlsx:
    try:
        z = zipfile.ZipFile(path)
    except zipfile.BadZipFile:
        continue
    for name in z.namelist():
        for key, sel in selectors:
            if key in name.replace("\\", "/") and name.endswith((".xml", ".rels")):
                data = z.read(name)
                if len(data) <= 16384 and data not in seen:
                    seen.add(data)
                    put("xlsx-part", bytes([sel]) + data)

# Package relationships sheetsync follows and ones it leaves alone: LibreOffice's customXml link
# outside the package, an officeDocument link that climbs out, an external one, a .xlsb's binary workbook.
PKG = "http://schemas.openxmlformats.org/package/2006/relationships"
OFF = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
def rels(*items):
    body = "".join('<Relationship Id="%s" Type="%s/%s" Target="%s"%s/>' % (i, OFF, t, target, extra)
                   for i, t, target, extra in items)
    return '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="%s">%s</Relationships>' % (PKG, body)
for r in [rels(("rId1", "officeDocument", "xl/workbook.xml", ""), ("rId5", "customXml", "../customXml/item1.xml", "")),
          rels(("rId1", "officeDocument", "../xl/workbook.xml", "")),
          rels(("rId1", "officeDocument", "/xl/workbook.xml", ""), ("rId2", "hyperlink", "http://example.com/", ' TargetMode="External"')),
          rels(("rId1", "officeDocument", "xl/workbook.bin", ""))]:
    put("xlsx-part", bytes([5]) + r.encode())
put("xlsx-part", bytes([4]) + rels(("rId1", "worksheet", "worksheets/sheet1.xml", ""),
                                   ("rId2", "customXml", "../../customXml/item1.xml", ""),
                                   ("rId3", "styles", "styles.xml", "")).encode())
# Parts that hold no XML (libxml2's "Document is empty"): junk, whitespace, a ZIP's first bytes.
for junk in [b"garbage<worksheet/>", b"   \n\t ", b"PK\x03\x04\x14\x00\x00\x00"]:
    put("xlsx-part", bytes([0]) + junk)

# Files that are not XLSX packages, which the reader names for what they are.
def zipped(entries):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        for name, data in entries:
            z.writestr(name, data)
    return buffer.getvalue()
put("xlsx-package", zipped([]))
put("xlsx-package", zipped([("mimetype", "application/vnd.oasis.opendocument.spreadsheet"),
                            ("META-INF/manifest.xml", "<manifest/>"), ("content.xml", "<office:document-content/>")]))
put("xlsx-package", zipped([("[Content_Types].xml", "<Types/>"), ("xl/workbook.xml", "<workbook/>")]))
put("xlsx-package", zipped([("word/document.xml", "<w:document/>")]))
put("xlsx-package", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 504 + "Workbook\0".encode("utf-16-le"))
put("xlsx-package", b'<?xml version="1.0"?><Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet"/>')
put("xlsx-package", b"date,amount,note\n2026-01-02,12.50,lunch\n")

# Field values: every format the parsers accept, and near misses.
for v in ["2026-01-02", "2026/1/2", "1/15/2026", "15.01.2026", "46023", "46023.5", "46023.999999999", "0.5",
          "2026-11-21T22:31:20.123Z", "2026-11-21T22:31:20Z", "2026-11-21T22:31:20+05:30", "2026-11-21 22:31",
          "$1,234.50", "1234.5", "-3", "1e3", "1.5E-3", " 12.50 ", "(12.50)", "12,5", "€ 9", "0.000",
          "TRUE", "false", "yes", "N", "1", "0", "paid", "Expense", "income",
          "c09ca393-0084-5db0-a1be-912f4bec2b3d", "{C09CA3930084-5DB0-A1BE-912F4BEC2B3D}", "99999999999999999999",
          "2026-02-29", "2024-02-29", "9999-12-31", "0001-01-01",
          # The other valid forms the byte-level fast paths read.
          "2025-11-13T09:57:50Z", "2025-11-13T09:57:50.1Z", "2025-11-13T09:57:50.123456789Z", "2025-11-13T10:57:50-01:00",
          "2025-11-13 09:57:50,5+0100", "2025-11-13t09:57:50z", "2026.1.5", "01/05/2026", "2026--1-5", "+$1,234",
          "£0.5", "¥1,000,000", "0,001.10", "$.5", "1,2345", "YES", "No", "y", "C09CA39300845DB0A1BE912F4BEC2B3D",
          "{c09ca393-0084-5db0-a1be-912f4bec2b3d}", "EXPENSE", "Unreimbursed", "Monthly"]:
    put("fields", v)

# Terminal text: escapes, bidi and zero-width characters, full-width letters, lines, bad UTF-8.
for v in ["Dining", "Evil\x1b[2J", "\x1b]0;pwned\x07\x1b[1A\x1b[2K", "Din\u200bing", "\uff24\uff49\uff4e\uff49\uff4e\uff47",
          "line one\nline two\r\n\tthird", "\u202eevil\u202c", "caf\u00e9 \U0001F469\u200d\U0001F4BB", "\x00\x7f\u0085\u009b",
          "\ufeffBOM", "back\\eslash", "\u0130stanbul", "\u3000wide space", "\n\n"]:
    put("terminal-text", v)
put("terminal-text", b"bad \xff\xfe utf8 \xc2")

# Config files.
put("config", open(os.path.join(root, "config.example.json"), "rb").read())
for c in [{"store": "s.sqlite", "remote": {"type": "xlsx", "path": "w.xlsx"}, "timezone": "Europe/Berlin", "backups": 3},
          {"store": "~/s.sqlite", "remote": {"type": "google", "credentials": "c.json", "endpoint": "http://127.0.0.1:8089",
                                             "spreadsheetId": "abc", "retryBudgetSeconds": 1.5, "maxRequestBytes": 1000000}},
          {"store": "s", "remote": {"type": "csv"}}]:
    put("config", json.dumps(c))

# Google responses: values, spreadsheets, Drive files, error bodies, credentials.
for g in [
    {"range": "Transactions!A1:C3", "majorDimension": "ROWS", "values": [["id", "amount"], ["x", 12.5], [], ["", True, 1e-7]]},
    {"spreadsheetId": "s1", "valueRanges": [{"range": "Settings!A1:H2", "values": [["datasetId"]]}]},
    {"spreadsheetId": "s1", "properties": {"title": "Ledger"}, "sheets": [
        {"properties": {"sheetId": 0, "title": "Transactions", "index": 0, "gridProperties": {"rowCount": 1000, "columnCount": 26}}}]},
    {"id": "f1", "name": "Ledger", "mimeType": "application/vnd.google-apps.spreadsheet", "parents": ["p"],
     "appProperties": {"sheetsyncDatasetId": "d"}, "modifiedTime": "2026-01-01T00:00:00.000Z", "version": "12"},
    {"error": {"code": 403, "message": "Rate limit, token ya29.secret", "status": "PERMISSION_DENIED",
               "errors": [{"reason": "rateLimitExceeded"}], "details": [{"reason": "RATE_LIMIT_EXCEEDED"}]}},
    {"error": "invalid_grant", "error_description": "Token has been expired or revoked."},
    {"type": "authorized_user", "client_id": "c.apps.googleusercontent.com", "client_secret": "s", "refresh_token": "1//r"},
    {"type": "service_account", "project_id": "demo", "private_key_id": "k", "client_email": "a@demo.iam.gserviceaccount.com",
     "private_key": "-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n", "token_uri": "https://oauth2.googleapis.com/token"},
]:
    put("google-json", json.dumps(g))
put("google-json", b'{"n": -0.0e+10, "s": "\\u00e9\\ud83d\\ude00\\n", "a": [null, false, 123456789012345678901234567890]}')

# XLSX round trip: lines are rows, tabs separate cells, a cell's first byte picks its type (see XLSXRoundTrip.swift).
put("xlsx-roundtrip", b"\x00id\t\x00amount\t\x00date\n\x00abc\t\x0312.50\t\x0546023.5\n\n\x00 spaced \t\x04x\t\x06#N/A\n")
put("xlsx-roundtrip", b"\x00a&b<c>\r\n\x01Categories\n\x00name\n\x00caf\xc3\xa9\t\x03+1E5\t\x0559\n")
