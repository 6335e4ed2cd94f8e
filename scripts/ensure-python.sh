#!/usr/bin/env bash
# Makes sure Debian's Python (/usr/bin/python3: Debian's packages install for it,
# not for a pyenv build that may come first on PATH) has the readers the format
# tests use (test/integration/formats.test.ts): openpyxl, rdflib, extruct,
# feedparser and pandas, Pillow, the PNG decoder of the preview images'
# test (test/integration/preview-image.test.ts), and setuptools, wheel and pip, which
# install the Python client (clients/python) offline for its test
# (test/e2e/python-client.test.ts). The missing ones are installed with apt (as root, or
# through sudo: scripts/apt-install.sh), like scripts/ensure-chromium.sh does.
set -euo pipefail
PY=/usr/bin/python3
[ -x "$PY" ] || bash "$(dirname "$0")/apt-install.sh" python3
# module → Debian package; find_spec looks a module up without importing it (fast).
missing=$("$PY" - <<'PYTHON'
import importlib.util
for module, package in [("openpyxl", "python3-openpyxl"), ("rdflib", "python3-rdflib"), ("extruct", "python3-extruct"),
                        ("feedparser", "python3-feedparser"), ("pandas", "python3-pandas"), ("PIL", "python3-pil"),
                        ("setuptools", "python3-setuptools"), ("wheel", "python3-wheel"), ("pip", "python3-pip")]:
    if importlib.util.find_spec(module) is None:
        print(package)
PYTHON
)
for package in $missing; do
  bash "$(dirname "$0")/apt-install.sh" "$package"
done
# What was installed must import now.
[ -z "$missing" ] || "$PY" -c "import openpyxl, rdflib, extruct, feedparser, pandas, PIL, setuptools, wheel, pip"
