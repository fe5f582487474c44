//go:build !unix

package native

import (
	"os"
	"os/exec"
)

func setGroup(cmd *exec.Cmd) {}

func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

func maxRSS(ps *os.ProcessState) int64 { return 0 }
