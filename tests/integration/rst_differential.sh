#!/bin/sh
# The reStructuredText reader against docutils: for every document of
# tests/rst/ (one per construct, plus the two RST seeds) the outline of ssg's
# tree (section titles and levels, list items, literal blocks, table cells,
# link targets) must equal the one docutils builds.
set -e
python3 -c 'import docutils' 2>/dev/null || { echo "docutils missing"; exit 77; }
make -s tools >/dev/null
python3 tests/rst_differential.py build/tools/rst_outline tests/rst/*.rst
