#!/bin/sh
# resources.json validates against its JSON Schema (themes/default/static/
# resources.schema.json, also published as assets/resources.schema.json), and
# every citation points at a listed document and a listed URL spelling.
set -eu
PY=/usr/bin/python3
$PY -c 'import jsonschema' 2>/dev/null || PY=python3
$PY -c 'import jsonschema' 2>/dev/null || { echo "jsonschema missing"; exit 77; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
"$SSG" build -q -o "$d/out" 2>/dev/null
$PY - "$d/out" <<'PYEOF'
import json, sys, jsonschema
out = sys.argv[1]
data = json.load(open(out + "/resources.json"))
schema = json.load(open(out + "/assets/resources.schema.json"))
jsonschema.validate(data, schema)
paths = {d["path"] for d in data["documents"]}
n = 0
for r in data["resources"]:
    for c in r["citations"]:
        assert c["document"] in paths, c
        assert 0 <= c["spelling"] < len(r["urls"]), (r["url"], c)
        n += 1
assert len(data["resources"]) > 0 and n >= len(data["resources"])
print(f"resources_schema: {len(data['resources'])} resources, {n} citations valid")
PYEOF
