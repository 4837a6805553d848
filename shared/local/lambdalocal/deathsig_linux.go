package lambdalocal

import (
	"os/exec"
	"syscall"
)

// setDeathSignal ends a function's process with the process that started it.
func setDeathSignal(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
