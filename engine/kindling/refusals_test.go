package kindling

import (
	"errors"
	"strings"
	"testing"
)

// Refusals: what Resolve and CheckBid do with a finished match and with
// illegal bids (spec: "Bids. Each seat submits 5 whole numbers >= 0 whose
// sum is <= its sparks").

func TestResolveAfterFinishIsRefused(t *testing.T) {
	s := mustState(t, 2)
	for turn := 1; turn <= Turns; turn++ {
		if _, err := Resolve(&s, bidsOf(Bid{}, Bid{}), nil); err != nil {
			t.Fatalf("turn %d: %v", turn, err)
		}
	}
	if !s.Finished || s.Turn != Turns {
		t.Fatalf("after %d turns finished %v turn %d", Turns, s.Finished, s.Turn)
	}
	before := s
	if _, err := Resolve(&s, bidsOf(Bid{}, Bid{}), nil); !errors.Is(err, ErrFinished) {
		t.Fatalf("Resolve after the end: %v, want ErrFinished", err)
	}
	if err := CheckBid(&s, 0, Bid{}); !errors.Is(err, ErrFinished) {
		t.Fatalf("CheckBid after the end: %v, want ErrFinished", err)
	}
	if s != before {
		t.Fatal("a refused Resolve changed the state")
	}
	// Nobody ever bid: 5 then +5 a turn up to the cap of 12.
	if s.Sparks[0] != SparkCap {
		t.Fatalf("sparks after 8 idle turns = %d, want %d", s.Sparks[0], SparkCap)
	}
}

func TestCheckBid(t *testing.T) {
	s := mustState(t, 3)
	s.Sparks[1] = 7
	tests := []struct {
		rule    string
		seat    int
		bid     Bid
		wantErr string // "" means legal
	}{
		{"passing is legal", 0, Bid{0, 0, 0, 0, 0}, ""},
		{"spending everything is legal", 1, Bid{1, 1, 3, 1, 1}, ""},
		{"spending less is legal", 1, Bid{0, 0, 4, 0, 0}, ""},
		{"a negative entry is illegal and named", 0, Bid{0, -1, 0, 0, 0}, "bids[1] = -1 is negative"},
		{"a sum over the sparks is illegal", 0, Bid{2, 2, 2, 0, 0}, "sums to 6, more than the 5 sparks"},
		{"one entry over the sparks is illegal and named", 1, Bid{0, 0, 0, 8, 0}, "bids[3] = 8 is more than the 7 sparks"},
		{"a huge entry cannot overflow into legality", 0, Bid{1 << 62, 1 << 62, 1 << 62, 1 << 62, 0}, "bids[0]"},
		{"a seat beyond the table is refused", 3, Bid{}, "seat 3 is outside 0..2"},
		{"a negative seat is refused", -1, Bid{}, "seat -1"},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			err := CheckBid(&s, tt.seat, tt.bid)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("CheckBid(seat %d, %v) = %v, want legal", tt.seat, tt.bid, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("CheckBid(seat %d, %v) = %v, want an error containing %q", tt.seat, tt.bid, err, tt.wantErr)
			}
		})
	}
}

func TestResolveRefusesIllegalBidsWithoutChange(t *testing.T) {
	s := mustState(t, 2)
	before := s
	_, err := Resolve(&s, bidsOf(Bid{0, 0, 1, 0, 0}, Bid{3, 3, 0, 0, 0}), nil)
	var be *BidError
	if !errors.As(err, &be) || be.Seat != 1 || be.Bid != (Bid{3, 3, 0, 0, 0}) {
		t.Fatalf("Resolve with an over-budget bid = %v, want a BidError for seat 1", err)
	}
	if !strings.Contains(err.Error(), "seat 1") || !strings.Contains(err.Error(), "[3 3 0 0 0]") {
		t.Fatalf("error %q should name the seat and the bid", err)
	}
	if s != before {
		t.Fatal("a refused Resolve changed the state")
	}
	// The same bid from a seat marked missed is ignored, not refused.
	missed := [MaxSeats]bool{false, true}
	if _, err := Resolve(&s, bidsOf(Bid{0, 0, 1, 0, 0}, Bid{3, 3, 0, 0, 0}), &missed); err != nil {
		t.Fatalf("a missed seat's bid should be ignored: %v", err)
	}
}
