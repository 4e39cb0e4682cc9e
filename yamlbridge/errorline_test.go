package yamlbridge

import (
	"errors"
	"testing"

	jperrors "github.com/jsonprune/jsonprune/errors"
)

// TestSyntaxErrorLines: a syntax error's Line is the line an editor shows,
// for each class of yaml v3's errors, while its message keeps the parser's
// text (the API server's): the parser's own errors say their 0-based line
// (go-yaml's parser.fail adds 1 for the scanner's errors only).
func TestSyntaxErrorLines(t *testing.T) {
	for _, c := range []struct {
		name, src, msg string
		line           int
	}{
		// parser errors: the message's line is one early
		{"unclosed flow sequence", "a: 1\nb: 2\nc: 3\nd: 4\ne: 5\nlist: [a, b\nnext: 1\n", "yaml: line 5: did not find expected ',' or ']'", 6},
		{"unclosed flow mapping", "a: 1\n\n\nb: {x: 1\n\n", "yaml: line 3: did not find expected ',' or '}'", 4},
		{"block mapping indented less", "a: 1\nb:\n  - x\n  - y\n z: 1\n", "yaml: line 4: did not find expected key", 5},
		{"block sequence then a key", "- a\n- b\nc: 1\n", "yaml: line 2: did not find expected '-' indicator", 3},
		{"duplicate directive", "%YAML 1.1\n%YAML 1.1\n---\na: 1\n", "yaml: line 1: found duplicate %YAML directive", 2},
		// at the end of the stream: the last line, not the one after it
		{"node content at the end", "c: [\n", "yaml: line 1: did not find expected node content", 1},
		{"flow sequence on the only line", "[a, b\n", "yaml: line 1: did not find expected ',' or ']'", 1},
		// scanner errors: the message's line is right
		{"tab in indentation", "a:\n\tb: 1\n", "yaml: line 2: found character that cannot start any token", 2},
		{"mapping value in a plain scalar", "key: value\n  other: 1\n", "yaml: line 2: mapping values are not allowed in this context", 2},
		{"unterminated quoted string", "a: 1\nb: \"x\n", "yaml: line 2: found unexpected end of stream", 2},
		{"helm template line", "a: 1\n{{ .Values.x }}\n", "yaml: line 2: could not find expected ':'", 2},
		// reader errors: the line of the first byte that is not UTF-8
		{"invalid UTF-8", "a: 1\nb: \xff\n", "yaml: invalid leading UTF-8 octet", 2},
	} {
		_, err := Parse([]byte(c.src))
		var de *jperrors.DecodeError
		if !errors.As(err, &de) {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if de.Msg != c.msg || de.Line != c.line {
			t.Errorf("%s: %q at line %d, want %q at line %d", c.name, de.Msg, de.Line, c.msg, c.line)
		}
	}
}
