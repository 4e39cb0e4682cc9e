package fuzz

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jsonprune/jsonprune/decoder"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/schemaauto"
)

// suiteOutcome decodes a JSONTestSuite file as the value of a member of a
// custom resource ({"apiVersion":"v1","kind":"X","data":<file>}, the bytes
// of the file as they are) with a pass-through schema, and names what
// happens: "accepted", "syntax error" (invalid JSON, with its offset) or
// the text of another fatal error.
func suiteOutcome(data []byte, invalidUTF8 bool) string {
	doc := append([]byte(`{"apiVersion":"v1","kind":"X","data":`), data...)
	doc = append(doc, '}')
	d := must(decoder.NewForAutomaton(schemaauto.PassThrough(), decoder.AllowInvalidUTF8(invalidUTF8)))
	_, err := d.AppendPrune(nil, doc)
	var de *jperrors.DecodeError
	switch {
	case err == nil:
		return "accepted"
	case errors.As(err, &de) && strings.HasPrefix(de.Msg, "invalid JSON"):
		return "syntax error"
	case errors.As(err, &de):
		return de.Msg
	}
	return err.Error()
}

// TestJSONTestSuiteImplementationDefined pins jsonprune's choice for every
// i_ file of JSONTestSuite (parsers may accept or reject them), read as the
// value of a member; fuzz/README.md lists the same choices. The reference
// (encoding/json via sigs.k8s.io/json) makes the same ones, except where
// invalid UTF-8 and lone surrogates are an error by default (RFC 8259);
// AllowInvalidUTF8(true) replaces them with U+FFFD, as the reference does.
func TestJSONTestSuiteImplementationDefined(t *testing.T) {
	entries, err := os.ReadDir(suiteDir)
	if err != nil {
		t.Skipf("SKIP: JSONTestSuite not found at %s (../shared must sit beside the checkout): %v", suiteDir, err)
	}
	n := 0
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, "i_") {
			continue
		}
		n++
		data, err := os.ReadFile(filepath.Join(suiteDir, name))
		if err != nil {
			t.Fatal(err)
		}
		var strict, lenient string // the expected outcomes: default, AllowInvalidUTF8(true)
		switch {
		case strings.Contains(name, "UTF-16") || strings.Contains(name, "utf16") || strings.Contains(name, "BOM"):
			// not UTF-8 JSON text: rejected, as by the reference
			strict, lenient = "syntax error", "syntax error"
		case strings.HasPrefix(name, "i_number_") && (strings.Contains(name, "huge_exp") || strings.Contains(name, "overflow")) && !strings.Contains(name, "neg_exp"):
			// beyond float64: the reference's fatal error, with the number
			lit := strings.Trim(strings.TrimSpace(string(data)), "[]")
			strict = "json: cannot unmarshal number " + lit + " into Go value of type float64"
			lenient = strict
		case strings.HasPrefix(name, "i_number_") || strings.HasPrefix(name, "i_structure_"):
			// underflow is 0, big integers are float64s, 500 levels are within the limit
			strict, lenient = "accepted", "accepted"
		case strings.HasPrefix(name, "i_string_") || strings.HasPrefix(name, "i_object_"):
			// invalid UTF-8 and lone surrogates
			strict, lenient = "syntax error", "accepted"
		default:
			t.Errorf("%s: no documented choice", name)
			continue
		}
		if got := suiteOutcome(data, false); got != strict {
			t.Errorf("%s: %s, want %s", name, got, strict)
		}
		if got := suiteOutcome(data, true); got != lenient {
			t.Errorf("%s with AllowInvalidUTF8: %s, want %s", name, got, lenient)
		}
	}
	if n < 30 {
		t.Errorf("only %d i_ files in %s", n, suiteDir)
	}
}

// TestJSONTestSuiteAcceptAndReject: every y_ file of JSONTestSuite, as a
// whole document, is accepted by the syntax (a non-object body then fails
// the reference's version/kind check, which is not a syntax error), and
// every n_ file is rejected with a syntax error located inside the input.
func TestJSONTestSuiteAcceptAndReject(t *testing.T) {
	files := suiteFiles(t)
	if files == nil {
		t.Skipf("SKIP: JSONTestSuite not found at %s (../shared must sit beside the checkout)", suiteDir)
	}
	y, n := 0, 0
	for _, name := range sortedNames(files) {
		data := files[name]
		d := must(decoder.NewForAutomaton(schemaauto.PassThrough()))
		_, err := d.AppendPrune(nil, data)
		var de *jperrors.DecodeError
		syntax := errors.As(err, &de) && isSyntaxError(err)
		switch {
		case strings.HasPrefix(name, "y_"):
			y++
			if syntax {
				t.Errorf("%s (%q): rejected: %v", name, data, err)
			}
		case strings.HasPrefix(name, "n_"):
			n++
			if !syntax && !depthError(err) {
				t.Errorf("%s (%q): not rejected as invalid JSON: %v", name, data, err)
			} else if de.Offset < 0 || de.Offset > int64(len(data)) {
				t.Errorf("%s: offset %d outside the input of %d bytes", name, de.Offset, len(data))
			}
		}
	}
	if y < 90 || n < 180 {
		t.Errorf("only %d y_ and %d n_ files", y, n)
	}
	t.Logf("%d y_ files accepted, %d n_ files rejected", y, n)
}
