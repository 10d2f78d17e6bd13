package botproc

import (
	"bytes"
	"strings"
	"sync"
)

// tailBytes is how much of a process's stderr is kept for its errors.
const tailBytes = 4 << 10

// tailLines is how many of the last stderr lines an error quotes.
const tailLines = 10

// tail keeps the last bytes written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func newTail(n int) *tail { return &tail{max: n} }

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(b) >= t.max {
		t.buf = append(t.buf[:0], b[len(b)-t.max:]...)
		return len(b), nil
	}
	if over := len(t.buf) + len(b) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	t.buf = append(t.buf, b...)
	return len(b), nil
}

// lines returns the last n complete or partial lines kept.
func (t *tail) lines(n int) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.TrimRight(string(bytes.ToValidUTF8(t.buf, []byte("?"))), "\n")
	if s == "" {
		return nil
	}
	all := strings.Split(s, "\n")
	if len(all) > n {
		all = all[len(all)-n:]
	}
	return all
}

// describe quotes the last lines of stderr for an error, or says there
// were none.
func (t *tail) describe() string {
	lines := t.lines(tailLines)
	if len(lines) == 0 {
		return "; it wrote nothing on stderr"
	}
	return "; last lines of its stderr:\n    " + strings.Join(lines, "\n    ") + "\n"
}
