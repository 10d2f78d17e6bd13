package bidders

// A small memo shared by the heavy bidders: much of a turn's work is a pure
// function of a few figures of the position (the stage game cfr solves,
// the lotto move modeller expects of a rival), and the same positions come
// back match after match (every match starts from the same position), so
// a process keeps the latest results and plays them back. Results are
// pure, so a hit gives exactly what the work would have: bids do not
// depend on what the memo holds, nor on which matches ran before in the
// process or at the same time.

import "sync"

// memo maps keys to results, at most 2*size of them: when the newer half
// fills, the older half is dropped and the newer takes its place (a hit in
// the older half is moved to the newer), so what is used often stays.
// It is safe for concurrent use; values are never modified once stored.
type memo[K comparable, V any] struct {
	mu       sync.Mutex
	size     int
	new, old map[K]*V
}

func newMemo[K comparable, V any](size int) *memo[K, V] {
	return &memo[K, V]{size: size, new: make(map[K]*V)}
}

// get returns the result stored for k, or nil.
func (m *memo[K, V]) get(k K) *V {
	m.mu.Lock()
	defer m.mu.Unlock()
	if v, ok := m.new[k]; ok {
		return v
	}
	v, ok := m.old[k]
	if ok {
		m.putLocked(k, v)
	}
	return v
}

// put stores v as k's result; v must not change afterwards.
func (m *memo[K, V]) put(k K, v *V) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.putLocked(k, v)
}

func (m *memo[K, V]) putLocked(k K, v *V) {
	if len(m.new) >= m.size {
		m.old, m.new = m.new, make(map[K]*V, m.size)
	}
	m.new[k] = v
}
