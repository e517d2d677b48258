package audit

import "context"

// Sink receives audit records: a [Writer] appending to a file, or a
// fleet's database (package fleet). Write returns only once the record is
// stored; an error means it was not. Implementations are safe for
// concurrent use.
type Sink interface {
	Write(ctx context.Context, r Record) error
	// Path names where records go, for messages: a file path, or a
	// description of the database table.
	Path() string
	// Close releases what the sink holds; it is not used afterwards.
	Close() error
}

var _ Sink = (*Writer)(nil)

// Amender is a Sink whose failed Write may have stored the record all the
// same (a database that committed it but whose reply was lost), or that
// can keep records until its storage is back. A caller whose Write failed
// and who answered the call otherwise than the record says (a deny
// because the record could not be written) tells it with Amend: the
// record answered then stands in for the failed one, whenever that one
// was or will be stored. err is the error Write returned.
type Amender interface {
	Amend(err error, answered Record) error
}

// Amend tells s, when it is an [Amender], that the call whose record's
// Write returned err was answered as answered. Other sinks store nothing
// after a failed write, so there is nothing to amend.
func Amend(s Sink, err error, answered Record) error {
	if a, ok := s.(Amender); ok {
		return a.Amend(err, answered)
	}
	return nil
}

// WaitKey is the context key under which a caller may put a func() that a
// Sink calls when a Write starts waiting for storage it does not compute
// itself (a database's commit, or another Write's commit of the group its
// record joined), so that a server can give the caller's concurrency slot
// to another request meanwhile. It may be called more than once a Write.
type WaitKey struct{}

// StartedWaiting calls the function ctx carries under WaitKey, if any.
func StartedWaiting(ctx context.Context) {
	if f, ok := ctx.Value(WaitKey{}).(func()); ok {
		f()
	}
}

// GatherKey is the context key under which a caller may put a [Gatherer].
type GatherKey struct{}

// Gatherer tells a [Writer] whether other records are on their way: a
// server deciding other calls at the same moment, whose records will
// follow this one's within microseconds.
type Gatherer interface {
	MoreComing() bool
}

// moreComing reports whether ctx carries a [Gatherer] that says other
// records are on their way.
func moreComing(ctx context.Context) bool {
	g, ok := ctx.Value(GatherKey{}).(Gatherer)
	return ok && g.MoreComing()
}
