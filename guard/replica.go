package guard

// WithReplica names the `toolguard serve` replica the guard decides for, in
// fleet mode: every audit record the guard writes carries it (the record's
// "replica"), so that a log shared by several replicas says which one
// decided. Without it, or with "", records name none (a fleet's audit
// table then names the database connection's replica).
func WithReplica(id string) Option {
	return func(g *Guard) { g.replica = id }
}

// Replica is the replica id given with WithReplica; empty without one.
func (g *Guard) Replica() string { return g.replica }
