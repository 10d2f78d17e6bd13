package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"crucible/internal/pgtest"
)

// timing is the wall-clock part of the evolver's final line.
var timing = regexp.MustCompile(` matches in [^,]+,|; [0-9]+s in all`)

// An evolution whose generations play on the queue's workers ends as the
// same run played here: the same champion and the same final table.
func TestEvolveOnTheQueue(t *testing.T) {
	url := pgtest.DB(t)
	startQueueWorker(t, url)
	args := []string{"evolve", "--game", "kindling", "--base", "contrarian", "--algo", "cmaes", "--generations", "3", "--seeds", "2",
		"--pool", "easy,normal,even", "--seed", "5", "--tournament-seeds", "2", "--holdout", "4", "--top", "2"}
	local, onQueue := filepath.Join(t.TempDir(), "local"), filepath.Join(t.TempDir(), "queue")
	wantOut, errOut, err := execRoot(t, append(args, "--out", local)...)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	gotOut, errOut, err := execRoot(t, append(args, "--out", onQueue, "--db", url)...)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	gotOut = strings.ReplaceAll(timing.ReplaceAllString(gotOut, ""), onQueue, "DIR")
	wantOut = strings.ReplaceAll(timing.ReplaceAllString(wantOut, ""), local, "DIR")
	if gotOut != wantOut {
		t.Errorf("final table differs:\n%s\nwant\n%s", gotOut, wantOut)
	}
	a, _ := os.ReadFile(filepath.Join(local, "champion.json"))
	b, _ := os.ReadFile(filepath.Join(onQueue, "champion.json"))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Errorf("champions differ:\n%s\nwant\n%s", b, a)
	}
	list, _, _ := execRoot(t, "runs", "list", "--db", url)
	if !strings.Contains(list, "evolve --base contrarian") {
		t.Errorf("the generations are not runs of the queue:\n%s", list)
	}
}

// A ladder night played on the queue closes with the standings of the
// same night played here.
func TestLadderNightOnTheQueue(t *testing.T) {
	here, there := pgtest.DB(t), pgtest.DB(t)
	startQueueWorker(t, there)
	var outs []string
	for _, db := range []string{here, there} {
		if _, errOut, err := execRoot(t, "ladder", "init", "--game", "kindling", "--db", db); err != nil {
			t.Fatalf("%v\n%s", err, errOut)
		}
		for _, s := range []string{"normal", "sniper", "easy"} {
			if _, errOut, err := execRoot(t, "ladder", "add", s, "--strategy", s, "--db", db); err != nil {
				t.Fatalf("%v\n%s", err, errOut)
			}
		}
		run := []string{"ladder", "run", "--night", "n1", "--seeds-per-night", "6", "--budget", "0", "--db", db}
		if db == there {
			run = append(run, "--queue", "matches")
		}
		out, errOut, err := execRoot(t, run...)
		if err != nil {
			t.Fatalf("%v\n%s", err, errOut)
		}
		if db == there && !strings.Contains(errOut, "run 1: 72 matches") {
			t.Errorf("the night did not go through the queue:\n%s", errOut)
		}
		outs = append(outs, out)
	}
	if outs[0] != outs[1] {
		t.Errorf("standings differ:\n%s\nwant\n%s", outs[1], outs[0])
	}
	if _, _, err := execRoot(t, "ladder", "run", "--db", filepath.Join(t.TempDir(), "l.db"), "--queue", "matches"); err == nil ||
		!strings.Contains(err.Error(), "--queue needs the ladder in PostgreSQL") {
		t.Errorf("--queue on an SQLite ladder: %v", err)
	}
}
