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

// WaitKey is the context key under which a caller may put a func() that a
// Sink calls when a Write starts waiting for storage it does not compute
// itself (a database's commit), so that a server can give the caller's
// concurrency slot to another request meanwhile.
type WaitKey struct{}

// StartedWaiting calls the function ctx carries under WaitKey, if any.
func StartedWaiting(ctx context.Context) {
	if f, ok := ctx.Value(WaitKey{}).(func()); ok {
		f()
	}
}
