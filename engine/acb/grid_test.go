package acb

import (
	"testing"
)

func TestDist2Wraps(t *testing.T) {
	tests := []struct {
		name string
		a, b Pos
		want int
	}{
		{"same tile", Pos{3, 3}, Pos{3, 3}, 0},
		{"straight", Pos{3, 3}, Pos{3, 8}, 25},
		{"diagonal", Pos{0, 0}, Pos{3, 4}, 25},
		{"wraps on columns", Pos{5, 0}, Pos{5, 19}, 1},
		{"wraps on rows", Pos{0, 5}, Pos{18, 5}, 4},
		{"wraps on both", Pos{0, 0}, Pos{19, 19}, 2},
		{"half way is the longest", Pos{0, 0}, Pos{10, 10}, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Dist2(tt.a, tt.b, 20, 20); got != tt.want {
				t.Fatalf("Dist2(%v, %v) = %d, want %d", tt.a, tt.b, got, tt.want)
			}
			if got := Dist2(tt.b, tt.a, 20, 20); got != tt.want {
				t.Fatalf("Dist2 is not symmetric: %d", got)
			}
		})
	}
}
