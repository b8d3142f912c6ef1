#!/usr/bin/env python3
"""Print, as openpyxl sees it, how a workbook is dressed up: everything but the cell values.

    python3 scripts/xlsx/dressing.py BOOK.xlsx

Output: {"sheets": {name: {"formulas": {cell: text}, "styles": {cell: {...}}, "comments":
{cell: text}, "hyperlinks": {cell: target}, "merged": [ranges], "validations": [ranges],
"conditional": [ranges], "autofilter": ref, "freeze": cell, "widths": {column: width}}},
"names": {name: value}}. A style is the cell's number format, bold, fill colour and font colour;
cells without a value, formula or style are left out. The push tests compare these before and
after each push. Exits 3 when openpyxl is missing, so a caller can skip rather than fail.
"""
import json
import sys

try:
    import openpyxl
except ImportError:
    sys.exit(3)


def style(cell):
    fill = cell.fill.fgColor.rgb if cell.fill is not None and cell.fill.fill_type else None
    return {
        "numberFormat": cell.number_format,
        "bold": bool(cell.font and cell.font.b),
        "fill": fill if isinstance(fill, str) else None,
        "fontColor": cell.font.color.rgb if cell.font and cell.font.color is not None and isinstance(cell.font.color.rgb, str) else None,
    }


def sheet_dressing(sheet):
    formulas, styles, comments, links = {}, {}, {}, {}
    for row in sheet.iter_rows():
        for cell in row:
            if cell.data_type == "f":
                formulas[cell.coordinate] = str(cell.value)
            if cell.has_style or cell.value is not None:
                styles[cell.coordinate] = style(cell)
            if cell.comment is not None:
                comments[cell.coordinate] = cell.comment.text
            if cell.hyperlink is not None:
                links[cell.coordinate] = cell.hyperlink.target or cell.hyperlink.location
    return {
        "formulas": formulas,
        "styles": styles,
        "comments": comments,
        "hyperlinks": links,
        "merged": sorted(str(r) for r in sheet.merged_cells.ranges),
        "validations": sorted(str(v.sqref) for v in sheet.data_validations.dataValidation),
        "conditional": sorted(str(c.sqref) for c in sheet.conditional_formatting),
        "autofilter": sheet.auto_filter.ref,
        "freeze": sheet.freeze_panes,
        "widths": {k: v.width for k, v in sorted(sheet.column_dimensions.items()) if v.customWidth},
    }


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: dressing.py BOOK.xlsx")
    book = openpyxl.load_workbook(sys.argv[1])
    names = {}
    for name, value in book.defined_names.items():
        names[name] = value.attr_text
    for sheet in book.worksheets:
        for name, value in sheet.defined_names.items():
            names[sheet.title + "!" + name] = value.attr_text
    print(json.dumps({"sheets": {s.title: sheet_dressing(s) for s in book.worksheets}, "names": names}, sort_keys=True))


if __name__ == "__main__":
    main()
