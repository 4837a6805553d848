# One-command local stack and test suite. `make run` and `make test` install
# whatever is missing first (npm packages, Go modules, Chromium for the
# browser tests), so a fresh clone needs only Go and Node.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

export JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION := 1
export JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION := 1
export PORT ?= 8080
export DATA_DIR ?= .data

GO        ?= go
# Every Go build shares one configuration (no cgo, trimmed paths, the Lambda
# runtime without its RPC mode): go vet, go test, the devserver and the
# function binaries then reuse one another's compiled packages instead of
# compiling each twice, which on an empty cache is minutes.
export CGO_ENABLED := 0
export GOFLAGS := -trimpath -tags=lambda.norpc
NPM       ?= npm
BIN       := .bin
WEBAPP    := webapp
# Debian's chromium-headless-shell: Chromium's own headless build (what
# Playwright itself runs headless), about 40% less CPU than the full browser
# in --headless mode, which on two cores is most of the browser suites' time.
CHROMIUM  ?= /usr/bin/chromium-headless-shell
CHROMIUM_PACKAGE ?= $(if $(findstring headless-shell,$(CHROMIUM)),chromium-headless-shell,chromium)
LAMBDAS   := auth users prompts payments stripe-webhook mcp chat mcp-jobs admin creators agents jwt-rotation
INFRA     := infra
CDK_OUTDIR ?= cdk.out
# The pinned CDK CLI runs the Go app of cdk.json; without notices and
# telemetry calls it needs no network, so synth works offline.
CDK       := CDK_DISABLE_CLI_TELEMETRY=true $(INFRA)/node_modules/.bin/cdk --no-notices

.PHONY: help deps run run-lambda lambdas-local test-e2e-lambda dev test test-suites test-go test-web test-e2e test-conformance bench bench-peers build webapp clean synth deploy test-infra

help: ## list targets
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/' | column -t -s $$'\t'

## --- installing what is missing ------------------------------------------

# npm ci again only when the lock file changed since the last install.
$(WEBAPP)/node_modules/.installed: $(WEBAPP)/package-lock.json
	cd $(WEBAPP) && $(NPM) ci --no-audit --no-fund --loglevel=error
	touch $@

# The pinned AWS CDK CLI (infra/package.json) for synth and deploy.
$(INFRA)/node_modules/.installed: $(INFRA)/package-lock.json
	cd $(INFRA) && $(NPM) ci --no-audit --no-fund --loglevel=error
	touch $@

$(BIN)/.go-modules: go.work shared/go.mod functions/go.mod infra/go.mod
	cd shared && $(GO) mod download
	cd functions && $(GO) mod download
	cd infra && $(GO) mod download
	mkdir -p $(BIN) && touch $@

deps: $(WEBAPP)/node_modules/.installed $(BIN)/.go-modules ## install npm packages and Go modules

STRIPE_MOCK_VERSION := v0.203.0

# stripe-mock: Stripe's API mock, for the Stripe provider's tests.
$(BIN)/stripe-mock:
	GOBIN=$(abspath $(BIN)) $(GO) install github.com/stripe/stripe-mock@$(STRIPE_MOCK_VERSION)

# Debian's Chromium for the browser tests (never a downloaded browser build).
$(CHROMIUM):
	@if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	echo "installing $(CHROMIUM_PACKAGE) from Debian's packages"; \
	$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(CHROMIUM_PACKAGE) >/dev/null

# Node 22 for the MCP conformance suite (it needs 22; the system Node may be
# older): the official build from npm's node-linux-<arch> package, kept in
# .bin/node22 and used for nothing else.
NODE22_VERSION := 22.23.3
NODE22 := $(BIN)/node22/bin/node
NODE22_ARCH := $(if $(filter aarch64 arm64,$(shell uname -m)),arm64,x64)
$(NODE22):
	@mkdir -p $(BIN)/node22.tmp
	cd $(BIN)/node22.tmp && $(NPM) pack --silent node-linux-$(NODE22_ARCH)@$(NODE22_VERSION) >/dev/null && tar xzf node-linux-*.tgz
	rm -rf $(BIN)/node22 && mv $(BIN)/node22.tmp/package $(BIN)/node22 && rm -rf $(BIN)/node22.tmp
	$(NODE22) --version

# The MCP conformance suite (@modelcontextprotocol/conformance, pinned).
CONFORMANCE := functions/mcpconformance/suite
$(CONFORMANCE)/node_modules/.installed: $(CONFORMANCE)/package-lock.json
	cd $(CONFORMANCE) && $(NPM) ci --no-audit --no-fund --loglevel=error
	touch $@

## --- building -------------------------------------------------------------

WEBAPP_SRC := $(shell find $(WEBAPP)/src $(WEBAPP)/public $(WEBAPP)/index.html $(WEBAPP)/vite.config.* $(WEBAPP)/tsconfig*.json -type f 2>/dev/null)

$(WEBAPP)/dist/index.html: $(WEBAPP)/node_modules/.installed $(WEBAPP_SRC)
	cd $(WEBAPP) && $(NPM) run build --silent

webapp: $(WEBAPP)/dist/index.html ## build the web app into webapp/dist

# Rebuilt when a file of the Go workspace changed (not on every call: suites
# running side by side must not rewrite a binary another one runs).
GO_SRC := go.work $(shell find shared functions -type f -not -path '*/node_modules/*' -not -path '*/testdata/*' 2>/dev/null)

$(BIN)/devserver: $(BIN)/.go-modules $(GO_SRC)
	$(GO) build -o $@ ./functions/devserver

# LAMBDAS must list every function of shared/lambdas (an infra test checks
# it). Zips are packed deterministically, so unchanged code keeps its CDK
# asset hash and is not redeployed.
build: $(BIN)/.go-modules ## cross-compile every Lambda as bootstrap zips in dist/lambda
	@mkdir -p dist/lambda $(BIN)
	@$(GO) build -o $(BIN)/lambdazip ./infra/cmd/lambdazip
	@for fn in $(LAMBDAS); do \
	  mkdir -p dist/lambda/$$fn; \
	  GOOS=linux GOARCH=arm64 CGO_ENABLED=0 $(GO) build -trimpath -ldflags "-s -w" -tags lambda.norpc -o dist/lambda/$$fn/bootstrap ./functions/$$fn; \
	  $(BIN)/lambdazip dist/lambda/$$fn.zip dist/lambda/$$fn/bootstrap; \
	  echo "dist/lambda/$$fn.zip $$(du -h dist/lambda/$$fn/bootstrap | cut -f1)"; \
	done

## --- deploying (AWS CDK; see docs/deploy.md) ----------------------------

synth: build webapp $(INFRA)/node_modules/.installed ## synthesize the CloudFormation templates offline into CDK_OUTDIR (default cdk.out)
	$(CDK) synth --quiet --output $(CDK_OUTDIR)
	@echo "templates in $(CDK_OUTDIR)/: $$(cd $(CDK_OUTDIR) && ls *.template.json | tr '\n' ' ')"

deploy: build webapp $(INFRA)/node_modules/.installed ## deploy to the AWS account of your credentials (cdk deploy; docs/deploy.md)
	$(CDK) deploy --output $(CDK_OUTDIR) $(CDK_DEPLOY_FLAGS)

## --- running --------------------------------------------------------------

run: deps webapp $(BIN)/devserver ## start the whole product with sample data on http://localhost:8080 (PORT; docs/local.md)
	@echo "Starting on http://localhost:$(PORT) (data in $(DATA_DIR); Ctrl-C stops everything)"
	$(BIN)/devserver

# The function binaries for this machine (make run-lambda, its browser
# tests): one go build for all, each binary named after its function.
LAMBDA_LOCAL := $(BIN)/lambda
lambdas-local: $(LAMBDA_LOCAL)/.built
# After the devserver (order only): two go builds side by side would each
# compile the same packages (Go shares finished compiles, not running ones);
# one after the other, the second finds them in the build cache.
$(LAMBDA_LOCAL)/.built: $(BIN)/.go-modules $(GO_SRC) | $(BIN)/devserver
	@mkdir -p $(LAMBDA_LOCAL)
	$(GO) build -ldflags "-s -w" -o $(LAMBDA_LOCAL)/ $(addprefix ./functions/,$(filter-out jwt-rotation,$(LAMBDAS)))
	touch $@

run-lambda: deps webapp $(BIN)/devserver lambdas-local ## the same product served by the real function binaries behind a local API Gateway (shared/local/lambdalocal)
	@echo "Starting on http://localhost:$(PORT) through the function binaries (timings at /dev/lambda; Ctrl-C stops everything)"
	LAMBDA_DIR=$(abspath $(LAMBDA_LOCAL)) $(BIN)/devserver

dev: deps $(BIN)/devserver ## devserver plus Vite with hot reload on http://localhost:5173
	@trap 'kill 0' INT TERM EXIT; \
	PUBLIC_URL="$${PUBLIC_URL:-http://localhost:5173}" $(BIN)/devserver & \
	(cd $(WEBAPP) && $(NPM) run dev); \
	wait

## --- testing --------------------------------------------------------------

# make test in three steps, each printed with its wall time at the end (also
# when a suite fails): what is missing is installed (npm packages, Go
# modules, Chromium, stripe-mock, side by side); what the suites run is built
# once (the web app, the devserver, the function binaries, handed to every
# suite that runs them); then the four suites run two by two (test-suites),
# each one's output printed whole when it ends, with its own time.
TEST_LOGS := $(BIN)/test-logs
test: ## run every test: Go, Vitest, browser end-to-end (installs what is missing first; docs/testing.md)
	@rm -rf $(TEST_LOGS); mkdir -p $(TEST_LOGS); status=0; t0=$$(date +%s); \
	step() { local name=$$1 s=$$(date +%s) rc=0; shift; "$$@" || rc=$$?; \
	  printf '  %-20s %4ss%s\n' "$$name" $$(( $$(date +%s) - s )) "$$( [ $$rc -eq 0 ] || echo '  FAILED')" >> $(TEST_LOGS)/times; return $$rc; }; \
	step install $(MAKE) --no-print-directory -j4 --output-sync=target deps $(CHROMIUM) $(BIN)/stripe-mock $(NODE22) $(CONFORMANCE)/node_modules/.installed \
	&& step build $(MAKE) --no-print-directory -j3 --output-sync=target webapp $(BIN)/devserver lambdas-local \
	&& $(MAKE) --no-print-directory test-suites || status=$$?; \
	printf 'make test, time per step (the suites two by two):\n'; cat $(TEST_LOGS)/times; \
	printf '  %-20s %4ss\n' total $$(( $$(date +%s) - t0 )); \
	if [ $$status -eq 0 ]; then echo "make test: every suite passed"; else echo "make test: FAILED (marked above)"; fi; \
	exit $$status

# The suites side by side, in two rounds: the Go tests and Vitest, then the
# two browser suites (Chromium is most of the CPU: the Go tests' timing
# checks do not run beside it). Each one's output is kept in
# $(TEST_LOGS)/<suite>.log and printed whole once it ended (in the round's
# order: their lines never interleave); each one adds its wall time to
# $(TEST_LOGS)/times when it ends. Every suite runs to its end; fails when
# any failed.
SUITE_ROUNDS := "test-go test-web test-conformance" "test-e2e test-e2e-lambda"
test-suites:
	@failed=0; \
	for round in $(SUITE_ROUNDS); do \
	  started=""; \
	  for suite in $$round; do \
	    ( t0=$$(date +%s); rc=0; $(MAKE) --no-print-directory $$suite > $(TEST_LOGS)/$$suite.log 2>&1 || rc=$$?; \
	      printf '  %-20s %4ss%s\n' $$suite $$(( $$(date +%s) - t0 )) "$$( [ $$rc -eq 0 ] || echo '  FAILED')" >> $(TEST_LOGS)/times; \
	      exit $$rc ) & \
	    started="$$started $$!:$$suite"; \
	  done; \
	  for job in $$started; do \
	    rc=0; wait $${job%%:*} || rc=$$?; suite=$${job#*:}; \
	    echo "=== $$suite: $$( [ $$rc -eq 0 ] && echo passed || echo FAILED) ==="; cat $(TEST_LOGS)/$$suite.log; \
	    [ $$rc -eq 0 ] || failed=1; \
	  done; \
	done; \
	exit $$failed

test-go: $(BIN)/.go-modules $(WEBAPP)/node_modules/.installed $(BIN)/stripe-mock $(BIN)/devserver lambdas-local ## Go unit and API tests (dynalite, stripe-mock)
	$(GO) vet ./shared/... ./functions/... ./infra/...
	STRIPE_MOCK_BIN=$(abspath $(BIN)/stripe-mock) DEVSERVER_BIN=$(abspath $(BIN)/devserver) LAMBDA_DIR=$(abspath $(LAMBDA_LOCAL)) \
	  $(GO) test -count=1 ./shared/... ./functions/... ./infra/...

test-infra: $(BIN)/.go-modules ## CDK stack assertions (synthesizes with dummy assets; also part of test-go)
	$(GO) test -count=1 ./infra/...

test-web: $(WEBAPP)/node_modules/.installed ## Vitest unit and component tests
	cd $(WEBAPP) && $(NPM) run --silent typecheck && $(NPM) test --silent

# The official MCP conformance suite's client scenarios against the product
# as `make run` starts it, driven through its HTTP API (functions/mcpconformance;
# docs/mcp.md): a table of every scenario, failing on a failure the
# expected-failures file does not list (or a listed one that passes).
test-conformance: $(BIN)/.go-modules $(BIN)/devserver $(NODE22) $(CONFORMANCE)/node_modules/.installed ## the MCP conformance suite's client scenarios against the product
	$(GO) build -o $(BIN)/mcpconformance ./functions/mcpconformance
	$(BIN)/mcpconformance run -devserver $(abspath $(BIN)/devserver) -node $(abspath $(NODE22)) -suite $(CONFORMANCE)

# Browser suites: each test file starts its own stack (devserver, dynalite,
# Chromium), so files run side by side: three of the main suite and two of
# the Lambda one, beside each other (their tests mostly wait on the stack;
# the local table's attempts are given 12 s, so load is never an outage).
E2E_CONCURRENCY ?= 3
E2E_LAMBDA_CONCURRENCY ?= 2
E2E = CHROMIUM_PATH=$(CHROMIUM) DEVSERVER_BIN=$(abspath $(BIN)/devserver) E2E_LOG_DIR=$(abspath $(TEST_LOGS))/stacks/$@ node --test
# When a browser suite fails: each of its stacks' warnings and errors (the
# devserver's output is in $(TEST_LOGS)/stacks/<suite>/<file>-<port>.log).
E2E_FAILED = { for f in $(abspath $(TEST_LOGS))/stacks/$@/*.log; do [ -f "$$f" ] || continue; \
	  lines=$$(grep -E 'level=(WARN|ERROR)|panic|fatal' "$$f" | tail -n 40); \
	  [ -z "$$lines" ] || printf '\n--- %s (warnings and errors, last 40) ---\n%s\n' "$${f\#\#*/}" "$$lines"; done; exit 1; }

test-e2e: webapp $(BIN)/devserver $(CHROMIUM) ## Playwright (playwright-core + Debian Chromium) against the devserver
	rm -rf $(TEST_LOGS)/stacks/$@; cd $(WEBAPP) && $(E2E) --test-concurrency=$(E2E_CONCURRENCY) e2e/*.test.mjs || $(E2E_FAILED)

# The main journeys again, through the function binaries (make run-lambda).
test-e2e-lambda: webapp $(BIN)/devserver lambdas-local $(CHROMIUM) ## the browser journeys against make run-lambda
	rm -rf $(TEST_LOGS)/stacks/$@; cd $(WEBAPP) && LAMBDA_DIR=$(abspath $(LAMBDA_LOCAL)) $(E2E) --test-concurrency=$(E2E_LAMBDA_CONCURRENCY) e2e/lambda/ || $(E2E_FAILED)

# Lighthouse (pinned) for the bench's lighthouse part, run on Debian's Chromium.
BENCH_LIGHTHOUSE := functions/bench/lighthouse

$(BENCH_LIGHTHOUSE)/node_modules/.installed: $(BENCH_LIGHTHOUSE)/package-lock.json
	cd $(BENCH_LIGHTHOUSE) && $(NPM) ci --no-audit --no-fund --loglevel=error
	touch $@

# Prints one table of the performance budgets (docs/benchmarks.md), each
# figure beside a reference measured in the same run; over budget is
# reported, not failed (unless BENCH_STRICT=1: then a row OVER exits 1).
bench: deps webapp build $(BIN)/devserver $(CHROMIUM) $(BENCH_LIGHTHOUSE)/node_modules/.installed ## measure the performance budgets (sizes, API, chat relay, tools, MCP connect, Lambda init, LCP, Lighthouse) against same-run references; docs/benchmarks.md
	@$(GO) build -o $(BIN)/bench ./functions/bench
	@CHROMIUM=$(CHROMIUM) $(BIN)/bench -devserver $(abspath $(BIN)/devserver) $(if $(BENCH_STRICT),-strict)

BENCH_PEERS := functions/bench/peers

$(BENCH_PEERS)/node_modules/.installed: $(BENCH_PEERS)/package-lock.json
	cd $(BENCH_PEERS) && $(NPM) ci --no-audit --no-fund --loglevel=error
	touch $@

# Optional: the chat relay measured through Portkey's gateway (pinned, npm)
# beside ours and the direct call, so a peer comparison stays one command.
bench-peers: deps $(BENCH_PEERS)/node_modules/.installed ## the chat relay beside a peer gateway (Portkey, pinned)
	@$(GO) build -o $(BIN)/bench ./functions/bench
	@$(BIN)/bench -peers

clean: ## remove build output (keeps .data)
	rm -rf $(BIN) dist $(WEBAPP)/dist cdk.out
