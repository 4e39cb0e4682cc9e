package peakrss

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

func TestWait(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skipf("SKIP: no /proc here: %v", err)
	}
	cmd := exec.Command("sh", "-c", "sleep 0.2")
	if err := cmd.Start(); err != nil {
		t.Skipf("SKIP: no sh: %v", err)
	}
	peak, err := Wait(cmd, time.Millisecond)
	if err != nil || peak <= 0 {
		t.Errorf("peak %d KiB, err %v", peak, err)
	}
	if cmd = exec.Command("sh", "-c", "exit 3"); cmd.Start() == nil {
		if _, err := Wait(cmd, time.Millisecond); err == nil {
			t.Error("exit status 3 not returned")
		}
	}
}
