/**
 * What each folder of the repository is for. The folder-structure page of the dev guide renders the
 * real tree (from `git ls-files` at build time) and takes its descriptions from here.
 *
 * Every top-level folder and every npm workspace MUST have an entry in FOLDERS: the docs build
 * fails when one is missing, so the page cannot drift from the tree. Deeper folders and files are
 * described when they have an entry and listed without one otherwise.
 */
export const FOLDERS: Record<string, string> = {
  '.ci': 'CI entry point: `.ci/run` is exactly `make test`',
  '.github':
    'GitHub Actions: `workflows/ci.yml` runs `make test`, the store contract suites against MongoDB 7 and MinIO, the image builds and a kind install with the API smoke test',
  charts:
    'the Helm chart `trove` for a home-lab Kubernetes cluster; `charts/tests` checks it (and `k8s/`, the Dockerfile, skaffold, CI) in `make test`',
  'charts/trove':
    'the chart: every process, NATS/MongoDB/MinIO, generated secrets, worker scaling, network policies, ingress, metrics; `values.schema.json` refuses bad values',
  'charts/tests':
    '`helm lint --strict`, renders validated against the Kubernetes schemas and the workload policy, the delivery files',
  cli: 'workspace `@trove/cli`: the `trove` command (login with an API key, upload folders, import a Google Takeout), typed by the contract; `npm pack`-able',
  docs: 'this documentation site (Docusaurus 3.4.0 + redocusaurus)',
  'docs/docs': 'the pages: user guide and dev guide (Markdown/MDX)',
  'docs/plugins': 'build-time plugin reading the repository (API operations, NATS catalogue, this tree)',
  'docs/src': 'home page, React components, theme overrides, CSS',
  'docs/static': 'files copied as they are (logo, favicon)',
  'docs/test': 'the site test: build, serve on loopback, headless Chromium',
  e2e: 'workspace `@trove/e2e`: the end-to-end suites (gateway, media, library, the web app in a browser), on one client typed by the contract',
  'e2e/support':
    'the typed HTTP client (openapi-fetch + `paths` of `@trove/openapi`) and the steps every suite takes: users, login, uploads',
  k8s: 'kustomize: cluster prerequisites the chart does not own (namespace, limits, KEDA), base and `overlays/home-lab`',
  openapi: 'workspace `@trove/openapi`: `openapi.yaml`, the HTTP contract, and its loader',
  'openapi/scripts': 'code generation from the contract',
  'openapi/src': 'loader, operation list and contract tests',
  'proto-events':
    'workspace `@trove/proto-events`: NATS subjects, JSON Schemas, generated types, validators, `CATALOGUE.md`',
  'proto-events/scripts': '`generate.cjs`: types and `CATALOGUE.md` from the catalogue',
  'proto-events/src': 'the catalogue (`catalogue.ts`), subject definitions and validators',
  'proto-events/src/schemas': 'one JSON Schema per message (`<name>.v1.json`)',
  'proto-events/src/generated': 'TypeScript types generated from the schemas',
  scripts: '`install.sh`, `up.mjs` (what `make up` runs), `run-tests.mjs` (the summary line)',
  services: 'the back end: one folder (and one npm workspace) per process, plus the shared kit',
  'services/auth': 'workspace `@trove/auth`: users, passwords, sessions and tokens',
  'services/explore': 'workspace `@trove/explore`: places, things and people',
  'services/gateway': 'workspace `@trove/gateway`: the only HTTP entry (express, OpenAPI validation, authentication)',
  'services/jobs': 'workspace `@trove/jobs`: background (re)processing jobs over a library',
  'services/kit': 'workspace `@trove/kit`: shared runtime used by every service',
  'services/library': 'workspace `@trove/library`: albums and sharing',
  'services/media': 'workspace `@trove/media`: media items, favourites, hidden, trash, "years ago", search',
  'services/worker': 'workspace `@trove/worker`: processes uploaded media from the JetStream work queue',
  'services/kit/src/blobstore': 'blob store port and its adapters: filesystem and S3/MinIO',
  'services/kit/src/bus': 'NATS: request/reply, JetStream events and work queues, message headers',
  'services/kit/src/config': 'typed `TROVE_*` variables, validated at start (exit code 78)',
  'services/kit/src/docstore': 'document store port and its adapters: NeDB and MongoDB',
  'services/kit/src/errors': 'error types shared by services and the gateway',
  'services/kit/src/filetype': 'content sniffing of uploads (magic bytes)',
  'services/kit/src/log': 'structured JSON logs (pino)',
  'services/kit/src/secrets': 'generated secrets under the data directory (mode 0600)',
  'services/kit/src/service': 'process lifecycle: start, readiness, draining on SIGTERM',
  'services/kit/src/telemetry': 'OpenTelemetry traces (OTLP/HTTP when configured)',
  'services/kit/src/testing':
    'test harness: real nats-server, S3 server, child processes, a whole stack; test media in `testing/media`',
  'services/gateway/src/http': 'request ids, access log, error answers',
  'services/gateway/src/openapi':
    'the contract at work: routes by operationId, typed from and validated against `openapi.yaml`',
  'services/gateway/src/routes': 'the HTTP routes, one file per area',
  'services/gateway/src/security': 'bearer tokens, administrator basic auth, revocations, Authorization header parsing',
  web: 'the web app (Remix + React)',
};

/** Top-level files worth a word; other files are listed without a description. */
export const FILES: Record<string, string> = {
  Makefile: '`make up`, `make test`, `make docs` and their steps',
  'README.md': 'the short version of these docs',
  'package.json': 'npm workspaces and the root scripts',
  'package-lock.json': 'exact versions of every dependency',
  'tsconfig.base.json': 'strict compiler options shared by every workspace',
  'tsconfig.build.json':
    "project references: what `tsc -b` builds (dist/) and type-checks (tests, through each workspace's `tsconfig.test.json`)",
  'jest.config.js': 'one jest run over every workspace, as two projects: `unit` and `e2e`',
  'eslint.config.mjs': 'lint rules (flat config)',
  'skaffold.yaml': 'builds the images and deploys the chart: profiles `dev` (file sync) and `home-lab`',
  Dockerfile:
    'the images, one multi-stage build: `trove` (every Node.js process), `trove-worker` (plus ffmpeg), `trove-docs`',
  '.dockerignore': 'what stays out of the image build context',
  '.gitignore': 'what git leaves out: build output, `data/`, `artifacts/`',
};
