# Trove — the two commands: `make up` and `make test`. Everything else is a step of those.
SHELL := /bin/bash
.DEFAULT_GOAL := help

.PHONY: help install install-test build typecheck lint test test-unit test-e2e up backup restore clean docs bench bench-scale chaos eval-metadata eval-vision audit

help: ## List the targets
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'

install: ## Install what is missing (npm packages, nats-server, ffmpeg)
	@bash scripts/install.sh ffmpeg

install-test: install ## Also what the tests need (Debian chromium for the browser tests)
	@bash scripts/install.sh chromium

build: install ## Compile every workspace (TypeScript project references)
	@echo "==> build"
	@npx tsc -b tsconfig.build.json
	@npm run --silent build -w web
	@bash scripts/build-info.sh

typecheck: install ## Strict type-check of every workspace, tests included
	@echo "==> typecheck"
	@npx tsc -b tsconfig.build.json --pretty
	@npm run --silent typecheck -w web

lint: install ## ESLint and Prettier's check over the whole tree (npm run format rewrites what the check finds)
	@echo "==> lint"
	@npx eslint --max-warnings=0 .
	@npx prettier --check --log-level warn .

test: install-test build typecheck lint ## Build, type-check, lint, run every suite; ends with "N passed, N failed"
	@echo "==> test"
	@node scripts/run-tests.mjs

test-unit: install build ## Only each package's own tests (jest project unit: fast, no browser); same summary line
	@echo "==> test-unit"
	@node scripts/run-tests.mjs --selectProjects unit

test-e2e: install-test build ## Only the end-to-end suites: e2e/, make up itself, the docs site (jest project e2e)
	@echo "==> test-e2e"
	@node scripts/run-tests.mjs --selectProjects e2e

up: build docs ## Start nats-server, every service and the docs site, embedded stores under ./data (Ctrl-C stops all)
	@node scripts/up.mjs

backup: install ## Copy the stores, secrets and blobs of ./data (TROVE_DATA_DIR), also while up, into data/backups/trove-<time> (TROVE_BACKUP_DIR, TROVE_BACKUP_KEEP)
	@npx tsc -b services/kit
	@node scripts/backup.mjs

restore: install ## Verify the backup BACKUP=<path> and copy it into an empty ./data (TROVE_DATA_DIR); refuses a non-empty one
	@npx tsc -b services/kit
	@node scripts/restore.mjs "$(BACKUP)"

docs: install ## Build the documentation site into docs/build (a broken link fails the build)
	@echo "==> docs"
	@npm run build -w docs

bench: build ## Upload vs a minimal server and ingest vs a single-process baseline (ratio lines), then search p50/p99 and a media library's lists, RSS and cold start at 100k items
	@node scripts/bench-ingest.mjs $(BENCH_ARGS)
	@node scripts/bench-search.mjs $(BENCH_SEARCH_ARGS)
	@node scripts/bench-library.mjs $(BENCH_LIBRARY_ARGS)

bench-scale: build ## 1,000,000 items vs 100,000 (and 10,000 in the browser): lists vs the store and an ideal SQLite index, search, RSS, cold start, the web timeline (under an hour; not part of make bench); ratio lines
	@node scripts/bench-scale.mjs $(BENCH_SCALE_ARGS)

eval-metadata: build ## Metadata the worker reads vs ExifTool's truth on the real files of ../shared/eval/metadata (not part of make test); ends "ratio metadata_field_agreement V"
	@node scripts/eval-metadata.mjs $(EVAL_ARGS)

eval-vision: build ## Faces/people, things, words and places vs the labels of ../shared/eval/vision, with CPU ms per photo (not part of make test); "ratio NAME V" lines
	@node scripts/eval/vision.mjs $(EVAL_VISION_ARGS)

chaos: build ## 120 uploads while every service, a worker and nats-server are killed in turn; ends "N uploaded, N ready, N lost, N duplicated"
	@node scripts/chaos.mjs

audit: ## npm audit of the lockfile against scripts/audit-allowlist.json; says SKIPPED when the registry refuses audits
	@node scripts/audit.mjs

clean: ## Remove build output (keeps ./data)
	@npx tsc -b tsconfig.build.json --clean
	@rm -rf .test-results artifacts services/*/build-info.json docs/build docs/.docusaurus web/build
