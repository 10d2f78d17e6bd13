package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"crucible/internal/pgtest"
	"crucible/queue"
)

// A queue worker starts an outside bot from the manifest stored with the
// run, on its own machine: crucible arena --db with the example Python bot
// gives the leaderboard of the local arena. A worker whose machine lacks
// the bot's folder fails naming it.
func TestWorkerStartsABotFromItsManifest(t *testing.T) {
	if testing.Short() {
		t.Skip("plays the example Python bot as a real process")
	}
	needPython(t)
	url := pgtest.DB(t)
	ctx, stop := context.WithCancel(context.Background())
	db, err := queue.Open(ctx, url, 8)
	if err != nil {
		t.Fatal(err)
	}
	bs := newBotSession(t.TempDir(), nil)
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- queue.Work(ctx, db, queue.WorkerConfig{Games: workerGames{Table: labGames, bots: bs}, Workers: 2, Ready: func(string) { close(ready) }})
	}()
	<-ready
	defer func() {
		stop()
		if err := <-done; err != nil {
			t.Errorf("worker: %v", err)
		}
		bs.Close()
		db.Close()
	}()
	dir := t.TempDir()
	args := []string{"arena", "--game", "acb", "--players", examplePath("acb-python", "bot.json") + ",guardian", "--seeds", "1", "--matrix=false"}
	wantOut, errOut, err := execRoot(t, append(args, "--out", filepath.Join(dir, "local.jsonl"))...)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	gotOut, errOut, err := execRoot(t, append(args, "--out", filepath.Join(dir, "queue.jsonl"), "--db", url)...)
	if err != nil {
		t.Fatalf("arena --db: %v\n%s", err, errOut)
	}
	if gotOut != wantOut {
		t.Errorf("the queue's leaderboard differs from the local one:\n%s\nwant\n%s", gotOut, wantOut)
	}

	// A manifest whose folder is not on the worker's machine.
	m, err := loadManifest("acb", examplePath("acb-python", "bot.json"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := storedManifest(m.Own())
	if err != nil {
		t.Fatal(err)
	}
	gone := strings.Replace(data, `"dir": "`, `"dir": "nowhere/`, 1)
	_, err = workerGames{Table: labGames, bots: bs}.Bot("acb", gone, "py")
	if err == nil || !strings.Contains(err.Error(), "this worker cannot start py") || !strings.Contains(err.Error(), "is not there") {
		t.Errorf("a bot whose folder is missing: %v", err)
	}
}
