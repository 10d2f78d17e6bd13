package kindlingview

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"crucible/engine/kindling"
	"crucible/viewer/viewertest"
)

func TestWriteRefusesWhatIsNotALog(t *testing.T) {
	tests := []struct {
		name string
		data string
		want []string
	}{
		{"not JSON", `{`, []string{"not a Kindling log", "not a JSON object"}},
		{"an AI Code Battle replay", `{"format": "crucible-acb-replay/1", "turns": []}`, []string{"not a Kindling log", `"format" field ("crucible-acb-replay/1")`}},
		{"no code", `{"turns": []}`, []string{"not a Kindling log", `"code" and "turns"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := Write(&bytes.Buffer{}, []byte(tc.data))
			if !errors.Is(err, ErrNotLog) {
				t.Fatalf("error %v does not wrap ErrNotLog", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// The sparks the page shows replay the rules: the last turn's sparks
// left are the log's final sparks, for matches of 2, 3 and 4 seats.
func TestKindlingSparks(t *testing.T) {
	for _, names := range [][]string{{"greedy", "saver"}, {"bestresp", "greedy", "easy"}, {"dump", "farmer", "normal", "random"}} {
		data, _ := playKindling(t, 9, names...)
		l, err := decode(data)
		if err != nil {
			t.Fatal(err)
		}
		d, err := derive(l)
		if err != nil {
			t.Fatal(err)
		}
		if got := d.Left[len(d.Left)-1]; !reflect.DeepEqual(got, l.Final.Sparks) {
			t.Errorf("%v: sparks left after the last turn %v, the log's final %v", names, got, l.Final.Sparks)
		}
		for s := range names {
			if d.Sparks[0][s] != kindling.StartSparks {
				t.Errorf("%v: seat %d holds %d sparks on turn 1, want %d", names, s, d.Sparks[0][s], kindling.StartSparks)
			}
		}
	}
}

// A log whose bids spend more sparks than the rules give is refused.
func TestKindlingOverspendIsRefused(t *testing.T) {
	data, _ := playKindling(t, 2, "greedy", "even")
	bad := viewertest.Edit(t, data, func(doc map[string]any) {
		doc["turns"].([]any)[0].(map[string]any)["bids"].([]any)[1] = []any{9, 0, 0, 0, 0}
	})
	err := Write(&bytes.Buffer{}, bad)
	if err == nil || !strings.Contains(err.Error(), "turns[0]: seat 1 bids 9 sparks but holds 5") {
		t.Fatalf("error %v, want one naming turn 0, seat 1 and its 9 sparks", err)
	}
}
