"""Extracts the schema.org Dataset of HTML pages with extruct and prints them as JSON.

Usage: /usr/bin/python3 read_schema_org.py <page.html> <page URL> [<page.html> <page URL> ...]
"""
import json
import sys

import extruct


def main(args):
    pages = []
    for path, url in zip(args[0::2], args[1::2]):
        with open(path, encoding="utf-8") as f:
            found = extruct.extract(f.read(), base_url=url, syntaxes=["json-ld"], uniform=True)
        datasets = [item for item in found["json-ld"] if item.get("@type") == "Dataset"]
        pages.append({"url": url, "jsonLd": len(found["json-ld"]), "datasets": datasets})
    print(json.dumps(pages))


main(sys.argv[1:])
