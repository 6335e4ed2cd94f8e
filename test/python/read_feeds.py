"""Parses Atom feeds with feedparser and prints what it finds as JSON.

Usage: /usr/bin/python3 read_feeds.py [--served <root> <origin>] <feed.atom> [<feed.atom> ...]

With --served, each feed is read as if fetched from <origin> at its path under <root> (Content-Location and
Content-Type as a server sends them): its relative links resolve against that address.
"""
import json
import os
import sys

import feedparser


def main(args):
    served = args[1:3] if args[:1] == ["--served"] else None
    paths = args[3:] if served else args
    feeds = []
    for path in paths:
        if served:
            root, origin = served
            address = origin.rstrip("/") + "/" + os.path.relpath(path, root)
            with open(path, "rb") as f:
                headers = {"content-location": address, "content-type": "application/atom+xml; charset=utf-8"}
                parsed = feedparser.parse(f.read(), response_headers=headers)
        else:
            parsed = feedparser.parse(path)
        feeds.append({
            "path": path,
            "version": parsed.version,
            "bozo": bool(parsed.bozo),
            "bozoException": str(parsed.get("bozo_exception", "")),
            "id": parsed.feed.get("id"),
            "title": parsed.feed.get("title"),
            "updated": parsed.feed.get("updated"),
            "links": [{"rel": l.get("rel"), "type": l.get("type"), "href": l.get("href")} for l in parsed.feed.get("links", [])],
            "entries": [{
                "id": e.get("id"),
                "title": e.get("title"),
                "updated": e.get("updated"),
                "summary": e.get("summary"),
                "link": e.get("link"),
                "category": e.tags[0].term if e.get("tags") else None,
            } for e in parsed.entries],
        })
    print(json.dumps(feeds))


main(sys.argv[1:])
