"""The part of XlsxWriter's interface generate.py uses, for a machine without XlsxWriter.

The test suite's bench smoke run must not install packages (tests never reach the internet), and
generate.py's workbook is all it needs: numbers, dates with a number format, booleans and inline
strings, one sheet per tab. With XlsxWriter installed (bench/run.sh installs it), generate.py uses
that instead.
"""

import datetime
import zipfile
from xml.sax.saxutils import escape

EPOCH = datetime.datetime(1899, 12, 30)


def column(c):
    letters = ""
    c += 1
    while c:
        c, r = divmod(c - 1, 26)
        letters = chr(65 + r) + letters
    return letters


class Worksheet:
    def __init__(self, name):
        self.name, self.rows = name, {}

    def _put(self, r, c, xml):
        self.rows.setdefault(r, []).append((c, xml))

    def write_row(self, r, c, values):
        for i, v in enumerate(values):
            self.write_string(r, c + i, v)

    def write_string(self, r, c, text):
        self._put(r, c, f'<c r="{column(c)}{r + 1}" t="inlineStr"><is><t xml:space="preserve">{escape(text)}</t></is></c>')

    def write_number(self, r, c, value, style=None):
        s = f' s="{style}"' if style else ""
        self._put(r, c, f'<c r="{column(c)}{r + 1}"{s}><v>{repr(float(value))}</v></c>')

    def write_datetime(self, r, c, value, style):
        delta = value - EPOCH
        self.write_number(r, c, delta.days + delta.seconds / 86400, style)

    def write_boolean(self, r, c, value):
        self._put(r, c, f'<c r="{column(c)}{r + 1}" t="b"><v>{int(bool(value))}</v></c>')

    def xml(self):
        rows = "".join(
            f'<row r="{r + 1}">' + "".join(x for _, x in sorted(cells)) + "</row>" for r, cells in sorted(self.rows.items())
        )
        return (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
            '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
            f"<sheetData>{rows}</sheetData></worksheet>"
        )


class Workbook:
    def __init__(self, path, options=None):
        self.path, self.sheets, self.formats = path, [], []

    def add_format(self, properties):
        self.formats.append(properties["num_format"])
        return len(self.formats)  # the style's index in cellXfs (0 is the default)

    def add_worksheet(self, name):
        self.sheets.append(Worksheet(name))
        return self.sheets[-1]

    def close(self):
        main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
        rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
        pkg = "http://schemas.openxmlformats.org/package/2006/relationships"
        n = len(self.sheets)
        fmts = "".join(f'<numFmt numFmtId="{164 + i}" formatCode="{escape(f)}"/>' for i, f in enumerate(self.formats))
        xfs = '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' + "".join(
            f'<xf numFmtId="{164 + i}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
            for i in range(len(self.formats))
        )
        styles = (
            f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><styleSheet xmlns="{main}">'
            f'<numFmts count="{len(self.formats)}">{fmts}</numFmts>'
            '<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>'
            '<fills count="1"><fill><patternFill patternType="none"/></fill></fills>'
            '<borders count="1"><border/></borders>'
            '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
            f'<cellXfs count="{len(self.formats) + 1}">{xfs}</cellXfs></styleSheet>'
        )
        sheets = "".join(f'<sheet name="{escape(s.name)}" sheetId="{i + 1}" r:id="rId{i + 1}"/>' for i, s in enumerate(self.sheets))
        workbook = f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="{main}" xmlns:r="{rel}"><sheets>{sheets}</sheets></workbook>'
        ws_type = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet"
        wb_rels = "".join(f'<Relationship Id="rId{i + 1}" Type="{ws_type}" Target="worksheets/sheet{i + 1}.xml"/>' for i in range(n))
        wb_rels += f'<Relationship Id="rId{n + 1}" Type="{rel}/styles" Target="styles.xml"/>'
        ct_sheet = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"
        overrides = "".join(f'<Override PartName="/xl/worksheets/sheet{i + 1}.xml" ContentType="{ct_sheet}"/>' for i in range(n))
        content_types = (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
            '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>'
            f"{overrides}</Types>"
        )
        root_rels = f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="{pkg}"><Relationship Id="rId1" Type="{rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>'
        with zipfile.ZipFile(self.path, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("[Content_Types].xml", content_types)
            z.writestr("_rels/.rels", root_rels)
            z.writestr("xl/workbook.xml", workbook)
            z.writestr("xl/_rels/workbook.xml.rels", f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="{pkg}">{wb_rels}</Relationships>')
            z.writestr("xl/styles.xml", styles)
            for i, s in enumerate(self.sheets):
                z.writestr(f"xl/worksheets/sheet{i + 1}.xml", s.xml())
