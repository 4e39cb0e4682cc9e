// Package conformance holds jsonprune's differential tests against the real
// Kubernetes modules: the same inputs through jsonprune and through the
// oracle, compared result by result.
package conformance
