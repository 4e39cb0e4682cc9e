// Package decoder drives a schemaauto automaton with a JSON token stream.
//
// In a single pass and without building intermediate maps it prunes unknown
// fields, detects duplicate fields, prunes nulls, applies defaults and
// normalises ObjectMeta, producing pruned JSON, a map, or findings only.
package decoder
