"""Reads a data.xlsx with openpyxl and prints what it finds as JSON (test/integration/formats.test.ts).

Usage: /usr/bin/python3 read_xlsx.py <data.xlsx>
"""
import datetime
import json
import sys

import openpyxl


def cell_type(value):
    if isinstance(value, datetime.datetime):
        return "date"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return "number"
    if value is None:
        return "empty"
    return "text"


def main(path):
    book = openpyxl.load_workbook(path)
    data = book["data"]
    header = [c.value for c in data[1]]
    rows, types = [], {}
    for row in data.iter_rows(min_row=2):
        values = []
        for name, cell in zip(header, row):
            kind = cell_type(cell.value)
            types.setdefault(name, set()).add(kind)
            values.append(cell.value.date().isoformat() if kind == "date" else cell.value)
        rows.append(values)
    meta = book["metadata"]
    metadata = [
        [r[0].value, r[1].value, r[1].hyperlink.target if r[1].hyperlink is not None else None]
        for r in meta.iter_rows(min_row=2)
    ]
    props = book.properties
    print(json.dumps({
        "sheets": book.sheetnames,
        "header": header,
        "frozen": data.freeze_panes,
        "autoFilter": data.auto_filter.ref,
        "dateFormats": sorted({c.number_format for c in data["A"][1:]}),
        "types": {name: sorted(kinds) for name, kinds in types.items()},
        "rows": rows,
        "metadata": metadata,
        "created": props.created.isoformat() if props.created else None,
        "modified": props.modified.isoformat() if props.modified else None,
        "creator": props.creator,
    }))


main(sys.argv[1])
