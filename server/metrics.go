package server

import (
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toolguard/toolguard/fleet"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// latencyBuckets are the upper bounds of the decision latency histogram:
// 25 µs doubling 14 times (to about 0.2 s), written out so that they are
// not computed at start-up.
var latencyBuckets = []float64{25e-6, 50e-6, 100e-6, 200e-6, 400e-6, 800e-6, 1.6e-3, 3.2e-3, 6.4e-3, 12.8e-3,
	25.6e-3, 51.2e-3, 102.4e-3, 204.8e-3}

// metrics are the server's counters, served on /metrics in the Prometheus
// text exposition format (version 0.0.4). They are written here rather than
// with prometheus/client_golang because every toolguard process links this
// package, and that library's package initialisation and size cost each
// hook process about 0.7 ms (docs/benchmarks.md). A nil *metrics records
// nothing.
type metrics struct {
	mu            sync.Mutex
	decisions     map[[3]string]uint64 // category, tier, verdict
	buckets       []uint64             // per latencyBuckets bound, not cumulative
	latencySum    float64
	latencyCount  uint64
	pending       int
	outcomes      map[string]uint64
	eventsDropped uint64
	failedClosed  map[[2]string]uint64 // endpoint, reason
	policyHash    string               // the policy in force; "" until set
	policyMode    string
	fleet         fleetGauge // the fleet's board and store; nil outside fleet mode
}

// fleetGauge is what /metrics reports of a fleet replica.
type fleetGauge interface {
	Healthy() bool
	Dropped() int64
	Replica() string
	Rejected() fleet.Rejected
	SpoolDropped() int64
}

func newMetrics() *metrics {
	return &metrics{decisions: map[[3]string]uint64{}, buckets: make([]uint64, len(latencyBuckets)), outcomes: map[string]uint64{}, failedClosed: map[[2]string]uint64{}}
}

func (m *metrics) observe(d policy.Decision, took time.Duration) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.decisions[[3]string{categoryLabel(d.Category), d.Tier.String(), d.Verdict.String()}]++
	if took >= 0 {
		m.observeLatency(took.Seconds())
	}
}

func (m *metrics) observeLatency(s float64) {
	if i, _ := slices.BinarySearch(latencyBuckets, s); i < len(m.buckets) {
		m.buckets[i]++
	}
	m.latencySum += s
	m.latencyCount++
}

func categoryLabel(c risk.Category) string {
	if c == risk.CatNone {
		return "none"
	}
	return string(c)
}

func (m *metrics) setPending(n int) {
	if m != nil {
		m.mu.Lock()
		m.pending = n
		m.mu.Unlock()
	}
}

func (m *metrics) approvalOutcome(outcome string) {
	if m != nil {
		m.mu.Lock()
		m.outcomes[outcome]++
		m.mu.Unlock()
	}
}

// eventDropped counts n server-sent events dropped for a slow subscriber.
func (m *metrics) eventDropped(n int64) {
	if m != nil {
		m.mu.Lock()
		m.eventsDropped += uint64(n)
		m.mu.Unlock()
	}
}

// setPolicy records the policy in force, for toolguard_policy_info.
func (m *metrics) setPolicy(hash, mode string) {
	if m != nil {
		m.mu.Lock()
		m.policyHash, m.policyMode = hash, mode
		m.mu.Unlock()
	}
}

// failClosed counts a request answered with a deny without a decision:
// reason is overloaded or deadline.
func (m *metrics) failClosed(endpoint, reason string) {
	if m != nil {
		m.mu.Lock()
		m.failedClosed[[2]string{endpoint, reason}]++
		m.mu.Unlock()
	}
}

// ServeHTTP writes every metric in the Prometheus text format.
func (m *metrics) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	m.mu.Lock()
	defer m.mu.Unlock()
	m.writeDecisions(w)
	m.writeLatency(w)
	header(w, "toolguard_approvals_pending", "gauge", "Approvals waiting for a person.")
	fmt.Fprintf(w, "toolguard_approvals_pending %d\n", m.pending)
	m.writeOutcomes(w)
	header(w, "toolguard_events_dropped_total", "counter", "Server-sent events dropped because a subscriber was too slow.")
	fmt.Fprintf(w, "toolguard_events_dropped_total %d\n", m.eventsDropped)
	header(w, "toolguard_fail_closed_total", "counter", "Requests denied without a decision: the deciding slots were busy (overloaded) or the deadline passed (deadline).")
	keys := slices.SortedFunc(maps.Keys(m.failedClosed), func(a, b [2]string) int {
		return strings.Compare(a[0]+"\x00"+a[1], b[0]+"\x00"+b[1])
	})
	for _, k := range keys {
		fmt.Fprintf(w, "toolguard_fail_closed_total{endpoint=%s,reason=%s} %d\n", label(k[0]), label(k[1]), m.failedClosed[k])
	}
	if m.policyHash != "" {
		header(w, "toolguard_policy_info", "gauge", "The policy in force: its hash (as GET /v1/policy reports it) and mode; always 1.")
		fmt.Fprintf(w, "toolguard_policy_info{hash=%s,mode=%s} 1\n", label(m.policyHash), label(m.policyMode))
	}
	if m.fleet != nil {
		up := 0
		if m.fleet.Healthy() {
			up = 1
		}
		header(w, "toolguard_fleet_database_up", "gauge", "1 while the fleet database answered the last operation, 0 while deciding endpoints deny because it cannot be reached.")
		fmt.Fprintf(w, "toolguard_fleet_database_up{replica=%s} %d\n", label(m.fleet.Replica()), up)
		header(w, "toolguard_fleet_events_dropped_total", "counter", "Events that could not be sent to the other replicas (the database was too slow or unreachable).")
		fmt.Fprintf(w, "toolguard_fleet_events_dropped_total %d\n", m.fleet.Dropped())
		header(w, "toolguard_fleet_unsigned_total", "counter", "Rows and notifications of the fleet database ignored because they did not carry a valid signature of the fleet key (written by something without the key: an agent that reached the database, or a replica with another key file), by kind.")
		rejected := m.fleet.Rejected()
		for _, kind := range slices.Sorted(maps.Keys(rejected)) {
			fmt.Fprintf(w, "toolguard_fleet_unsigned_total{kind=%s} %d\n", label(kind), rejected[kind])
		}
		header(w, "toolguard_fleet_audit_spool_dropped_total", "counter", "Audit records the database could not take that could not be kept in the local spool either (full or not writable); each was logged.")
		fmt.Fprintf(w, "toolguard_fleet_audit_spool_dropped_total %d\n", m.fleet.SpoolDropped())
	}
}

func (m *metrics) writeDecisions(w io.Writer) {
	header(w, "toolguard_decisions_total", "counter", "Decisions made, by verdict, tier and category.")
	keys := make([][3]string, 0, len(m.decisions))
	for k := range m.decisions {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [3]string) int {
		return strings.Compare(strings.Join(a[:], "\x00"), strings.Join(b[:], "\x00"))
	})
	for _, k := range keys {
		fmt.Fprintf(w, "toolguard_decisions_total{category=%s,tier=%s,verdict=%s} %d\n", label(k[0]), label(k[1]), label(k[2]), m.decisions[k])
	}
}

func (m *metrics) writeLatency(w io.Writer) {
	const name = "toolguard_decision_duration_seconds"
	header(w, name, "histogram", "Time to decide one call (policy and grants, without waiting for a person).")
	var cum uint64
	for i, bound := range latencyBuckets {
		cum += m.buckets[i]
		fmt.Fprintf(w, "%s_bucket{le=\"%s\"} %d\n", name, strconv.FormatFloat(bound, 'g', -1, 64), cum)
	}
	fmt.Fprintf(w, "%s_bucket{le=\"+Inf\"} %d\n%s_sum %s\n%s_count %d\n", name, m.latencyCount,
		name, strconv.FormatFloat(m.latencySum, 'g', -1, 64), name, m.latencyCount)
}

func (m *metrics) writeOutcomes(w io.Writer) {
	header(w, "toolguard_approvals_total", "counter", "Approval outcomes: approved, denied, timeout, cancelled, shutdown, queue-full, error.")
	for _, o := range slices.Sorted(maps.Keys(m.outcomes)) {
		fmt.Fprintf(w, "toolguard_approvals_total{outcome=%s} %d\n", label(o), m.outcomes[o])
	}
}

func header(w io.Writer, name, kind, help string) {
	fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, kind)
}

// label quotes a label value as the text format requires.
func label(v string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(v) + `"`
}
