//go:build unix

package native

import (
	"os"
	"os/exec"
	"syscall"
)

// setGroup starts the harness in its own process group, so that the
// deadline ends it and every process the module started.
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills the harness's process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}

// maxRSS is the harness's peak resident set (Linux: KiB in Maxrss).
func maxRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return int64(ru.Maxrss) * 1024
	}
	return 0
}
