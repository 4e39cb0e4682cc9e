package validate

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// dfaPatterns exercise the automaton: anchors anywhere, unanchored
// search, alternation, empty matches, '.' and newlines, case folding,
// counted repetition, negated and Perl classes.
var dfaPatterns = []string{
	``, `a`, `^`, `$`, `^$`, `a^b`, `a$b`, `^a|b$`, `(^a|b)c`, `a(b$|c)`, `^a*$`, `a*`, `^(a|ab)(c|bcd)(d*)$`,
	`.`, `^.$`, `^.*$`, `(?s)^.*$`, `^.+x$`, `a.c`, `(?s)a.c`, `^[^a]*$`, `^[^\n]+$`, `^\s*$`, `\d{3}`, `^\w+@\w+\.com$`,
	`(?i)^abc$`, `(?i)k`, `^(?i:ab)c$`, `^[[:alpha:]][[:alnum:]_]*$`, `^[a-c]{2,4}$`, `^x{0,3}y?$`, `(ab){2}`,
	`^(http|https|oci)://.*$`, `^https?://`, `^/(\S+)`, `^[!-~]+([\t ]?[!-~]+)*$`, `^.{2,}|[^./]$`,
	`^Hostname|IPAddress|NamedAddress|[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/[A-Za-z0-9\/\-._~%!$&'()*+,;=:]+$`,
	`^[a-zA-Z0-9]([-a-zA-Z0-9]*[a-zA-Z0-9])?$|[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/[A-Za-z0-9]+$`,
	`^[^*]*(\*[^/]*)?\.(json|yml|yaml|JSON|YML|YAML)$`, `^(System|([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9]))$`,
	`é`, `^aé?b$`, `[^a-z]`, `\x00`, `^\x7f+$`,
}

// dfaString draws a string from the bytes a pattern names and a few more.
func dfaString(r *rand.Rand, pattern string) string {
	alphabet := []string{"a", "b", "c", "x", "y", "A", "K", "k", "1", "0", "-", ".", "/", ":", "@", "_", "*", " ", "\t", "\n", "\x00", "\x7f", "é", "\xff", "\u212a"}
	for i := range len(pattern) {
		if c := pattern[i]; c >= ' ' && c < 0x7f {
			alphabet = append(alphabet, pattern[i:i+1])
		}
	}
	alphabet = append(alphabet, "http://", "https://", "oci://", "json", "yaml", "System", "a.b/c")
	var b strings.Builder
	for range r.IntN(14) {
		b.WriteString(alphabet[r.IntN(len(alphabet))])
	}
	return b.String()
}

// TestDFADifferential: every pattern here that no shape covers gets an
// automaton, which gives regexp's answer on every string drawn for it.
func TestDFADifferential(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, p := range dfaPatterns {
		m, err := NewMatcher(p)
		if err != nil {
			t.Fatalf("%q: %v", p, err)
		}
		if m.kind != matchDFA {
			continue // a shape
		}
		d := m.dfa.get()
		if d == nil {
			t.Errorf("%q: no automaton", p)
			continue
		}
		re := regexp.MustCompile(p)
		for i := range 4000 {
			s := dfaString(r, p)
			if i < len(probes) {
				s = probes[i]
			}
			if got, want := m.Match([]byte(s)), re.MatchString(s); got != want {
				t.Fatalf("pattern %q, %q: automaton %v, regexp %v", p, s, got, want)
			}
		}
	}
}

// TestDFALimits: assertions other than ^ and $ and automata of too many
// states are left to regexp.
func TestDFALimits(t *testing.T) {
	for _, p := range []string{`\bword\b`, `\Ba`, `(?m)^a$`, `(?m)a$`} {
		if m, _ := NewMatcher(p); m.kind == matchDFA {
			t.Errorf("%q: matched by the automaton", p)
		}
	}
	huge := `(a|b)*a(a|b){12}$` // 2^13 states
	m, _ := NewMatcher(huge)
	if m.kind != matchDFA || m.Fast() {
		t.Fatalf("%q: kind %v, fast %v", huge, m.kind, m.Fast())
	}
	re := regexp.MustCompile(huge)
	for _, s := range []string{"aaaaaaaaaaaaa", "abababababababab", "b", ""} {
		if got, want := m.Match([]byte(s)), re.MatchString(s); got != want {
			t.Errorf("%q, %q: %v, regexp %v", huge, s, got, want)
		}
	}
}

// TestDFAAllocs: a match allocates nothing once the automaton is built.
func TestDFAAllocs(t *testing.T) {
	m, _ := NewMatcher(`^(http|https|oci)://.*$`)
	s := []byte("https://example.com/charts")
	m.Match(s)
	if n := testing.AllocsPerRun(100, func() { m.Match(s) }); n != 0 {
		t.Errorf("%v allocations", n)
	}
}

// FuzzDFA: on any pattern, the automaton (where there is one) agrees with
// regexp on any string.
func FuzzDFA(f *testing.F) {
	for i, p := range dfaPatterns {
		f.Add(p, probes[i%len(probes)])
	}
	f.Fuzz(func(t *testing.T, pattern, s string) {
		m, err := NewMatcher(pattern)
		if err != nil {
			return
		}
		if got, want := m.Match([]byte(s)), m.Regexp().MatchString(s); got != want {
			t.Fatalf("pattern %q, %q: Matcher %v (kind %d), regexp %v", pattern, s, got, m.kind, want)
		}
	})
}

// BenchmarkMatcherDFA matches corpus patterns that no shape covers, on
// strings of the corpus's kind, with the automaton and with regexp.
func BenchmarkMatcherDFA(b *testing.B) {
	cases := []struct{ pattern, s string }{
		{`^[a-zA-Z0-9]([-a-zA-Z0-9]*[a-zA-Z0-9])?$|[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/[A-Za-z0-9]+$`, "example.com/Feature"},
		{`^[!-~]+([\t ]?[!-~]+)*$`, "Bearer token-value"},
		{`^/(\S+)`, "/healthz"},
		{`^(http|https|oci)://.*$`, "https://charts.example.com/stable"},
		{`^([0-9]{1,5}(h|m|s|ms)){1,4}$`, "1h30m"},
	}
	for _, c := range cases {
		m, _ := NewMatcher(c.pattern)
		re := regexp.MustCompile(c.pattern)
		s := []byte(c.s)
		if !m.Match(s) || !re.Match(s) {
			b.Fatalf("%q does not match %q", c.s, c.pattern)
		}
		b.Run("dfa/"+c.s, func(b *testing.B) {
			for b.Loop() {
				m.Match(s)
			}
		})
		b.Run("regexp/"+c.s, func(b *testing.B) {
			for b.Loop() {
				re.Match(s)
			}
		})
	}
}
