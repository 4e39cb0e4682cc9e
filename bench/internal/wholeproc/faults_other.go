//go:build !unix

package wholeproc

import "os"

func minorFaults(*os.ProcessState) int64 { return -1 }
