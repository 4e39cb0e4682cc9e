# jsonprune: every job a newcomer or CI runs.
GO ?= go

.PHONY: test test-root test-bench vet example bench golden

# Every test of every module: the library (root module) and the Kubernetes
# oracle module under bench/.
test: vet test-root test-bench

vet:
	$(GO) vet ./...
	cd bench && $(GO) vet ./...

test-root:
	$(GO) test ./...

test-bench:
	cd bench && $(GO) test ./...

# The main job on the embedded example.
example:
	$(GO) run ./cmd/jsonprune --crd examples/widget-crd.yaml examples/widget.yaml

# Benchmarks of the library (see README, "Performance").
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./schemaauto/ ./decoder/

# Regenerate schemaauto/testdata/structural from the real Kubernetes code.
golden:
	cd bench && $(GO) run ./cmd/golden
