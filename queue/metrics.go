package queue

import (
	"context"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics are a worker's Prometheus metrics. All are labelled by game
// except the queue depth, which is read from the database at each scrape.
type Metrics struct {
	Registry *prometheus.Registry
	// Matches counts matches played and recorded (failed ones included).
	Matches *prometheus.CounterVec
	// MatchFailures counts recorded matches that failed (a player's error
	// or crash: an "error" result line).
	MatchFailures *prometheus.CounterVec
	// BatchFailures counts batches this worker could not finish: an error
	// of the arena or the database (the batch is retried).
	BatchFailures *prometheus.CounterVec
	// Rejected counts late completions refused because the batch had been
	// rescued and handed to another attempt.
	Rejected *prometheus.CounterVec
	// Returned counts batches handed back to the queue at shutdown.
	Returned *prometheus.CounterVec
	// BatchSeconds is the time from taking a batch to committing its
	// results.
	BatchSeconds *prometheus.HistogramVec
	// Running is the number of batches in progress.
	Running prometheus.Gauge
}

// NewMetrics registers a worker's metrics, and the queue depth of queues
// read from db at each scrape, on a new registry.
func NewMetrics(db *DB, queues []string) *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{
		Registry: reg,
		Matches: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "crucible_queue_matches_played_total", Help: "Matches played and recorded by this worker (failed ones included).",
		}, []string{"game"}),
		MatchFailures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "crucible_queue_match_failures_total", Help: "Recorded matches that failed (a player's error or crash).",
		}, []string{"game"}),
		BatchFailures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "crucible_queue_batch_failures_total", Help: "Batches that failed on this worker (arena or database error); River retries them.",
		}, []string{"game"}),
		Rejected: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "crucible_queue_late_completions_rejected_total", Help: "Completions refused because the batch had been rescued and handed to another attempt.",
		}, []string{"game"}),
		Returned: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "crucible_queue_batches_returned_total", Help: "Unfinished batches handed back to the queue at shutdown.",
		}, []string{"game"}),
		BatchSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "crucible_queue_batch_seconds",
			Help:    "Time from taking a batch to committing its results.",
			Buckets: []float64{0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 40, 60, 90, 120, 180, 300, 600},
		}, []string{"game"}),
		Running: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "crucible_queue_batches_running", Help: "Batches this worker is playing now.",
		}),
	}
	reg.MustRegister(m.Matches, m.MatchFailures, m.BatchFailures, m.Rejected, m.Returned, m.BatchSeconds, m.Running,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if db != nil {
		reg.MustRegister(&depthCollector{db: db, queues: queues,
			desc: prometheus.NewDesc("crucible_queue_depth", "Batches waiting in the queue (available, scheduled or retryable), and running.",
				[]string{"queue", "state"}, nil)})
	}
	return m
}

// Handler serves the metrics.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{})
}

// depthCollector reads the queue depth from River's table at scrape time.
type depthCollector struct {
	db     *DB
	queues []string
	desc   *prometheus.Desc
}

func (c *depthCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c *depthCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	rows, err := c.db.Pool.Query(ctx, `SELECT queue, state::text, count(*) FROM river_job
		WHERE queue = ANY($1) AND state IN ('available', 'scheduled', 'retryable', 'running') GROUP BY queue, state`, c.queues)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.desc, err)
		return
	}
	defer rows.Close()
	seen := map[[2]string]bool{}
	for rows.Next() {
		var q, s string
		var n int64
		if err := rows.Scan(&q, &s, &n); err != nil {
			ch <- prometheus.NewInvalidMetric(c.desc, err)
			return
		}
		seen[[2]string{q, s}] = true
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(n), q, s)
	}
	for _, q := range c.queues {
		for _, s := range []string{"available", "scheduled", "retryable", "running"} {
			if !seen[[2]string{q, s}] {
				ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, 0, q, s)
			}
		}
	}
}
