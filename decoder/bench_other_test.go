//go:build !unix

package decoder

// processCPU is 0 where getrusage is not available.
func processCPU() int64 { return 0 }
