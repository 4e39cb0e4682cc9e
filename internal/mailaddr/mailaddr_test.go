package mailaddr

import (
	"go/ast"
	goparser "go/parser"
	"go/token"
	"net/mail"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
)

// reference is what Valid ports: the API server's email check.
func reference(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address != ""
}

// cases are inputs at the edges of each rule, each with what net/mail says.
var cases = []struct {
	in   string
	want bool
}{
	{"", false},
	{" ", false},
	{"a@b", true},
	{"a@b.c", true},
	{" a@b.c ", true},
	{"a@b.c (comment)", true},
	{"a@b.c (unclosed", false},
	{"a@b.c (a (nested) comment)", true},
	{`a@b.c (escaped \) paren)`, true},
	{"a@b.c (=?utf-8?q?J=C3=B6rg?=)", true},
	{"a@b.c (=?koi8-r?q?x?=)", false}, // a charset net/mail does not know
	{"a@b.c extra", false},
	{"a@b.c, d@e.f", false},
	{".a@b.c", false},
	{"a.@b.c", false},
	{"a..b@c.d", false},
	{"a@.b", false},
	{"a@b..c", false},
	{`"a b"@c.d`, true},
	{`""@c.d`, false},
	{`"\""@c.d`, true},
	{`"a\`, false},
	{`"unclosed@c.d`, false},
	{"a@[127.0.0.1]", true},
	{"a@[::1]", true},
	{"a@[fe80::1%eth0]", false}, // a zone: net.ParseIP refuses it
	{"a@[300.0.0.1]", false},
	{"a@[127.0.0.1", false},
	{"a@[a[b]", false},
	{"Joe <a@b.c>", true},
	{"Joe Q. Public <a@b.c>", true},
	{"<a@b.c>", true},
	{`"Joe" <a@b.c>`, true},
	{"Joe <a@b.c", false},
	{"Joe", false},
	{"Joe Smith", false},
	{"Joe (comment) Smith <a@b.c>", true},
	{"Joe (unclosed Smith <a@b.c>", false},
	{"=?utf-8?q?J=C3=B6rg?= <a@b.c>", true},
	{"=?utf-8?q??= <a@b.c>", false}, // an encoded word of no text is no word
	{"=?utf-8?q??= Joe <a@b.c>", true},
	{"=?koi8-r?q?x?= <a@b.c>", false},
	{"Joe =?koi8-r?q?x?= <a@b.c>", true}, // the phrase ends at the bad word, consumed: "Joe" is the name
	{"=?ISO-8859-1?Q?Andr=E9?= <a@b.c>", true},
	{"=?utf-8?b?not base64?= <a@b.c>", true}, // not an encoded word (a space in it): three plain words
	{"=?utf-8?b?!!!!?= <a@b.c>", true},       // not base64: a plain word
	{"Group: a@b.c;", true},
	{"Group: a@b.c, d@e.f;", false},
	{"Group:;", false},
	{"Group: ;", false},
	{"Group: a@b.c", false},
	{"Group: Inner: a@b.c;;", false},
	{"Group: a@b.c; (comment)", true},
	{"\xff@b.c", false},
	{"a@b.\xff", false},
	{"jörg@example.com", true},
	{"a@b.c\t", true},
	{"a\t@b.c", false},
	{"a @ b.c", false},
	{"a@ b.c", true},
}

func TestValid(t *testing.T) {
	for _, c := range cases {
		if got, ref := Valid(c.in), reference(c.in); got != c.want || ref != c.want {
			t.Errorf("%q: Valid %v, net/mail %v, want %v", c.in, got, ref, c.want)
		}
	}
}

// TestGoTestStrings compares Valid with net/mail on every string literal of
// net/mail's own tests, where this toolchain's sources hold them.
func TestGoTestStrings(t *testing.T) {
	path := filepath.Join(runtime.GOROOT(), "src", "net", "mail", "message_test.go")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("net/mail's tests are not in this toolchain (%v): compared on the cases above and by FuzzValid only", err)
	}
	f, err := goparser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	n, valid := 0, 0
	ast.Inspect(f, func(node ast.Node) bool {
		if lit, ok := node.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			n++
			ref := reference(s)
			if ref {
				valid++
			}
			if got := Valid(s); got != ref {
				t.Errorf("%q: Valid %v, net/mail %v", s, got, ref)
			}
		}
		return true
	})
	if n < 200 || valid < 50 {
		t.Fatalf("only %d strings (%d valid) in %s: not the tests expected", n, valid, path)
	}
	t.Logf("%d strings of %s, %d valid addresses: Valid agrees on each", n, path, valid)
}

func FuzzValid(f *testing.F) {
	for _, c := range cases {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, ref := Valid(s), reference(s); got != ref {
			t.Fatalf("%q: Valid %v, net/mail %v", s, got, ref)
		}
	})
}
