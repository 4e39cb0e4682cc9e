package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// An input is one file, or stdin ("-").
type input struct {
	name    string
	size    int64 // bytes on disk, -1 when unknown (stdin, missing files; a file of a directory until it is opened, unless listed with sizes)
	regular bool  // a regular file when listed (read with rawFile)
}

// Magic bytes of the compressed formats read.
var (
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// inputExts are the file names taken from a directory, as kubectl -f takes
// them, with their compressed forms.
var inputExts = []string{".json", ".yaml", ".yml"}

// listInputs expands the INPUT arguments: "-" is stdin, a directory gives
// its .json, .yaml and .yml files (compressed too: .gz, .zst) in name order,
// recursively with -R as kubectl does. No argument reads stdin. The files
// of a directory get their sizes only with sizes (the progress bar's
// total): a stat of each, by its path, on a tree of thousands of files was
// a good part of the serial start of a run; openInput has the size of a
// file it opens otherwise.
func listInputs(args []string, recursive, sizes bool) ([]input, error) {
	if len(args) == 0 {
		args = []string{"-"}
	}
	var out []input
	for _, a := range args {
		if a == "-" {
			out = append(out, input{name: "-", size: -1})
			continue
		}
		info, err := os.Stat(a)
		if err != nil || !info.IsDir() { // a missing file is reported in its turn
			size, regular := int64(-1), false
			if err == nil {
				size, regular = info.Size(), info.Mode().IsRegular()
			}
			out = append(out, input{name: a, size: size, regular: regular})
			continue
		}
		if info, err := os.Lstat(a); err != nil || !info.IsDir() {
			// a link to a directory is not followed (filepath.WalkDir's
			// rule, and kubectl's): it gives no files
			continue
		}
		if out, err = listDir(out, filepath.Clean(a), recursive, sizes); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// listDir appends the input files of dir (and with recursive those of its
// subdirectories) to out, sorted by path: the entries of a directory are
// sorted with a directory's name followed by the separator, so that the
// files of a subdirectory come where their paths sort (a/b.yaml after
// a-c.yaml), and no sort of the whole list is needed. The paths are
// filepath.Join's (dir is clean); directories are not followed through
// links, as filepath.WalkDir does.
//
// With several cores, subdirectories are listed beside each other (at
// most GOMAXPROCS listings at once) and their files spliced in where they
// sort: on a tree the listing is what a run waits for before its first
// file (the corpus tree's 2,458 files take 2.5 ms with one core). The
// error returned is the first in path order, as a walk would meet it.
func listDir(out []input, dir string, recursive, sizes bool) ([]input, error) {
	l := &lister{recursive: recursive, sizes: sizes}
	if n := runtime.GOMAXPROCS(0); n > 1 && recursive {
		l.more = make(chan struct{}, n-1)
	}
	return l.dir(out, dir)
}

// A lister lists a directory tree for listDir.
type lister struct {
	recursive, sizes bool
	more             chan struct{} // a token for each listing beside the caller's (nil: none)
}

// A subListing is a subdirectory listed by another goroutine, whose files
// go at position at of its parent's.
type subListing struct {
	at    int
	files []input
	err   error
	done  chan struct{}
}

func (l *lister) dir(out []input, dir string) ([]input, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	ents, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		return nil, err
	}
	prefix := filepath.Join(dir, "x")
	prefix = prefix[:len(prefix)-1]
	key := func(e os.DirEntry) string {
		if e.IsDir() {
			return e.Name() + string(filepath.Separator)
		}
		return e.Name()
	}
	slices.SortFunc(ents, func(a, b os.DirEntry) int { return strings.Compare(key(a), key(b)) })
	var subs []*subListing
	for _, e := range ents {
		p := prefix + e.Name()
		if e.IsDir() {
			if !l.recursive {
				continue
			}
			select {
			case l.more <- struct{}{}:
				sub := &subListing{at: len(out), done: make(chan struct{})}
				subs = append(subs, sub)
				go func() {
					defer close(sub.done)
					sub.files, sub.err = l.dir(nil, p)
					<-l.more
				}()
				continue
			default:
			}
			if out, err = l.dir(out, p); err != nil {
				return nil, firstError(subs, len(out), err)
			}
			continue
		}
		if !hasInputExt(e.Name()) {
			continue
		}
		if !l.sizes {
			// the entry's type is the directory's (lstat's, as Info)
			out = append(out, input{name: p, size: -1, regular: e.Type().IsRegular()})
			continue
		}
		fi, err := e.Info()
		if err != nil {
			return nil, firstError(subs, len(out), err)
		}
		out = append(out, input{name: p, size: fi.Size(), regular: fi.Mode().IsRegular()})
	}
	if len(subs) == 0 {
		return out, nil
	}
	if err := firstError(subs, len(out), nil); err != nil {
		return nil, err
	}
	n := len(out)
	for _, sub := range subs {
		n += len(sub.files)
	}
	all := make([]input, 0, n)
	from := 0
	for _, sub := range subs {
		all = append(append(all, out[from:sub.at]...), sub.files...)
		from = sub.at
	}
	return append(all, out[from:]...), nil
}

// firstError waits for the subdirectories listed before position at and
// returns the first error among them, else err.
func firstError(subs []*subListing, at int, err error) error {
	for _, sub := range subs {
		if sub.at > at {
			break
		}
		<-sub.done
		if sub.err != nil {
			return sub.err
		}
	}
	return err
}

// hasInputExt reports whether name ends in one of inputExts, compressed or
// not, in any case.
func hasInputExt(name string) bool {
	for _, z := range []string{".gz", ".zst", ".zstd"} {
		if hasSuffixFold(name, z) {
			name = name[:len(name)-len(z)]
		}
	}
	for _, e := range inputExts {
		if hasSuffixFold(name, e) {
			return true
		}
	}
	return false
}

// hasSuffixFold is strings.HasSuffix ignoring ASCII case (suffix is lower
// case).
func hasSuffixFold(s, suffix string) bool {
	if len(s) < len(suffix) {
		return false
	}
	s = s[len(s)-len(suffix):]
	for i := range len(suffix) {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != suffix[i] {
			return false
		}
	}
	return true
}

// countingReader counts the bytes read from the underlying (compressed)
// input, for the progress bar.
type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// openInput opens an input and returns its decompressed content. read
// counts the bytes read from the file itself. A regular file listed without
// its size gets it here.
func openInput(in *input, stdin io.Reader, read *atomic.Int64) (io.Reader, func(), error) {
	var r io.Reader = stdin
	closeFile := func() {}
	switch {
	case in.name == "-":
	case in.regular:
		f, err := openRaw(in.name)
		if err != nil {
			return nil, nil, err
		}
		if in.size < 0 {
			in.size = f.size()
		}
		r, closeFile = f, f.close
	default:
		f, err := os.Open(in.name)
		if err != nil {
			return nil, nil, err
		}
		r, closeFile = f, func() { f.Close() }
	}
	r, closeZ, err := decompress(countingReader{r, read})
	if err != nil {
		closeFile()
		return nil, nil, err
	}
	return r, func() { closeZ(); closeFile() }, nil
}

// decompress detects gzip and zstd from their magic bytes and returns the
// decompressed stream; anything else is returned as it is. The buffered
// reader it peeks with is one of a pool, shared by the inputs read one after
// another: the returned func gives it back.
func decompress(r io.Reader) (io.Reader, func(), error) {
	br := peekPool.Get().(*bufio.Reader)
	br.Reset(r)
	release := func() { br.Reset(nil); peekPool.Put(br) }
	head, _ := br.Peek(4)
	switch {
	case bytes.HasPrefix(head, gzipMagic):
		z, err := gzip.NewReader(br)
		if err != nil {
			release()
			return nil, nil, fmt.Errorf("gzip: %w", err)
		}
		return z, func() { z.Close(); release() }, nil
	case bytes.HasPrefix(head, zstdMagic):
		z, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true))
		if err != nil {
			release()
			return nil, nil, fmt.Errorf("zstd: %w", err)
		}
		return z, func() { z.Close(); release() }, nil
	}
	return br, release, nil
}

var peekPool = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 1<<16) }}

// window is the first size of the stream reader's window for an input: a
// small file gets a window its size (one read, no megabyte for each of the
// many small files of a tree), anything else the reader's default.
func window(in *input) int {
	const small = 1 << 20
	if in.size < 0 || in.size >= small || hasCompressedExt(in.name) {
		return 0
	}
	return max(int(in.size)+1, 512)
}

func hasCompressedExt(name string) bool {
	name = strings.ToLower(name)
	return strings.HasSuffix(name, ".gz") || strings.HasSuffix(name, ".zst") || strings.HasSuffix(name, ".zstd")
}

// readFile reads a whole (small) file, decompressing it: CRDs and schemas.
func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, closeZ, err := decompress(f)
	if err != nil {
		return nil, err
	}
	defer closeZ()
	var b bytes.Buffer
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 && fi.Size() < 1<<30 {
		b.Grow(int(fi.Size()) + 512) // one allocation for a file read as it is
	}
	_, err = b.ReadFrom(r)
	return b.Bytes(), err
}
