package bidders

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"testing"
)

// TestModellerBidsAsRecorded pins every bid of modeller in seat 0 over 400
// matches (2, 3 and 4 seats in turn) against the whole field, hashed as
// they were before its fast paths (the lotto supports, the direct
// generator, the reused features and the lazy errors): a change meant
// only to make it faster must leave this hash as it is.
func TestModellerBidsAsRecorded(t *testing.T) {
	if testing.Short() {
		t.Skip("400 matches")
	}
	const want = "fc8f7d72ccda6567"
	var field []string
	for _, s := range All() {
		field = append(field, s.Name)
	}
	h := fnv.New64a()
	for _, r := range modellerField(t, field, 400, true) {
		for _, b := range r.bids {
			for _, x := range b {
				_ = binary.Write(h, binary.LittleEndian, int32(x))
			}
		}
	}
	if got := fmt.Sprintf("%016x", h.Sum64()); got != want {
		t.Errorf("modeller's bids hash to %s, want %s", got, want)
	}
}
