package validate

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

func TestCompilePattern(t *testing.T) {
	held, _ := CompileMatcher(`^[a-z]+$`) // shared while one holds it
	var wg sync.WaitGroup
	res := make([]any, 8)
	for i := range res {
		wg.Add(1)
		go func() {
			defer wg.Done()
			re, err := CompilePattern(`^[a-z]+$`)
			if err != nil || !re.MatchString("abc") {
				t.Errorf("%v %v", re, err)
			}
			res[i] = re
		}()
	}
	wg.Wait()
	for _, r := range res {
		if r != res[0] {
			t.Fatal("compiled more than once")
		}
	}
	if _, err := CompilePattern(`(`); err == nil || err.Error() != "error parsing regexp: missing closing ): `(`" {
		t.Errorf("bad pattern: %v", err)
	}
	if n := testing.AllocsPerRun(10, func() { CompilePattern(`^[a-z]+$`) }); n != 0 {
		t.Errorf("a cached pattern allocates %v times", n)
	}
	runtime.KeepAlive(held)
}

// TestPatternsLetGo: a pattern's entry goes when nothing holds its
// Matcher any more, and the pattern compiles again after.
func TestPatternsLetGo(t *testing.T) {
	const p = `^let-go-[0-9]+$`
	m, err := CompileMatcher(p)
	if err != nil || !m.Match([]byte("let-go-7")) {
		t.Fatal(m, err)
	}
	if again, _ := CompileMatcher(p); again != m {
		t.Fatal("compiled again while held")
	}
	m = nil
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		runtime.GC()
		if _, ok := patterns.Load(p); !ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the entry of a pattern nothing holds was kept")
		}
	}
	if m, err := CompileMatcher(p); err != nil || !m.Match([]byte("let-go-8")) || m.Match([]byte("let-go-x")) {
		t.Fatal("compiled again:", m, err)
	}
}
