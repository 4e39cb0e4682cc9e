// Package schemaauto turns Kubernetes structural schemas into pruning automata.
//
// It loads CustomResourceDefinitions (apiextensions.k8s.io/v1 and v1beta1,
// JSON or YAML, one or several documents) and bare OpenAPI v3 schemas, checks
// that each schema is structural with the exact messages the Kubernetes API
// server prints, optionally derives the skeleton of a non-structural schema,
// and compiles every version's schema into an immutable [Automaton]: a flat
// table of states that the decoder drives with JSON tokens.
//
// The data flow of the project is schema → automaton (this package) →
// token stream (package decoder) → pruned output and findings (package errors).
// This package knows nothing about tokens.
package schemaauto
