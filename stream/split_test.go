package stream

import (
	"errors"
	"fmt"
	"github.com/jsonprune/jsonprune/decoder"
	"github.com/jsonprune/jsonprune/internal/opts"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// show is a piece as the tests see it: "kind doc.item line:col text", and
// "fail doc.item line:col message" for an error.
func show(d Document, err error) string {
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			return "error " + err.Error()
		}
		return fmt.Sprintf("fail %d.%d %d:%d %q", e.Index, e.Item, e.Line, e.Column, e.Msg)
	}
	kinds := map[Part]string{Whole: "doc", ListItem: "item", ListHead: "head", ListTail: "tail"}
	return fmt.Sprintf("%s %d.%d %d:%d %q", kinds[d.Part], d.Index, d.Item, d.Line, d.Column, d.Text)
}

// smallWindow makes the read window small: refills everywhere.
func smallWindow(c *opts.Config) { c.Window = 64 }

// MaxDocumentSize is decoder.MaxDocumentSize, the option the Reader reads.
func MaxDocumentSize(n int) Option { return decoder.MaxDocumentSize(int64(n)) }

// splitText reads text through r (nil: all at once) and returns the pieces.
func splitText(t *testing.T, text string, wrap func(io.Reader) io.Reader, opts ...Option) []string {
	t.Helper()
	var got []string
	var r io.Reader = strings.NewReader(text)
	if wrap != nil {
		r = wrap(r)
	}
	rd, err := NewReader(r, append([]Option{smallWindow}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	for {
		d, err := rd.ReadDocument()
		if err == io.EOF {
			break
		}
		got = append(got, show(d, err))
		if err != nil && !errors.Is(err, ErrTooLarge) && !errors.Is(err, ErrSyntax) {
			break
		}
	}
	if n := rd.BytesRead(); n != int64(len(text)) {
		t.Errorf("%q: BytesRead %d, want %d", text, n, len(text))
	}
	return got
}

// checkSplit checks the pieces of text, read at once, byte by byte, in
// halves and with io.EOF on the last bytes.
func checkSplit(t *testing.T, text string, want ...string) {
	t.Helper()
	checkSplitWith(t, nil, text, want...)
}

func checkSplitWith(t *testing.T, opt Option, text string, want ...string) {
	t.Helper()
	for _, wrap := range []func(io.Reader) io.Reader{nil, iotest.OneByteReader, iotest.HalfReader, iotest.DataErrReader} {
		got := splitText(t, text, wrap, MaxDocumentSize(1<<20), opt)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%q:\n got %s\nwant %s", text, strings.Join(got, "\n     "), strings.Join(want, "\n     "))
			return
		}
	}
}

func TestSplitJSONDocuments(t *testing.T) {
	checkSplit(t, "\ufeff"+`{"a":1}{"b":"}{\"["} [1,[2]] "s\"" 12 null`,
		`doc 0.-1 1:1 "{\"a\":1}"`,
		`doc 1.-1 1:8 "{\"b\":\"}{\\\"[\"}"`,
		`doc 2.-1 1:22 "[1,[2]]"`,
		`doc 3.-1 1:30 "\"s\\\"\""`,
		`doc 4.-1 1:36 "12"`,
		`doc 5.-1 1:39 "null"`)
	// pretty documents: brackets decide, newlines do not
	checkSplit(t, "{\n  \"a\": [\n    1\n  ]\n}\n{\n  \"b\": 2\n}\n",
		`doc 0.-1 1:1 "{\n  \"a\": [\n    1\n  ]\n}"`,
		`doc 1.-1 6:1 "{\n  \"b\": 2\n}"`)
	// garbage is a document of its own (the decoder says what is wrong)
	checkSplit(t, `{"a":1} ]x {"b":2}`,
		`doc 0.-1 1:1 "{\"a\":1}"`, `doc 1.-1 1:9 "]"`, `doc 2.-1 1:10 "x"`, `doc 3.-1 1:12 "{\"b\":2}"`)
	// a truncated pretty document runs to the end
	checkSplit(t, "{\n\"a\":1}\n{\n\"b\":\n", `doc 0.-1 1:1 "{\n\"a\":1}"`, `doc 1.-1 3:1 "{\n\"b\":\n"`)
}

func TestSplitJSONLines(t *testing.T) {
	// a broken line costs that line only
	checkSplit(t, "{\"a\":1}\n{\"b\":[1,\n{\"c\":\"x}\n{\"d\":{}}\n",
		`doc 0.-1 1:1 "{\"a\":1}"`,
		`doc 1.-1 2:1 "{\"b\":[1,"`,
		`doc 2.-1 3:1 "{\"c\":\"x}"`,
		`doc 3.-1 4:1 "{\"d\":{}}"`)
	// a broken first line: read as concatenated values
	checkSplit(t, "{\"a\":\n{\"b\":1}\n", `doc 0.-1 1:1 "{\"a\":\n{\"b\":1}\n"`)
	for text, want := range map[string]bool{
		"{\"a\":1}\n{\n":                   true,
		"{\n  \"a\": 1\n}\n":               false,
		"[\n  {\n":                         false,
		"{\"a\":\n{":                       false,
		"{\"items\":[\n{\"a\":1},\n{}]}\n": false,
		"{\"a\":\"{\"}\n":                  true,
		"{\"a\": 1":                        true, // one line
	} {
		if got := detectLineMode([]byte(text)); got != want {
			t.Errorf("detectLineMode(%q) = %v", text, got)
		}
	}
}

func TestSplitJSONLists(t *testing.T) {
	checkSplit(t, "{\"apiVersion\": \"v1\",\n \"items\": [\n  {\"a\": 1},\n  {\"b\": [2]}\n ],\n \"kind\": \"List\"}\n{\"c\":3}",
		`head 0.-1 1:1 "{\"apiVersion\": \"v1\",\n \"items\": ["`,
		`item 0.0 3:3 "{\"a\": 1}"`,
		`item 0.1 4:3 "{\"b\": [2]}"`,
		`tail 0.-1 5:2 "],\n \"kind\": \"List\"}"`,
		`doc 1.-1 7:1 "{\"c\":3}"`)
	// an escaped name; an empty list; items that are not objects
	checkSplit(t, `{"it\u0065ms":[]}{"items":[1,"x"]}`,
		`head 0.-1 1:1 "{\"it\\u0065ms\":["`, `tail 0.-1 1:16 "]}"`,
		`head 1.-1 1:18 "{\"items\":["`, `item 1.0 1:28 "1"`, `item 1.1 1:30 "\"x\""`, `tail 1.-1 1:33 "]}"`)
	// "items" that is not an array, or not at the top: a document
	checkSplit(t, `{"items":{"a":1}} {"a":{"items":[1]}}`,
		`doc 0.-1 1:1 "{\"items\":{\"a\":1}}"`, `doc 1.-1 1:19 "{\"a\":{\"items\":[1]}}"`)
	// syntax errors between items are reported where they are
	checkSplit(t, `{"items":[{"a":1} {"b":2},]}`,
		`head 0.-1 1:1 "{\"items\":["`, `item 0.0 1:11 "{\"a\":1}"`,
		`fail 0.-1 1:19 "invalid JSON: a comma is missing between two items of the list"`,
		`item 0.1 1:19 "{\"b\":2}"`,
		`fail 0.-1 1:27 "invalid JSON: a comma before ']' in the list's items"`,
		`tail 0.-1 1:27 "]}"`)
	// a list cut short, in JSON Lines: the next line is read afresh
	checkSplit(t, "{}\n{\"items\":[{\"a\":1},{\"b\":\n{\"c\":1}\n",
		`doc 0.-1 1:1 "{}"`,
		`head 1.-1 2:1 "{\"items\":["`, `item 1.0 2:11 "{\"a\":1}"`, `item 1.1 2:19 "{\"b\":"`,
		`fail 1.-1 2:24 "invalid JSON: the list ends before its items do"`,
		`tail 1.-1 2:24 ""`,
		`doc 2.-1 3:1 "{\"c\":1}"`)
}

func TestSplitMaxDocSize(t *testing.T) {
	got := splitText(t, `{"a":"0123456789"} {"b":1} {"items":[{"c":"0123456789"},{"d":1}]}`, nil, MaxDocumentSize(12))
	want := []string{
		`fail 0.-1 1:1 "larger than the limit of 12 bytes"`,
		`doc 1.-1 1:20 "{\"b\":1}"`,
		`head 2.-1 1:28 "{\"items\":["`,
		`fail 2.0 1:38 "larger than the limit of 12 bytes"`,
		`item 2.1 1:57 "{\"d\":1}"`,
		`tail 2.-1 1:64 "]}"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s", strings.Join(got, "\n"))
	}
}

func TestSplitYAMLDocuments(t *testing.T) {
	checkSplit(t, "# head\na: 1\n---\nb: 2\n...\n# between\n---\n--- # empty\n--- c\n---\n  d: [1,\n---\ne: 5",
		`doc 0.-1 1:1 "# head\na: 1\n"`,
		`doc 1.-1 3:1 "---\nb: 2\n...\n"`,
		`doc 2.-1 6:1 "# between\n---\n--- # empty\n--- c\n"`,
		`doc 3.-1 10:1 "---\n  d: [1,\n"`,
		`doc 4.-1 12:1 "---\ne: 5"`)
	// directives stay with their document; "---x" is no marker; CRLF
	checkSplit(t, "%YAML 1.1\n---\na: 1\r\n---x: 2\r\n---\r\nb: 3\r\n",
		`doc 0.-1 1:1 "%YAML 1.1\n---\na: 1\r\n---x: 2\r\n"`,
		`doc 1.-1 5:1 "---\r\nb: 3\r\n"`)
	checkSplit(t, "\n\n# only comments\n---\n")
}

func TestSplitYAMLList(t *testing.T) {
	text := "apiVersion: v1\nitems:\n- a: 1\n  b: |\n    text\n\n# comment\n- c: 2\n-\n  d: 3\nkind: List\nmetadata: {}\n---\nx: 1\n"
	small := ListThreshold(1 << 20) // small: read whole
	checkSplitWith(t, small, text, `doc 0.-1 1:1 "apiVersion: v1\nitems:\n- a: 1\n  b: |\n    text\n\n# comment\n- c: 2\n-\n  d: 3\nkind: List\nmetadata: {}\n"`,
		`doc 1.-1 13:1 "---\nx: 1\n"`)
	streamed := ListThreshold(10) // streamed from the second item on
	checkSplitWith(t, streamed, text,
		`head 0.-1 1:1 "apiVersion: v1\n"`,
		`item 0.0 3:1 "- a: 1\n  b: |\n    text\n\n# comment\n"`,
		`item 0.1 8:1 "- c: 2\n"`,
		`item 0.2 9:1 "-\n  d: 3\n"`,
		`tail 0.-1 11:1 "kind: List\nmetadata: {}\n"`,
		`doc 1.-1 13:1 "---\nx: 1\n"`)
	// an indented sequence; the document ends inside it
	checkSplitWith(t, streamed, "items:\n  - a: 1\n  - b: 2\n  - c: 3\n",
		`head 0.-1 1:1 ""`, `item 0.0 2:1 "  - a: 1\n"`, `item 0.1 3:1 "  - b: 2\n"`, `item 0.2 4:1 "  - c: 3\n"`, `tail 0.-1 5:1 ""`)
	// not a block sequence under items: read whole
	checkSplitWith(t, streamed, "items:\n  a: [1, 2, 3, 4, 5, 6, 7, 8, 9]\n", `doc 0.-1 1:1 "items:\n  a: [1, 2, 3, 4, 5, 6, 7, 8, 9]\n"`)
}

func TestSplitLongLines(t *testing.T) {
	long := strings.Repeat("x", 3000)
	checkSplit(t, "a: "+long+"\n---\nb: 1\n", fmt.Sprintf(`doc 0.-1 1:1 "a: %s\n"`, long), `doc 1.-1 2:1 "---\nb: 1\n"`)
	checkSplit(t, `{"a":"`+long+`"}`+"\n{}", fmt.Sprintf(`doc 0.-1 1:1 "{\"a\":\"%s\"}"`, long), `doc 1.-1 2:1 "{}"`)
}

func TestClassifyYAML(t *testing.T) {
	for line, want := range map[string]yamlLine{
		"---":          {docStart: true},
		"--- # c":      {docStart: true},
		"--- !!map":    {docStart: true, content: true},
		"---x":         {},
		"...":          {docEnd: true},
		"  # c":        {blank: true, indent: 2},
		"  - a":        {indent: 2, dash: true},
		"-":            {dash: true},
		"-x: 1":        {},
		"items:":       {itemsKey: true},
		"items:  # c":  {itemsKey: true},
		"items: []":    {},
		"  items:":     {indent: 2},
		"%YAML 1.1":    {directive: true},
		"\t":           {blank: true},
		"key: value":   {},
		"itemsx: 1":    {},
		"items:\tnext": {},
	} {
		if got := classifyYAML([]byte(line)); got != want {
			t.Errorf("%q: got %+v, want %+v", line, got, want)
		}
	}
}

// A newline after a backslash in a string (invalid JSON) is a newline
// all the same: it counts a line, and in line mode it ends the value.
func TestSplitJSONEscapedNewline(t *testing.T) {
	checkSplit(t, "{\n\"a\":\"x\\\ny\"}\n{}",
		`doc 0.-1 1:1 "{\n\"a\":\"x\\\ny\"}"`,
		`doc 1.-1 4:1 "{}"`)
	checkSplit(t, "{\"c\":1}\n{\"a\":\"x\\\n{\"b\":1}\n\"s\\\n[1]",
		`doc 0.-1 1:1 "{\"c\":1}"`,
		`doc 1.-1 2:1 "{\"a\":\"x\\"`,
		`doc 2.-1 3:1 "{\"b\":1}"`,
		`doc 3.-1 4:1 "\"s\\"`,
		`doc 4.-1 5:1 "[1]"`)
}

// JSON Lines are detected on the first window (64 bytes here) whatever the
// reads: a first line longer than that is taken for a JSON Lines line.
func TestSplitJSONLinesLongFirstLine(t *testing.T) {
	long := strings.Repeat("x", 70)
	checkSplit(t, "["+long+"\n]\n", fmt.Sprintf(`doc 0.-1 1:1 "[%s"`, long), `doc 1.-1 2:1 "]"`)
	checkSplit(t, "["+long[:40]+"\n]\n", fmt.Sprintf(`doc 0.-1 1:1 "[%s\n]"`, long[:40]))
}
