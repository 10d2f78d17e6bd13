//go:build unix

package cpuclock

import (
	"time"

	"golang.org/x/sys/unix"
)

// Process returns the CPU time (user and system) the process has used,
// every thread counted.
func Process() time.Duration {
	return rusage(unix.RUSAGE_SELF)
}

// Children returns the CPU time (user and system) of the process's
// children that have ended and been waited for, and of their own waited
// children.
func Children() time.Duration {
	return rusage(unix.RUSAGE_CHILDREN)
}

func rusage(who int) time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(who, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Thread returns the CPU time the calling OS thread has used. A goroutine
// moves between threads unless it holds runtime.LockOSThread.
func Thread() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
