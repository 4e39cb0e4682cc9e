package main

import "syscall"

// statTimes is a stat's modification and change times, in nanoseconds.
func statTimes(st *syscall.Stat_t) (mtime, ctime int64) {
	return st.Mtim.Nano(), st.Ctim.Nano()
}
