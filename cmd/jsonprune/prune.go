package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/jsonprune/jsonprune/decoder"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/internal/yaml11"
)

// pruner runs documents through the decoder and writes outputs and
// messages in input order.
type pruner struct {
	d           *decoder.Decoder
	o           *options
	out         *bufio.Writer
	stderr      io.Writer
	passThrough bool // documents of kinds without a CRD are written untouched

	buf      []byte
	rejected int
}

// input reads one input (a file, or "-" for stdin) and prunes each of its
// documents.
func (p *pruner) input(name string, stdin io.Reader) error {
	var r io.Reader = stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	br := bufio.NewReaderSize(r, 1<<16)
	first, err := firstByte(br)
	if err == io.EOF {
		return nil
	}
	if err != nil {
		return err
	}
	if first == '{' || first == '[' {
		return p.jsonStream(name, br)
	}
	return p.yamlStream(name, br)
}

// firstByte peeks at the first non-space byte.
func firstByte(br *bufio.Reader) (byte, error) {
	for {
		b, err := br.Peek(1)
		if err != nil {
			return 0, err
		}
		switch b[0] {
		case ' ', '\t', '\r', '\n':
			br.ReadByte()
		default:
			return b[0], nil
		}
	}
}

// jsonStream prunes concatenated JSON values or JSON lines.
func (p *pruner) jsonStream(name string, r io.Reader) error {
	s := p.d.NewStream(r)
	for n := 0; ; n++ {
		var err error
		p.buf, err = s.AppendNext(p.buf[:0])
		if err == io.EOF {
			return nil
		}
		doc, _ := s.Document()
		if err != nil && s.Count() == n {
			return err // a syntax error that ends the stream
		}
		p.finish(name, n, doc, err)
	}
}

// yamlStream prunes the documents of a YAML stream. Until the YAML bridge
// lands, each document is converted to JSON first (with the Kubernetes
// YAML path's scalar resolution), so positions refer to that JSON.
func (p *pruner) yamlStream(name string, r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	docs, err := yaml11.Decode(data, yaml11.Options{})
	var dups *yaml11.DuplicateKeysError
	if err != nil && !asDuplicates(err, &dups) {
		return err
	}
	for n, v := range docs {
		if v == nil {
			continue
		}
		doc := appendJSON(nil, v)
		var derr error
		p.buf, derr = p.d.AppendPrune(p.buf[:0], doc)
		p.finish(name, n, doc, derr)
	}
	return nil
}

// finish writes a document's output and messages.
func (p *pruner) finish(name string, n int, doc []byte, err error) {
	res := p.d.Result()
	if err != nil {
		if se, ok := err.(*jperrors.StrictError); ok {
			p.rejected++
			fmt.Fprintf(p.stderr, "error: %s: document %d: %s\n", name, n, se.Error())
			return
		}
		fmt.Fprintf(p.stderr, "error: %s: document %d: %v\n", name, n, err)
		return
	}
	out := p.buf
	if !res.Pruned && p.passThrough {
		// no CRD serves this kind: written as it came
		v := jsontext.Value(bytes.Clone(doc))
		if v.Compact() == nil {
			out = v
		}
	} else if p.o.mode == decoder.Warn {
		for _, f := range res.Findings() {
			fmt.Fprintf(p.stderr, "Warning: %s\n", f.Message())
		}
	}
	if p.o.output != "none" {
		p.out.Write(out)
		p.out.WriteByte('\n')
	}
}
