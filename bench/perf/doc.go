// Package perf holds jsonprune's benchmarks against its peers: the
// Kubernetes reference pipeline (the same functions the API server runs on
// a custom resource body) and jsontext floors, side by side on the same
// inputs. Run them with `make bench` at the repository root.
package perf
