// Package cpuclock reads the CPU time (user and system) used by this
// process, its threads, its children and other processes: the measure of
// work that other load on the machine disturbs far less than wall time
// (at load 40 on 2 cores a match takes 20 times its wall time, but about
// its CPU time). crucible bench and the queue's measurements report it.
package cpuclock

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// Sample is the CPU time and the wall time some work took.
type Sample struct {
	CPU, Wall time.Duration
}

// Meter measures the process's CPU time and the wall time from Start to
// Stop; the CPU time counts every thread of the process (every goroutine,
// the garbage collector's workers too).
type Meter struct {
	cpu   time.Duration
	start time.Time
}

// Start starts a meter.
func Start() Meter {
	return Meter{cpu: Process(), start: time.Now()}
}

// Stop returns what the process used since Start.
func (m Meter) Stop() Sample {
	return Sample{CPU: Process() - m.cpu, Wall: time.Since(m.start)}
}

// ticksPerSecond is the unit of the CPU times in /proc/PID/stat (the
// kernel's USER_HZ, 100 on every Linux architecture Go runs on).
const ticksPerSecond = 100

// OfPID returns the CPU time (user and system, every thread) the running
// process pid has used so far, from Linux's /proc/PID/stat, in steps of
// 10 ms. It sees any process of the machine, another user's too (a
// PostgreSQL backend, say).
func OfPID(pid int) (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	return parseStat(string(data))
}

// parseStat reads utime and stime (fields 14 and 15) from a
// /proc/PID/stat line. The command name (field 2) is in parentheses and
// may hold spaces and parentheses, so the fields are counted after the
// last ')'.
func parseStat(line string) (time.Duration, error) {
	i := strings.LastIndexByte(line, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc stat line %.40q: no command name in parentheses", line)
	}
	f := strings.Fields(line[i+1:])
	// f[0] is field 3 (state): utime is field 14, f[11].
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc stat line %.40q: %d fields after the command name, want at least 13", line, len(f))
	}
	var ticks int64
	for _, s := range f[11:13] {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc stat line: CPU time %q: %w", s, err)
		}
		ticks += n
	}
	return time.Duration(ticks) * (time.Second / ticksPerSecond), nil
}
