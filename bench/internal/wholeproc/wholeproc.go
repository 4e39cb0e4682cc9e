// Package wholeproc holds what the whole-process benchmark programs
// (bench/cmd/tree, bench/cmd/dump, bench/cmd/jobs) share: building the command line, the
// NDJSON dump they make from the corpus, running and measuring a process,
// and the statistics of interleaved rounds.
package wholeproc

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/jsonprune/jsonprune/internal/peakrss"
)

// Dump repeats the JSON documents of the n CRDs with the most documents
// (docs: documents by CRD file, ties broken by name) to lines lines, and
// returns those CRDs (docs' keys) and the dump.
func Dump(docs map[string][][]byte, n, lines int) (crds []string, dump []byte) {
	var byCount []string
	for c := range docs {
		byCount = append(byCount, c)
	}
	sort.Slice(byCount, func(i, j int) bool {
		if len(docs[byCount[i]]) != len(docs[byCount[j]]) {
			return len(docs[byCount[i]]) > len(docs[byCount[j]])
		}
		return byCount[i] < byCount[j]
	})
	var picked [][]byte
	for _, c := range byCount[:min(n, len(byCount))] {
		crds = append(crds, c)
		picked = append(picked, docs[c]...)
	}
	var b bytes.Buffer
	for i := range lines {
		if len(picked) == 0 {
			break
		}
		b.Write(picked[i%len(picked)])
		b.WriteByte('\n')
	}
	return crds, b.Bytes()
}

// Median is the median of xs (not empty).
func Median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Quartiles are the medians of the lower and of the upper half of xs (not
// empty; with an odd count the median itself is in neither half, but
// for one value, which is both).
func Quartiles(xs []float64) (q1, q3 float64) {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s) == 1 {
		return s[0], s[0]
	}
	h := len(s) / 2
	return Median(s[:h]), Median(s[len(s)-h:])
}

// Min is the least of xs (not empty).
func Min(xs []float64) float64 {
	m := xs[0]
	for _, x := range xs {
		m = min(m, x)
	}
	return m
}

// Max is the greatest of xs (not empty).
func Max(xs []float64) float64 {
	m := xs[0]
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

// LoadAvg is the machine's load average over 1, 5 and 15 minutes
// ("unknown" where /proc/loadavg is not there).
func LoadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

// A Measurement is one run of a process.
type Measurement struct {
	User, Sys, Wall time.Duration
	RSSKB           int64 // peak RSS (VmHWM)
	MinorFaults     int64 // page faults served without I/O (-1 where unknown)
}

// CPU is the run's user and system time.
func (m Measurement) CPU() time.Duration { return m.User + m.Sys }

// Run runs a command with its output discarded (its exit status is not
// looked at: the benchmarks' inputs have findings) and env added to the
// environment, and measures it. The peak RSS is polled (VmHWM): a child's
// rusage counts the memory of this process, which the child shares until
// exec.
func Run(bin string, args, env []string) (Measurement, error) {
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return Measurement{}, err
	}
	rss, _ := peakrss.Wait(cmd, 5*time.Millisecond)
	return Measurement{User: cmd.ProcessState.UserTime(), Sys: cmd.ProcessState.SystemTime(), Wall: time.Since(start), RSSKB: rss, MinorFaults: minorFaults(cmd.ProcessState)}, nil
}

// RunQuiet is Run for a process that shares the machine with nothing of
// this one's: its output goes to /dev/null (Run reads it through pipes,
// which a goroutine here copies) and its peak RSS is not polled (RSSKB is
// -1). With two cores and a -j 2 run using both, Run's own work (some 200
// reads of /proc a second, and the pipes) takes from the run measured.
func RunQuiet(bin string, args, env []string) (Measurement, error) {
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	start := time.Now()
	if err := cmd.Run(); err != nil {
		if _, exited := err.(*exec.ExitError); !exited {
			return Measurement{}, err
		}
	}
	return Measurement{User: cmd.ProcessState.UserTime(), Sys: cmd.ProcessState.SystemTime(), Wall: time.Since(start), RSSKB: -1, MinorFaults: minorFaults(cmd.ProcessState)}, nil
}

// Build builds the command line of the repository at root into dir as
// README installs it (a static binary; CGO_ENABLED=0 keeps it one should a
// dependency ever link cgo, which TestNoCgo forbids), with go build's
// flags if any (such as -pgo=off), and returns the binary and the
// repository's commit (short; "" when git cannot tell).
func Build(root, dir string, flags ...string) (bin, commit string, err error) {
	bin = filepath.Join(dir, "jsonprune")
	args := append(append([]string{"build"}, flags...), "-o", bin, "./cmd/jsonprune")
	build := exec.Command("go", args...)
	build.Dir, build.Stdout, build.Stderr = root, os.Stderr, os.Stderr
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if err := build.Run(); err != nil {
		return "", "", err
	}
	out, _ := exec.Command("git", "-C", root, "rev-parse", "--short", "HEAD").Output()
	return bin, strings.TrimSpace(string(out)), nil
}
