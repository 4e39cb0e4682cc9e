# jsonprune: every job a newcomer or CI runs.
GO ?= go

.PHONY: test test-root test-bench vet example bench bench-peers golden fuzz-smoke fuzz-oracle fuzz

# Every test of every module: the library (root module) and the Kubernetes
# oracle module under bench/.
test: vet test-root test-bench

vet:
	@echo "== vet: go vet, root module and bench/ (bench/ compiles the Kubernetes oracle: slow the first time)"
	$(GO) vet ./...
	cd bench && $(GO) vet ./...
	@echo "== vet: the root module on macOS and Windows too (the command line has per-system files)"
	GOOS=darwin GOARCH=arm64 $(GO) vet ./...
	GOOS=windows GOARCH=amd64 $(GO) vet ./...

# go test's default 10-minute limit per package is too close for bench/'s
# differentials on a loaded 2-core machine (its conformance package takes
# about 9 minutes there): the limits below still end a hung test.
test-root:
	@echo "== test-root: go test ./... in the root module (the fast loop)"
	$(GO) test -timeout 20m ./...

test-bench:
	@echo "== test-bench: go test ./... in bench/, the Kubernetes oracle (slow the first time: it builds the Kubernetes modules)"
	cd bench && $(GO) test -timeout 40m ./...

# The main job on the embedded example.
example:
	$(GO) run ./cmd/jsonprune --crd examples/widget-crd.yaml examples/widget.yaml

# Benchmarks of the library (see README, "Performance").
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./schemaauto/ ./decoder/

# Issue 12's bar, validation's cost over prune-only, as one ratio per run
# (decoder's BenchmarkValidationCost: prune-only and validating passes
# alternate), VC_ROUNDS runs; README, "Value validation".
VC_ROUNDS ?= 10
.PHONY: bench-validation-cost
bench-validation-cost:
	cd decoder && $(GO) test -c -o $(BENCHTMP)/jsonprune-decoder.test . && \
	  for i in $$(seq $(VC_ROUNDS)); do $(BENCHTMP)/jsonprune-decoder.test -test.run '^$$' -test.bench 'BenchmarkValidationCost' -test.benchtime 60x; done

# Benchmarks against the Kubernetes reference pipeline and the jsontext
# floors, in ROUNDS rounds, summarised by benchstat (each contender's
# MB/s, B/op and allocs/op over the rounds) and as median ratios measured
# side by side (bench/cmd/ratios; see README, "Performance").
ROUNDS ?= 5
BENCHTMP ?= /tmp
BENCHSTAT ?= $(GO) run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
bench-peers:
	cd bench/perf && $(GO) test -c -o $(BENCHTMP)/jsonprune-perf.test . && \
	  for i in $$(seq $(ROUNDS)); do $(BENCHTMP)/jsonprune-perf.test -test.run '^$$' -test.bench 'BenchmarkCorpus|BenchmarkLarge' -test.benchmem; done | tee $(BENCHTMP)/jsonprune-perf.txt
	$(BENCHSTAT) $(BENCHTMP)/jsonprune-perf.txt
	cd bench && for base in reference-bytes reference-map reference-validate-bytes floor-jsontext-token-copy; do $(GO) run ./cmd/ratios -base $$base < $(BENCHTMP)/jsonprune-perf.txt; done

# The command line on the shared corpus laid out as a GitOps tree, as a
# YAML stream and as an NDJSON dump, against kubeconform -strict, in
# interleaved rounds (bench/cmd/tree; README, "Performance"). kubeconform is
# installed from the module proxy when it can be (not needed: without it
# the peer columns are left out); make test does not need it.
KUBECONFORM_VERSION ?= v0.7.0
TREE_ROUNDS ?= 3
.PHONY: bench-tree
bench-tree:
	-GOBIN=$(BENCHTMP)/jsonprune-bench-bin $(GO) install github.com/yannh/kubeconform/cmd/kubeconform@$(KUBECONFORM_VERSION)
	cd bench && $(GO) run ./cmd/tree -rounds $(TREE_ROUNDS) \
	  -kubeconform "$$(test -x $(BENCHTMP)/jsonprune-bench-bin/kubeconform && echo $(BENCHTMP)/jsonprune-bench-bin/kubeconform || echo none)"

# The command line on the 8-CRD, 500,000-line NDJSON dump of README's
# Performance section: -j 1 and -j 2, with and without value validation,
# against the Kubernetes reference chain (decode, prune, default) run as a
# whole process over the same dump, in interleaved rounds; CPU (user+sys),
# wall and peak RSS, median and range, the ratios round by round, with the
# date, the commit and the load (bench/cmd/dump).
DUMP_ROUNDS ?= 5
.PHONY: bench-dump
bench-dump:
	cd bench && $(GO) run ./cmd/dump -rounds $(DUMP_ROUNDS)

# Issue 16's bar "-j 2 >= 1.8x -j 1": the command line with -j 1 and -j 2 on
# the NDJSON dump (--no-validate and validating) and on the corpus tree,
# each with the CRD cache warm and --no-cache, in interleaved rounds; with
# JOBS_BASE (an earlier build's binary) in the same rounds (bench/cmd/jobs).
# Five rounds are a smoke run: on a shared 2-core machine the medians of
# 40 rounds still move by 0.1, and README's figures for the bar took 200
# rounds on the tree and 50 on the dump (JOBS_ROUNDS=200, or -only).
JOBS_ROUNDS ?= 5
JOBS_BASE ?=
# -ceiling: two -j 1 processes at once in every round, what the machine
# allows; -quiet: the runs' output to /dev/null, their peak RSS not polled
# (JOBS_FLAGS=-ceiling measures it too, taking some CPU from the runs)
JOBS_FLAGS ?= -ceiling -quiet
.PHONY: bench-jobs
bench-jobs:
	cd bench && $(GO) run ./cmd/jobs -rounds $(JOBS_ROUNDS) -base "$(JOBS_BASE)" $(JOBS_FLAGS)

# Regenerate cmd/jsonprune/default.pgo, the CPU profile that go build and go
# install use for profile-guided optimisation of the command line
# (bench/cmd/pgo: the NDJSON dump and the corpus tree, about half a minute).
.PHONY: pgo
pgo:
	cd bench && $(GO) run ./cmd/pgo

# Regenerate schemaauto/testdata/structural from the real Kubernetes code.
golden:
	cd bench && $(GO) run ./cmd/golden

# Each fuzz target for a short while on top of its seeds (CI); fails on any
# crasher. The budget is a count of executions (FUZZTIME=10000x: about 1 to
# 10 s a target on 2 cores), not a duration: with -fuzztime as a duration,
# Go before 1.27 can fail a run that found nothing with "context deadline
# exceeded" when a worker is still busy as the time runs out (golang/go#75804;
# CI met it once, on FuzzNormalize, under load). FUZZTIME=8h make fuzz-smoke
# runs a long campaign, one target at a time (a duration: look for a crasher
# file before trusting a "context deadline exceeded" at its end).
# FuzzRun's inputs run the whole command and are slow: minimizing each new
# input for the default 60 s would take all of a short run (14 executions in
# 20 s instead of 20,000), so its minimization is bounded.
FUZZTIME ?= 10000x
FUZZ_TARGETS = FuzzDecode FuzzSchemaAndDocument FuzzSyntax FuzzJSONAndYAML
fuzz-smoke:
	@echo "== fuzz-smoke: each fuzz target for $(FUZZTIME) on top of its seeds"
	for t in $(FUZZ_TARGETS); do $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) ./fuzz/ || exit 1; done
	for t in FuzzScanner FuzzScanFastMeta FuzzQuickRootMeta FuzzPruneReader; do $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) ./decoder/ || exit 1; done
	$(GO) test -run '^$$' -fuzz '^FuzzValidation$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 100x ./decoder/
	$(GO) test -run '^$$' -fuzz '^FuzzBridge$$' -fuzztime $(FUZZTIME) ./yamlbridge/
	$(GO) test -run '^$$' -fuzz '^FuzzRun$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 100x ./cmd/jsonprune/
	$(GO) test -run '^$$' -fuzz '^FuzzMemoDecode$$' -fuzztime $(FUZZTIME) ./cmd/jsonprune/
	for t in FuzzNormalize FuzzValidate FuzzValidateValid FuzzNames FuzzQuickValid; do $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) ./internal/objectmeta/ || exit 1; done
	for t in FuzzToValue FuzzLineStarts; do $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) ./internal/yaml11/ || exit 1; done
	$(GO) test -run '^$$' -fuzz '^FuzzReadDocument$$' -fuzztime $(FUZZTIME) ./stream/
	$(GO) test -run '^$$' -fuzz '^FuzzValid$$' -fuzztime $(FUZZTIME) ./internal/jsonsyntax/
	$(GO) test -run '^$$' -fuzz '^FuzzValid$$' -fuzztime $(FUZZTIME) ./internal/mailaddr/
	for t in FuzzDecodeCompiled FuzzIndexCRDs; do $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) ./schemaauto/ || exit 1; done
	for t in FuzzMatcher FuzzMatcherUnits FuzzDFA; do $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) ./validate/ || exit 1; done
	$(GO) test -run '^$$' -fuzz '^FuzzCheck$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 100x ./validate/
	$(GO) test -run '^$$' -fuzz '^FuzzTree$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 100x ./validate/

# The differential fuzz targets of the oracle module (bench/): their seeds
# run in every make test; fuzzing them compiles the whole Kubernetes
# dependency tree with coverage instrumentation (about half an hour on two
# cores), so CI does not, and a campaign is run by hand:
# FUZZTIME=1h make fuzz-oracle.
fuzz-oracle:
	@echo "== fuzz-oracle: the differential targets against the Kubernetes code, $(FUZZTIME) each (slow to build)"
	cd bench && $(GO) test -run '^$$' -fuzz '^FuzzDifferential$$' -fuzztime $(FUZZTIME) ./conformance/
	cd bench && $(GO) test -run '^$$' -fuzz '^FuzzValidateDifferential$$' -fuzztime $(FUZZTIME) ./conformance/

fuzz: fuzz-smoke fuzz-oracle

# The real kube-apiserver as jsonprune's oracle (issue 14; bench/apiserver,
# see bench/apiserver/README.md). oracle-apiserver-build builds
# kube-apiserver v1.37.2 with an embedded etcd v3.7.0, one binary, from the
# Go module proxy (bench/apiserver/build: its go.mod replaces the staging
# modules with the published k8s.io/* v0.37.2) into bench/.cache
# (gitignored); with a warm Go build cache a rebuild is a link.
# oracle-apiserver-sample is CI's sample (TestAPIServerOracle: every 4th
# CR of each family, mutations, the explicit vectors, the bodies of
# bench/testdata/crvectors.jsonl; JSON and YAML, Strict and Warn; about a
# minute warm); oracle-apiserver runs the whole corpus. Both start the server
# on 127.0.0.1 and stop it by its process id; a server that does not start
# fails them.
.PHONY: oracle-apiserver-build oracle-apiserver-sample oracle-apiserver oracle-apiserver-vectors
ORACLE_BUILD_FLAGS ?= -trimpath
oracle-apiserver-build:
	@cd bench/apiserver/build && { $(GO) mod download && $(GO) build $(ORACLE_BUILD_FLAGS) -o ../../.cache/oracle-apiserver . ; } || \
	  { echo "oracle-apiserver-build: FAILED to build kube-apiserver/etcd from the Go module proxy (a module missing from the proxy or the module cache? see the go error above)" >&2; exit 1; }
	@ls -l bench/.cache/oracle-apiserver

oracle-apiserver-sample: oracle-apiserver-build
	cd bench && JSONPRUNE_APISERVER=1 $(GO) test -count=1 -timeout 30m -run '^TestAPIServerOracle$$' -v ./apiserver/

oracle-apiserver: oracle-apiserver-build
	cd bench && JSONPRUNE_APISERVER=1 $(GO) run ./cmd/apiserver-oracle -every 1

# Rewrite bench/testdata/apiserver-vectors.jsonl (the real server's answers
# to the explicit vectors, for tests without a server).
oracle-apiserver-vectors: oracle-apiserver-build
	cd bench && JSONPRUNE_APISERVER=1 $(GO) run ./cmd/apiserver-oracle -every 1000 -mutate 0 -vectors-out testdata/apiserver-vectors.jsonl
