"""Decodes PNG files with Pillow and prints what a reader sees as JSON (test/integration/preview-image.test.ts).

For each file: its format, size and mode, the number of distinct colours, and how
many pixels of the box have exactly the colour asked for (a chart's line colour
inside the chart's box).

Usage: /usr/bin/python3 read_png.py <rrggbb> <left,top,right,bottom> <file.png>...
"""
import json
import sys

from PIL import Image


def read(path, colour, box):
    with Image.open(path) as image:
        image.load()
        rgb = image.convert("RGB")
        # At most one colour per pixel: getcolors' table is sized by maxcolors.
        colours = rgb.getcolors(maxcolors=image.width * image.height)
        inside = rgb.crop(box).getcolors(maxcolors=image.width * image.height)
        return {
            "format": image.format,
            "width": image.width,
            "height": image.height,
            "mode": image.mode,
            "colours": len(colours),
            "matching": sum(count for count, value in inside if value == colour),
        }


def main(hex_colour, box_text, paths):
    colour = tuple(int(hex_colour[i : i + 2], 16) for i in (0, 2, 4))
    box = tuple(int(n) for n in box_text.split(","))
    print(json.dumps([read(path, colour, box) for path in paths]))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
