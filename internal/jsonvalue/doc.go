// Package jsonvalue holds the helpers every package of jsonprune needs on
// JSON value trees with the reference's number semantics (map[string]any,
// []any, string, bool, nil, int64, float64): the number rules of
// sigs.k8s.io/json's PreserveInts decoding, rendering a tree as
// encoding/json renders the reference's maps, and deep copies.
//
// # The exported API
//
// Numbers:
//   - [ParseNumber]: a number literal as PreserveInts decodes it (int64 or
//     float64), or the reference's error for one a float64 cannot hold.
//   - [MayOverflow]: the cheap test whether a literal may overflow a float64.
//   - [Overflows]: whether a literal overflows a float64 (1e400).
//   - [RoundTripFloat]: a float64 after encoding/json and PreserveInts
//     (1.0 becomes int64 1).
//
// Rendering and copying:
//   - [AppendCanonical]: a value tree as compact JSON with sorted keys.
//   - [AppendFloat]: a float64 as encoding/json writes it.
//   - [DeepCopy]: a copy of a value tree.
package jsonvalue
