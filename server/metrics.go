package server

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// metrics are the server's Prometheus collectors. A nil *metrics records
// nothing.
type metrics struct {
	decisions     *prometheus.CounterVec
	latency       prometheus.Histogram
	pending       prometheus.Gauge
	outcomes      *prometheus.CounterVec
	eventsDropped prometheus.Counter
}

func newMetrics(reg prometheus.Registerer) *metrics {
	m := &metrics{
		decisions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "toolguard_decisions_total", Help: "Decisions made, by verdict, tier and category.",
		}, []string{"verdict", "tier", "category"}),
		latency: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "toolguard_decision_duration_seconds", Help: "Time to decide one call (policy and grants, without waiting for a person).",
			Buckets: prometheus.ExponentialBuckets(25e-6, 2, 14),
		}),
		pending: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "toolguard_approvals_pending", Help: "Approvals waiting for a person.",
		}),
		outcomes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "toolguard_approvals_total", Help: "Approval outcomes: approved, denied, timeout, cancelled, shutdown, queue-full, error.",
		}, []string{"outcome"}),
		eventsDropped: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "toolguard_events_dropped_total", Help: "Server-sent events dropped because a subscriber was too slow.",
		}),
	}
	reg.MustRegister(m.decisions, m.latency, m.pending, m.outcomes, m.eventsDropped)
	return m
}

func (m *metrics) observe(d policy.Decision, took time.Duration) {
	if m == nil {
		return
	}
	m.decisions.WithLabelValues(d.Verdict.String(), d.Tier.String(), categoryLabel(d.Category)).Inc()
	if took >= 0 {
		m.latency.Observe(took.Seconds())
	}
}

func categoryLabel(c risk.Category) string {
	if c == risk.CatNone {
		return "none"
	}
	return string(c)
}

func (m *metrics) setPending(n int) {
	if m != nil {
		m.pending.Set(float64(n))
	}
}

func (m *metrics) approvalOutcome(outcome string) {
	if m != nil {
		m.outcomes.WithLabelValues(outcome).Inc()
	}
}
