// Package errors holds jsonprune's finding and error types and their
// formatting: the three path syntaxes the Kubernetes reference uses
// (pruning paths, sigs.k8s.io/json field paths and field.Path), RFC 6901
// JSON Pointers, and the "strict decoding error: ..." list rendering.
//
// It depends on the standard library only.
package errors
