package main

import (
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"
)

// progress counts the work done, for the progress bar and the summary.
type progress struct {
	read    atomic.Int64 // bytes read from the inputs (compressed, as on disk)
	in      atomic.Int64 // bytes decompressed
	objects atomic.Int64 // objects done (documents, list items)
	total   int64        // bytes of all inputs, when known (files)
	start   time.Time
	stop    chan struct{}
	done    chan struct{}
}

func newProgress(inputs []input) *progress {
	p := &progress{start: time.Now()}
	for _, in := range inputs {
		if in.size < 0 {
			p.total = 0
			break
		}
		p.total += in.size
	}
	return p
}

// showProgress reports whether the run draws the progress bar.
func showProgress(o *options, stderr io.Writer) bool {
	return o.progress == "always" || (o.progress == "auto" && isTerminal(stderr))
}

// isTerminal reports whether w is a terminal: a file the terminal driver
// answers for (isTerminalFd), not any character device, since /dev/null is
// one too, and a run with its standard error sent there draws no bar.
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	return isTerminalFd(f)
}

// show draws the bar on c every tick until finish is called.
func (p *progress) show(c *console, tick time.Duration) {
	p.stop, p.done = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(p.done)
		t := time.NewTicker(tick)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				c.clear()
				return
			case <-t.C:
				c.status(p.line())
			}
		}
	}()
}

// finish stops the bar, if shown.
func (p *progress) finish() {
	if p.stop != nil {
		close(p.stop)
		<-p.done
		p.stop = nil
	}
}

// line is the bar: bytes read (of the total), objects, rates.
func (p *progress) line() string {
	secs := max(time.Since(p.start).Seconds(), 1e-3)
	read, objects := p.read.Load(), p.objects.Load()
	s := "jsonprune: " + formatBytes(read)
	if p.total > 0 {
		s += fmt.Sprintf(" of %s (%d%%)", formatBytes(p.total), min(100, read*100/p.total))
	}
	return s + fmt.Sprintf(", %d objects, %s/s, %.0f objects/s", objects, formatBytes(int64(float64(read)/secs)), float64(objects)/secs)
}
