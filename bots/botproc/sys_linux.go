package botproc

import "syscall"

// sysProcAttr starts a bot in its own process group (so that stopping it
// reaches what it started) with SIGKILL as its death signal: the kernel
// kills it when the thread that started it exits, which the spawner's
// locked thread does only when the lab's process ends (see Manager).
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// DiesWithParent reports whether bots are started so that the kernel
// kills them when the lab dies (Linux: Pdeathsig).
const DiesWithParent = true
