// Package queue spreads arena matches over many machines through River
// (github.com/riverqueue/river) on PostgreSQL, the database that holds the
// ladder.
//
// A run is a list of arena jobs (the schedule of crucible arena, an
// evolver generation, a ladder night) and the specs of its entrants
// (strategy and parameters, or a remote bot's URL), stored in queue_runs;
// its jobs are cut in order into batches of about a minute of one core's
// work (BatchSize, from a match rate measured by Calibrate), each stored in
// queue_batches and enqueued as one River job in the same transaction
// (Submit). A worker (Work, crucible worker) takes batches, rebuilds the
// run's entrants once, plays a batch's jobs with arena.Run on one core (the
// same code and so the same result lines as the local arena), and records
// the batch's lines as one queue_results row in the transaction that
// completes the River job:
//
//   - a worker killed at any point loses nothing: the transaction either
//     committed (results and completion) or did not (the batch is still
//     running in River's table and is rescued);
//   - nothing counts twice: the transaction first locks the River job's
//     row and checks that it is still running under this worker's attempt
//     (attempt number and start time), because River's JobCompleteTx alone
//     completes a job that was rescued and runs again elsewhere (it checks
//     only that the job is running; TestLateCompletionOfRescuedBatch shows
//     it); and the results' primary key (run, batch) refuses a second row.
//
// A batch running longer than RescueAfter (crucible worker --rescue-after,
// 5 minutes by default) is taken for stuck and made available again, by
// every worker's own check (every RescueAfter/4, at most 30 s, with River's driver
// queries) besides River's leader-only rescuer (every 30 s). Batches are
// never cut short by time (River's JobTimeout is off): one that outlives
// RescueAfter is replayed elsewhere and its own late completion is
// rejected. On SIGTERM a worker lets its batches finish for StopTimeout,
// then hands the rest back (JobSnooze(0): available at once, no attempt
// spent).
//
// Whoever submitted the run follows it (Follow, FollowToFile): the
// recorded batches' lines are appended to a results file in the local
// arena's format, so crucible rate, report and arena --resume read it as
// any other, and following again after a kill appends only what the file
// lacks. Ratings are computed by that one consumer, never by workers.
// Runner.Run has arena.Run's signature, so the evolver and the ladder
// play through the queue by taking it as their match runner.
//
// Matches against remote HTTP bots hold a slot of each bot for their
// length (WorkerConfig.BotConcurrency slots per URL, shared by every worker
// of the database through PostgreSQL advisory locks).
//
// Figures measured on the project's 2-core machine and an estimate for a
// million-match night are in README.md.
package queue
