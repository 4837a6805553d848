package main

import "syscall"

// dieWithParent asks Linux to send SIGTERM when the parent (make) dies, so a
// SIGTERM to make stops the devserver, which then stops dynalite.
func dieWithParent() {
	_, _, _ = syscall.RawSyscall(syscall.SYS_PRCTL, syscall.PR_SET_PDEATHSIG, uintptr(syscall.SIGTERM), 0)
}
