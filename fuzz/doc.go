// Package fuzz holds jsonprune's fuzz targets and the invariants they check.
package fuzz
