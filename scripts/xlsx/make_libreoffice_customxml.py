#!/usr/bin/env python3
"""Make Tests/SheetSyncTests/Fixtures/xlsx/ledger-libreoffice-customxml.xlsx.

A ledger with a customXml part (what Office 365 / SharePoint metadata and sensitivity labels add to a
workbook), re-saved by LibreOffice. LibreOffice writes the customXml link into the package's own
`_rels/.rels` with the target `../customXml/item1.xml`, which lies outside the package; sheetsync
refused such a workbook whole until it judged only the links it follows.

Run once (the result is committed): `python3 scripts/xlsx/make_libreoffice_customxml.py`. Needs
`soffice` (Debian: `apt-get install -y libreoffice-calc-nogui`); the committed file was made with
LibreOffice 7.4.7.2 (Debian 12). The input is the project's own ledger-xlsxwriter.xlsx with the three
customXml parts Office writes (an empty bibliography data store, its properties, their relationship)
linked from the workbook part, as Office links them.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "Tests", "SheetSyncTests", "Fixtures", "xlsx")
SOURCE = os.path.join(FIXTURES, "ledger-xlsxwriter.xlsx")
TARGET = os.path.join(FIXTURES, "ledger-libreoffice-customxml.xlsx")

ITEM = ('<?xml version="1.0" encoding="UTF-8" standalone="no"?><b:Sources '
        'xmlns:b="http://schemas.openxmlformats.org/officeDocument/2006/bibliography" SelectedStyle="/APA.XSL" StyleName="APA"/>')
PROPS = ('<?xml version="1.0" encoding="UTF-8" standalone="no"?><ds:datastoreItem ds:itemID="{6A3B1F7E-2C4D-4B8A-9E51-0C7D2A1B3F44}" '
         'xmlns:ds="http://schemas.openxmlformats.org/officeDocument/2006/customXml"><ds:schemaRefs>'
         '<ds:schemaRef ds:uri="http://schemas.openxmlformats.org/officeDocument/2006/bibliography"/></ds:schemaRefs></ds:datastoreItem>')
ITEM_RELS = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships '
             'xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" '
             'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXmlProps" Target="itemProps1.xml"/>'
             '</Relationships>')


def with_custom_xml(source, target):
    # Read every part first: ledger-xlsxwriter.xlsx lists its entries in another order than it stores them.
    with zipfile.ZipFile(source) as zin:
        parts = [(info.filename, zin.read(info.filename)) for info in zin.infolist()]
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zout:
        for name, data in parts:
            if name == "[Content_Types].xml":
                data = data.replace(b"</Types>", b'<Override PartName="/customXml/itemProps1.xml" '
                                    b'ContentType="application/vnd.openxmlformats-officedocument.customXmlProperties+xml"/></Types>')
            if name == "xl/_rels/workbook.xml.rels":
                data = data.replace(b"</Relationships>", b'<Relationship Id="rId99" '
                                    b'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXml" '
                                    b'Target="../customXml/item1.xml"/></Relationships>')
            zout.writestr(name, data)
        zout.writestr("customXml/item1.xml", ITEM)
        zout.writestr("customXml/itemProps1.xml", PROPS)
        zout.writestr("customXml/_rels/item1.xml.rels", ITEM_RELS)


def main():
    soffice = shutil.which("soffice")
    if soffice is None:
        sys.exit("soffice not found (apt-get install -y libreoffice-calc-nogui)")
    with tempfile.TemporaryDirectory() as work:
        staged = os.path.join(work, "in", "ledger.xlsx")
        os.makedirs(os.path.dirname(staged))
        with_custom_xml(SOURCE, staged)
        profile = "file://" + os.path.join(work, "profile")
        subprocess.run(
            [soffice, f"-env:UserInstallation={profile}", "--headless", "--calc",
             "--convert-to", "xlsx:Calc MS Excel 2007 XML", "--outdir", work, staged],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        produced = os.path.join(work, "ledger.xlsx")
        with zipfile.ZipFile(produced) as z:
            rels = z.read("_rels/.rels").decode()
        if "../customXml/item1.xml" not in rels:
            print("note: this LibreOffice did not write the customXml link outside the package:\n" + rels)
        shutil.copyfile(produced, TARGET)
        print(f"wrote {TARGET}")


if __name__ == "__main__":
    main()
