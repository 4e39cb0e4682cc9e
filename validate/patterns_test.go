package validate

import (
	"sync"
	"testing"
)

func TestCompilePattern(t *testing.T) {
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
}
