#!/usr/bin/env node
/**
 * Validates an OpenAPI document (default: ../openapi.yaml) with @apidevtools/swagger-parser.
 *
 *   node openapi/scripts/validate.cjs [file.yaml]
 *
 * Prints `{"ok":true,...}` and exits 0 when valid; prints the error and exits 1 otherwise.
 * Runs in plain Node on purpose: swagger-parser's $ref parser is an ES module, which Node
 * (>= 20.19) can require() but Jest's CommonJS runtime cannot, so the test suite calls this
 * script in a child process.
 */
const { readFileSync } = require('node:fs');
const path = require('node:path');
const { parse } = require('yaml');
const SwaggerParser = require('@apidevtools/swagger-parser');

const file = process.argv[2] ? path.resolve(process.argv[2]) : path.resolve(__dirname, '..', 'openapi.yaml');

async function main() {
  const doc = parse(readFileSync(file, 'utf8'));
  // validate() dereferences in place: give it a deep copy.
  const api = await SwaggerParser.validate(structuredClone(doc));
  const operations = Object.values(api.paths || {}).reduce(
    (n, item) =>
      n + ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'].filter((m) => item[m]).length,
    0,
  );
  console.log(JSON.stringify({ ok: true, file, openapi: api.openapi, version: api.info.version, operations }));
}

main().catch((err) => {
  console.error(`${file}: ${err && err.message ? err.message : String(err)}`);
  process.exit(1);
});
