#!/usr/bin/env bash
# Remakes the fonts of the preview images (src/builder/fonts/, docs/site.md):
# DejaVu Sans and DejaVu Sans Bold from Debian's fonts-dejavu-core (2.37), cut by
# fontTools to the characters the pages' words use — Latin-1 and Latin Extended-A
# (Spanish accents, ñ, «»), general punctuation (– — “ ” …), superscripts (the
# log axis' 10⁻⁷), currency signs, arrows and the minus sign — without hinting
# (resvg does not use it): about 40 KB each instead of 700 KB. The licence (Bitstream
# Vera, DejaVu changes in the public domain) allows modified copies under a name
# without "Bitstream" or "Vera"; it is copied beside them.
# Run by hand after changing the ranges; the build only reads the committed files.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || bash scripts/apt-install.sh fonts-dejavu-core
/usr/bin/python3 -c "import fontTools" 2>/dev/null || bash scripts/apt-install.sh python3-fonttools
RANGES="U+0020-007E,U+00A0-017F,U+2000-206F,U+2070-209F,U+20A0-20BF,U+2190-2193,U+2212"
for name in DejaVuSans DejaVuSans-Bold; do
  /usr/bin/python3 -m fontTools.subset "/usr/share/fonts/truetype/dejavu/$name.ttf" \
    --unicodes="$RANGES" --no-hinting --output-file="src/builder/fonts/$name.ttf" 2>/dev/null
done
cp /usr/share/doc/fonts-dejavu-core/copyright src/builder/fonts/LICENSE
