# One-command local stack and test suite. `make run` and `make test` install
# whatever is missing first (npm packages, Go modules, Chromium for the
# browser tests), so a fresh clone needs only Go and Node.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

export JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION := 1
export PORT ?= 8080
export DATA_DIR ?= .data

GO        ?= go
NPM       ?= npm
BIN       := .bin
WEBAPP    := webapp
CHROMIUM  ?= /usr/bin/chromium
LAMBDAS   := auth users prompts payments stripe-webhook mcp chat

.PHONY: help deps run dev test test-go test-web test-e2e build webapp clean

help: ## list targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/' | column -t -s $$'\t'

## --- installing what is missing ------------------------------------------

# npm ci again only when the lock file changed since the last install.
$(WEBAPP)/node_modules/.installed: $(WEBAPP)/package-lock.json
	cd $(WEBAPP) && $(NPM) ci --no-audit --no-fund --loglevel=error
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
	echo "installing chromium from Debian's packages"; \
	$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null

## --- building -------------------------------------------------------------

WEBAPP_SRC := $(shell find $(WEBAPP)/src $(WEBAPP)/public $(WEBAPP)/index.html $(WEBAPP)/vite.config.* $(WEBAPP)/tsconfig*.json -type f 2>/dev/null)

$(WEBAPP)/dist/index.html: $(WEBAPP)/node_modules/.installed $(WEBAPP_SRC)
	cd $(WEBAPP) && $(NPM) run build --silent

webapp: $(WEBAPP)/dist/index.html ## build the web app into webapp/dist

$(BIN)/devserver: $(BIN)/.go-modules FORCE
	$(GO) build -o $@ ./functions/devserver

FORCE:

build: $(BIN)/.go-modules ## cross-compile every Lambda as bootstrap zips in dist/lambda
	@mkdir -p dist/lambda
	@for fn in $(LAMBDAS); do \
	  mkdir -p dist/lambda/$$fn; \
	  GOOS=linux GOARCH=arm64 CGO_ENABLED=0 $(GO) build -trimpath -ldflags "-s -w" -tags lambda.norpc -o dist/lambda/$$fn/bootstrap ./functions/$$fn; \
	  (cd dist/lambda/$$fn && rm -f ../$$fn.zip && zip -q -X ../$$fn.zip bootstrap); \
	  echo "dist/lambda/$$fn.zip $$(du -h dist/lambda/$$fn/bootstrap | cut -f1)"; \
	done

## --- running --------------------------------------------------------------

run: deps webapp $(BIN)/devserver ## start the whole product on http://localhost:$(PORT)
	@echo "Starting on http://localhost:$(PORT) (data in $(DATA_DIR); Ctrl-C stops everything)"
	$(BIN)/devserver

dev: deps $(BIN)/devserver ## devserver plus Vite with hot reload on http://localhost:5173
	@trap 'kill 0' INT TERM EXIT; \
	$(BIN)/devserver & \
	(cd $(WEBAPP) && $(NPM) run dev); \
	wait

## --- testing --------------------------------------------------------------

test: deps $(CHROMIUM) ## run every test: Go, Vitest, browser end-to-end
	@$(MAKE) --no-print-directory test-go test-web test-e2e
	@echo "make test: every suite passed"

test-go: $(BIN)/.go-modules $(WEBAPP)/node_modules/.installed $(BIN)/stripe-mock ## Go unit and API tests (dynalite, stripe-mock)
	$(GO) vet ./shared/... ./functions/... ./infra/...
	STRIPE_MOCK_BIN=$(abspath $(BIN)/stripe-mock) $(GO) test -count=1 ./shared/... ./functions/... ./infra/...

test-web: $(WEBAPP)/node_modules/.installed ## Vitest unit and component tests
	cd $(WEBAPP) && $(NPM) run --silent typecheck && $(NPM) test --silent

test-e2e: webapp $(BIN)/devserver $(CHROMIUM) ## Playwright (playwright-core + Debian Chromium) against the devserver
	cd $(WEBAPP) && CHROMIUM_PATH=$(CHROMIUM) DEVSERVER_BIN=$(abspath $(BIN)/devserver) node --test --test-concurrency=1 e2e/

clean: ## remove build output (keeps .data)
	rm -rf $(BIN) dist $(WEBAPP)/dist cdk.out
