//go:build !race

package acbhttp

// perConnSlack is the heap a stalled connection may hold beyond its body
// (its goroutine and connection buffers).
const perConnSlack = 64 << 10
