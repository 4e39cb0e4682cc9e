package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
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
		var files []input
		err = filepath.WalkDir(a, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if p != a && !recursive {
					return filepath.SkipDir
				}
				return nil
			}
			if !hasInputExt(p) {
				return nil
			}
			if !sizes {
				// the entry's type is the walk's (lstat's, as Info)
				files = append(files, input{name: p, size: -1, regular: d.Type().IsRegular()})
				return nil
			}
			fi, err := d.Info()
			if err != nil {
				return err
			}
			files = append(files, input{name: p, size: fi.Size(), regular: fi.Mode().IsRegular()})
			return nil
		})
		if err != nil {
			return nil, err
		}
		sort.Slice(files, func(i, j int) bool { return files[i].name < files[j].name })
		out = append(out, files...)
	}
	return out, nil
}

func hasInputExt(name string) bool {
	name = strings.ToLower(name)
	for _, z := range []string{".gz", ".zst", ".zstd"} {
		name = strings.TrimSuffix(name, z)
	}
	for _, e := range inputExts {
		if strings.HasSuffix(name, e) {
			return true
		}
	}
	return false
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
