package stream

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"
)

// showAt is show with the offset and Spaced, which the pieces must get
// right too.
func showAt(d Document, err error) string {
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			return fmt.Sprintf("%s @%d", show(d, err), e.Offset)
		}
		return show(d, err)
	}
	return fmt.Sprintf("%s @%d spaced=%v", show(d, err), d.Offset, d.Spaced)
}

// readPieces reads every piece of rd; shift is added to the documents'
// indices.
func readPieces(t *testing.T, rd *Reader, shift int) []string {
	t.Helper()
	var got []string
	for {
		d, err := rd.ReadDocument()
		if err == io.EOF {
			return got
		}
		var e *Error
		if errors.As(err, &e) && e.Index >= 0 {
			c := *e
			c.Index += shift
			err = &c
		} else if err == nil {
			d.Index += shift
		}
		got = append(got, showAt(d, err))
		if err != nil && !errors.Is(err, ErrTooLarge) && !errors.Is(err, ErrSyntax) {
			return got
		}
	}
}

// linesTexts are JSON Lines streams with every kind of line: objects,
// Lists (whole, broken, with syntax errors between items), several values
// on a line, broken values, blank lines, CRLF, white space, strings with
// escaped newlines, values too large.
var linesTexts = []string{
	"{\"a\":1}\n{\"b\":2}\n",
	"{\"a\":1}\n\n  \n{\"b\": [1, 2]}  \r\n{\"c\":\"x\\\ny\"}\n{\"d\":\n{}{}[]\"s\" 12 nul\n",
	"{\"items\":[{\"a\":1},{\"b\":2}],\"kind\":\"List\"}\n{\"items\":[{\"a\":1},,{\"b\":2},]}\n{\"items\":[{\"a\":1}\n{\"items\":[\n]}\n",
	"{\"a\":\"0123456789012345678901234567890123456789\"}\n{\"b\":1}\n{\"items\":[{\"c\":\"0123456789012345678901234567890123456789\"},{\"d\":1}]}\n",
	"[1,2]\n{\"a\":{\"b\":[{\"c\":\"}]\\\"\"}]}} {\"x\":1}}\n   {\"lead\":1}\n\t\n{\"it\\u0065ms\":[1,2]}\n{\"last\":1}",
	"{\"a\":1}\n" + strings.Repeat("{\"long\":\""+strings.Repeat("x", 50)+"\"}", 3) + "\n]\n}\n{\"z\":[\"\n",
}

// TestLinesPieces: a JSON Lines stream cut after any line breaks into
// pieces read with NewLinesReader (and the rest with NewLinesReaderOf)
// gives the pieces, errors and positions of NewReader on the whole
// stream, the documents numbered from each piece's Place.Doc.
func TestLinesPieces(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, text := range linesTexts {
		if !JSONLines([]byte(text)) {
			t.Fatalf("%q: not JSON Lines", text)
		}
		for _, max := range []int{1 << 20, 40} {
			whole, err := NewReader(strings.NewReader(text), smallWindow, MaxDocumentSize(max))
			if err != nil {
				t.Fatal(err)
			}
			want := readPieces(t, whole, 0)
			var breaks []int
			for i := 0; i < len(text); i++ {
				if text[i] == '\n' {
					breaks = append(breaks, i+1)
				}
			}
			for round := range 20 {
				var got []string
				at := Place{Line: 1}
				for start := 0; start < len(text); {
					end := len(text)
					if round > 0 && len(breaks) > 0 && rnd.IntN(3) > 0 {
						if b := breaks[rnd.IntN(len(breaks))]; b > start {
							end = b
						}
					}
					piece := []byte(text[start:end])
					tail := end == len(text) && round%2 == 1 && start > 0
					var rd *Reader
					if tail {
						rd, err = NewLinesReaderOf(iotest.OneByteReader(bytes.NewReader(piece)), at, smallWindow, MaxDocumentSize(max))
					} else {
						rd, err = NewLinesReader(piece, Place{Offset: at.Offset, Line: at.Line}, MaxDocumentSize(max))
					}
					if err != nil {
						t.Fatal(err)
					}
					shift := at.Doc
					if tail {
						shift = 0
					}
					ps := readPieces(t, rd, shift)
					got = append(got, ps...)
					if n := rd.BytesRead(); n != int64(end) {
						t.Errorf("%q: BytesRead %d, want %d", piece, n, end)
					}
					// the documents of the piece: one more than the last index
					docs := 0
					for _, p := range ps {
						var kind string
						var doc, item int
						if _, err := fmt.Sscanf(p, "%s %d.%d", &kind, &doc, &item); err == nil && doc >= 0 {
							docs = doc + 1 - shift
						}
					}
					if !tail {
						at.Doc += docs
					}
					at.Offset += int64(len(piece))
					at.Line += bytes.Count(piece, []byte{'\n'})
					start = end
				}
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Fatalf("%q, limit %d, round %d: pieces give\n%s\nwant\n%s", text, max, round, strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			}
		}
	}
}

func TestJSONLines(t *testing.T) {
	for text, want := range map[string]bool{
		"{\"a\":1}\n{":        true,
		"[1]{}\n":             true,
		"{\"a\":\n1}\n":       false, // a value over lines
		"{\"a\":\"}\n":        false, // in a string
		"{\"a\":1}":           false, // no line break seen
		" {\"a\":1}\n":        false, // white space first
		"\xef\xbb\xbf{}\n":    false, // a byte order mark
		"a: 1\n":              false, // YAML
		"":                    false,
		"{\"a\":\"\\\"}\"}\n": true,
	} {
		if got := JSONLines([]byte(text)); got != want {
			t.Errorf("JSONLines(%q) = %v, want %v", text, got, want)
		}
	}
}
