//go:build !unix

package cpuclock

import "time"

// Process returns 0: this system has no getrusage.
func Process() time.Duration { return 0 }

// Children returns 0: this system has no getrusage.
func Children() time.Duration { return 0 }

// Thread returns 0: this system has no thread CPU clock.
func Thread() time.Duration { return 0 }
