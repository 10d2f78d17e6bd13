//go:build unix && !linux

package botproc

import "syscall"

// sysProcAttr starts a bot in its own process group. Outside Linux there
// is no death signal: a lab killed with kill -9 leaves its bots running.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// DiesWithParent reports whether bots are started so that the kernel
// kills them when the lab dies (Linux only).
const DiesWithParent = false
