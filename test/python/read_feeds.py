"""Parses Atom feeds with feedparser and prints what it finds as JSON.

Usage: /usr/bin/python3 read_feeds.py <feed.atom> [<feed.atom> ...]
"""
import json
import sys

import feedparser


def main(paths):
    feeds = []
    for path in paths:
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
