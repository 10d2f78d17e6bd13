package httpguard

import (
	"bytes"
	"io"
	"testing"
)

// trickle yields n bytes, at most 1000 a read, then EOF.
type trickle struct{ n int }

func (r *trickle) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := min(len(p), r.n, 1000)
	clear(p[:k])
	r.n -= k
	return k, nil
}

// A body's buffer grows with what arrives, not with the Content-Length it
// declares: at most twice the bytes read (and at least the 64 KiB first
// allocation), never past the declared length plus one.
func TestReadAllGrowsWithWhatArrives(t *testing.T) {
	tests := []struct {
		rule            string
		declared, sent  int
		wantMaxCapacity int
	}{
		{"a 4 MiB promise with 1 MiB sent", 4 << 20, 1 << 20, 2 << 20},
		{"a 4 MiB promise with 10 bytes sent", 4 << 20, 10, maxPrealloc},
		{"a small body is read in one buffer of its size", 700, 700, 701},
		{"a body without a length", -1, 300 << 10, 2 * 300 << 10},
		{"a body longer than declared (the reader's limit stops it)", 1000, 5000, 2 * 5000},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			buf, err := readAll(&trickle{tt.sent}, int64(tt.declared))
			if err != nil || len(buf) != tt.sent {
				t.Fatalf("read %d bytes (%v), want %d", len(buf), err, tt.sent)
			}
			if cap(buf) > tt.wantMaxCapacity {
				t.Fatalf("buffer of %d bytes for %d read, want at most %d", cap(buf), tt.sent, tt.wantMaxCapacity)
			}
			if !bytes.Equal(buf, make([]byte, tt.sent)) {
				t.Fatal("the bytes read differ from those sent")
			}
		})
	}
}
