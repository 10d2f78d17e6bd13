//go:build race

package acbhttp

// perConnSlack is the heap a stalled connection may hold beyond its body:
// the race detector's instrumentation makes each connection's goroutine
// and buffers larger (measured about 110 KiB under -race against well
// under 64 KiB without).
const perConnSlack = 256 << 10
