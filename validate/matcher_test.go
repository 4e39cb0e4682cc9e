package validate

import (
	"bufio"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// matcherPatterns are the shapes Matcher recognises, near misses of them
// that it must leave to regexp, and a few others.
var matcherPatterns = []string{
	quantityPattern,
	`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`,
	`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`,
	`^[-._a-zA-Z0-9]+$`,
	`^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$`,
	`^[-a-zA-Z0-9_{}.]+$`,
	`^[a-z]*$`,
	`^[^./]+$`,
	`^[é-ü]+$`,
	`^[a-zé]([-a-z\x{FFFD}]*[a-zé])?$`,
	`^[^a]([^b]*[^c])?(\.[^a]([^b]*[^c])?)*$`, // '.' in the classes: regexp
	`^[a-z.]([-a-z]*[a-z])?(\.[a-z]([-a-z]*[a-z])?)*$`,
	`^x(y*z)?$`,
	`(?i)^[a-z]+$`,
	`^(?i:a)+$`,
	`^[a-z]+`, `[a-z]+$`, `^[a-z]+$|^$`, `^$`, `^[a-z]?$`, `^[a-z]{2,}$`,
	`^\d+$`, `^\w+$`, `^\S+$`, `^.+$`, `^.*$`, `^(?s:.)+$`,
	`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+$`,
	`^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?`,
	// head and run, counted runs, alternatives to the empty string
	`^[a-zA-Z0-9][-a-zA-Z0-9]*$`, `^[a-z][-a-z0-9é]+$`, `^[a-z0-9]{1,11}$`, `^[a-zé]{2,}$`, `^[a-z]{3}$`, `^[a-z]{0,2}$`,
	`^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`, `^[a-z]+$|^$`, `^$|^[a-z]{1,3}$`,
	`^$|[a-z]+$`, `^[a-z]([a-z]*)$`, `^$|^$`, `^[a-z][-a-z]*`, `^[a-z]{1,3}x$`,
	// durations and wildcard hosts, by their text, and near misses
	`^([0-9]+(\.[0-9]+)?(ms|s|m|h))+$`, `^([0-9]+(\.[0-9]+)?(ms|s|m))+$`, `^([0-9]+(\.[0-9]+)?(s|m|h))+$`,
	`^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$`, wildcardSubdomainPattern,
	`^([0-9]+(\.[0-9]+)?(ms|s|m|x))+$`, `^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?$`,
}

// newFast are the shapes added to matcherPatterns last that Matcher
// matches without regexp, and newSlow those near them that it leaves to
// the automaton.
var (
	newFast = []string{`^([0-9]+(\.[0-9]+)?(ms|s|m|h))+$`, `^([0-9]+(\.[0-9]+)?(ms|s|m))+$`, `^([0-9]+(\.[0-9]+)?(s|m|h))+$`,
		`^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$`, wildcardSubdomainPattern,
		`^[a-zA-Z0-9][-a-zA-Z0-9]*$`, `^[a-z][-a-z0-9é]+$`, `^[a-z0-9]{1,11}$`, `^[a-zé]{2,}$`, `^[a-z]{3}$`, `^[a-z]{0,2}$`,
		`^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`, `^[a-z]+$|^$`, `^$|^[a-z]{1,3}$`}
	newSlow = []string{`^([0-9]+(\.[0-9]+)?(ms|s|m|x))+$`, `^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?$`, `^$|[a-z]+$`, `^$|^$`, `^[a-z][-a-z]*`, `^[a-z]{1,3}x$`}
)

// corpusPatterns are the distinct patterns of the shared corpus's CRDs
// (nil without the corpus).
func corpusPatterns(t testing.TB) []string {
	files, _ := filepath.Glob("../../shared/corpus/crds/*/*.yaml")
	seen := map[string]bool{}
	var out []string
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if !strings.HasPrefix(line, "pattern: ") {
				continue
			}
			var m map[string]any
			if yaml.Unmarshal([]byte(line), &m) != nil {
				continue
			}
			if p, ok := m["pattern"].(string); ok && !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
		fh.Close()
	}
	slices.Sort(out)
	return out
}

// probes are strings at the edges of the usual shapes: empty, one rune,
// dots and dashes at either end, quantities, Unicode, U+FFFD written out,
// invalid and truncated UTF-8.
var probes = []string{"", "a", "A", "-", ".", "a.", ".a", "a..b", "a-", "-a", "a-b", "a.b-c.d", "a_b", "1", "0", "+1", "-1",
	"1.", ".5", ".", "+", "1.5", "100m", "100Mi", "1Ki", "1ki", "1K", "1e3", "1E3", "1E", "1e", "1e+3", "1e-3.5", "1e.5", "1Ei",
	"1.5E+.5", "12345678901234567890", "x", "xz", "xyz", "xyyz", "xy", "é", "aé", "éa", "\ufffd", "a\ufffd", "\xff", "a\xff", "\xffa",
	"\xc3", "a\xc3", "\xc3\xa9", "\xe2\x82", "a\xe2\x82", "ü", "a\x00", "\n", "a\n", "a b", "{}", "a{b}.c", strings.Repeat("a", 64),
	strings.Repeat("a", 63) + "-", "a/b", "A-b_c.D", "..", "a.-b", "a-.b",
	// durations and wildcard hosts
	"1s", "1.5s", "1.s", "1.5.5s", "1ms", "1m5s", "1h30m", "1h30", "h", "1x", "1y2w3d4h5m6s7ms", "1m1y", "1s1s", "1ms1m", "00",
	"0s", "1.0", "*.a.b", "*.", "*", "**.a", "*.-a", "a.*.b"}

// randomString draws a string from the runes of probes and patterns.
func randomString(r *rand.Rand) string {
	alphabet := []string{"1", "s", "h", "d", "w", "ms", "*.", "a", "z", "A", "Z", "0", "9", "-", ".", "_", "+", "e", "E", "i", "K", "M", "m", "n", "k", "é", "\ufffd",
		"\xff", "\xc3", "/", " ", "{", "x", "y", "c", "b", "ü", "\U0001F600"}
	n := r.IntN(12)
	var b strings.Builder
	for range n {
		b.WriteString(alphabet[r.IntN(len(alphabet))])
	}
	return b.String()
}

// TestMatcherDifferential: Matcher.Match and the pattern's regexp give
// the same result on every corpus pattern and matcherPatterns, for the
// probes, random strings, and the corpus patterns' own fast shapes count.
func TestMatcherDifferential(t *testing.T) {
	pats := append(corpusPatterns(t), matcherPatterns...)
	r := rand.New(rand.NewPCG(1, 2))
	fast := 0
	for _, p := range pats {
		m, err := NewMatcher(p)
		if err != nil {
			if _, rerr := regexp.Compile(p); rerr == nil || rerr.Error() != err.Error() {
				t.Errorf("%q: %v, regexp: %v", p, err, rerr)
			}
			continue
		}
		if m.Fast() {
			fast++
		}
		re := regexp.MustCompile(p)
		check := func(s string) {
			if got, want := m.Match([]byte(s)), re.MatchString(s); got != want {
				t.Errorf("pattern %q, %q: Matcher %v, regexp %v", p, s, got, want)
			}
		}
		for _, s := range probes {
			check(s)
		}
		for range 2000 {
			check(randomString(r))
		}
	}
	// the shapes, and what is near them but left to the automaton
	for _, s := range append(matcherPatterns[:10:10], newFast...) {
		if m, _ := NewMatcher(s); m.kind == matchRegexp || m.kind == matchDFA {
			t.Errorf("%q is not matched as a shape", s)
		}
	}
	for _, s := range append([]string{matcherPatterns[10], matcherPatterns[11], `^[a-z]+`, `[a-z]+$`, `^(?i:a)+$`}, newSlow...) {
		if m, _ := NewMatcher(s); m.kind != matchDFA || !m.Fast() {
			t.Errorf("%q is not matched by the automaton", s)
		}
	}
	t.Logf("%d patterns (%d of the corpus), %d matched without regexp", len(pats), len(pats)-len(matcherPatterns), fast)
}

// FuzzMatcher: on any pattern that compiles, Matcher.Match agrees with
// regexp on any string (invalid UTF-8, Unicode, any length).
func FuzzMatcher(f *testing.F) {
	for i, p := range matcherPatterns {
		f.Add(p, probes[i%len(probes)])
	}
	f.Add(matcherPatterns[1], "a.b")
	f.Fuzz(func(t *testing.T, pattern, s string) {
		m, err := NewMatcher(pattern)
		if err != nil {
			return
		}
		if got, want := m.Match([]byte(s)), m.Regexp().MatchString(s); got != want {
			t.Fatalf("pattern %q, %q: Matcher %v, regexp %v (fast %v)", pattern, s, got, want, m.Fast())
		}
	})
}

// TestMatcherAllocs: the fast shapes allocate nothing.
func TestMatcherAllocs(t *testing.T) {
	for _, p := range matcherPatterns[:10] {
		m, _ := NewMatcher(p)
		s := []byte("abc.def-1")
		if n := testing.AllocsPerRun(100, func() { m.Match(s) }); n != 0 {
			t.Errorf("%q: %v allocations", p, n)
		}
	}
}

// FuzzMatcherUnits: the duration and wildcard-host patterns, recognised by
// their text, agree with regexp on any string.
func FuzzMatcherUnits(f *testing.F) {
	for _, s := range probes {
		f.Add(s)
	}
	pats := []string{wildcardSubdomainPattern}
	for p := range unitPatterns {
		pats = append(pats, p)
	}
	slices.Sort(pats)
	ms := make([]*Matcher, len(pats))
	for i, p := range pats {
		ms[i], _ = NewMatcher(p)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for i, m := range ms {
			if got, want := m.Match([]byte(s)), m.Regexp().MatchString(s); got != want || !m.Fast() {
				t.Fatalf("pattern %q, %q: Matcher %v, regexp %v (fast %v)", pats[i], s, got, want, m.Fast())
			}
		}
	})
}
