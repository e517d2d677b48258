package fleet

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Defaults for [Options] fields left at their zero value.
const (
	// DefaultLease is how long a replica's approvals stay answerable
	// after its last heartbeat.
	DefaultLease = 15 * time.Second
	// MinLease is the shortest lease accepted.
	MinLease = 2 * time.Second
	// DefaultTimeout bounds one database operation.
	DefaultTimeout = 750 * time.Millisecond
)

// ErrUnavailable wraps every error of an operation refused or failed
// because the database cannot be reached.
var ErrUnavailable = errors.New("the fleet database cannot be reached")

// Options configure a [Store].
type Options struct {
	// Replica names this process in the database. Empty means the host
	// name and the process id.
	Replica string
	// Lease is how long this replica's pending approvals stay answerable
	// after its last heartbeat (renewed every third of it). Zero means
	// DefaultLease; shorter than MinLease is an error.
	Lease time.Duration
	// Timeout bounds each database operation. Zero means DefaultTimeout.
	Timeout time.Duration
	// MaxConns bounds the pool's connections. Zero means 24 for a server,
	// 2 for a one-call process (see OneCall).
	MaxConns int32
	// OneCall is set by processes that decide one call and exit (hooks,
	// check): one connection, no background work.
	OneCall bool
	// Logger receives the store's operational logs (reconnects, sweeps).
	// Nil means none.
	Logger *slog.Logger
	// Key is the fleet key, the content of [state] key_file, shared by
	// every replica and hook of the fleet: grants, approval cards and
	// answers and notifications are signed with it, and those without a
	// valid signature are ignored. Nil means no key: every signed row read
	// is ignored, and recording a grant or sharing an approval fails with
	// ErrNoKey (enough for reading the audit trail or migrating).
	Key []byte
	// Spool is the file where audit records the database could not take
	// are kept (see [audit.Amender]) until it is back. Empty means they
	// are not kept, only logged.
	Spool string
}

// Store is one process's connection to the fleet database. It is safe
// for concurrent use. Close it when done.
type Store struct {
	pool    *pgxpool.Pool
	url     string
	where   string
	replica string
	lease   time.Duration
	timeout time.Duration
	log     *slog.Logger
	oneCall bool
	seal    *sealer
	spool   *spool

	down     atomic.Bool
	downErr  atomic.Pointer[error]
	probing  atomic.Bool
	draining atomic.Bool
	closed   chan struct{}
	closeOne sync.Once
	bgMu     sync.Mutex // held to add to bg, and to close closed
	bg       sync.WaitGroup

	auditOnce sync.Once
	audit     atomic.Pointer[auditLog] // set once by Audit; Close may race it
	boardOnce sync.Once
	board     atomic.Pointer[Board] // set once by Board; Close may race it

	grantCache grantCache // sessions without grants, while the board listens
}

// Open connects to the database at url, applies the migrations this
// binary carries that the database lacks (under an advisory lock) and
// returns the Store. It fails when the database cannot be reached within
// the timeout, or holds a newer schema than this binary knows; with
// OneCall, a database that cannot be reached gives a Store marked down
// instead, whose operations fail at once with ErrUnavailable and whose
// amended audit records wait in the spool, so that the one call is denied
// and its record kept. Records left in the spool by earlier processes are
// written first.
func Open(ctx context.Context, url string, opts Options) (*Store, error) {
	s, err := Connect(url, opts)
	if err != nil {
		return nil, err
	}
	if err := s.migrate(ctx); err != nil {
		if opts.OneCall && errors.Is(err, ErrUnavailable) {
			return s, nil // marked down: its call is denied, and the record spooled
		}
		s.pool.Close()
		return nil, err
	}
	_ = s.drainSpool(ctx) // what earlier processes could not write
	return s, nil
}

// Connect returns a Store without touching the schema (connections are
// made on first use): for `toolguard state check` and `state migrate`.
func Connect(url string, opts Options) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("[state] url: %v (want postgres://user@host:5432/database?sslmode=…)", redactURLError(err))
	}
	return newStore(cfg, url, opts)
}

func newStore(cfg *pgxpool.Config, url string, opts Options) (*Store, error) {
	if opts.Lease == 0 {
		opts.Lease = DefaultLease
	}
	if opts.Lease < MinLease {
		return nil, fmt.Errorf("[state] lease = %s: it must be at least %s", opts.Lease, MinLease)
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Replica == "" {
		opts.Replica = defaultReplica()
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	cfg.MaxConns = opts.MaxConns
	if cfg.MaxConns <= 0 {
		cfg.MaxConns = 2
		if !opts.OneCall {
			cfg.MaxConns = 24
		}
	}
	cfg.ConnConfig.ConnectTimeout = opts.Timeout
	if cfg.ConnConfig.RuntimeParams == nil {
		cfg.ConnConfig.RuntimeParams = map[string]string{}
	}
	cfg.ConnConfig.RuntimeParams["application_name"] = "toolguard " + opts.Replica
	cfg.HealthCheckPeriod = 5 * time.Second
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		return nil, fmt.Errorf("[state] url: %v", redactURLError(err))
	}
	return &Store{
		pool: pool, url: url, where: describe(cfg.ConnConfig), replica: opts.Replica, lease: opts.Lease,
		timeout: opts.Timeout, log: opts.Logger, oneCall: opts.OneCall, closed: make(chan struct{}),
		seal: newSealer(opts.Key), spool: newSpool(opts.Spool),
	}, nil
}

func defaultReplica() string {
	host, pid := hostPID()
	return fmt.Sprintf("%s-%d", host, pid)
}

// hostPID names this process: the host name ("host" when unknown) and
// the process id.
func hostPID() (string, int) {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "host"
	}
	return host, os.Getpid()
}

// describe names the database without its password: user@host:port/db.
func describe(c *pgx.ConnConfig) string {
	return fmt.Sprintf("%s@%s/%s", c.User, net.JoinHostPort(c.Host, fmt.Sprint(c.Port)), c.Database)
}

// redactURLError keeps a password out of a parse error's text.
func redactURLError(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, "://"); i >= 0 {
		if at := strings.Index(msg[i:], "@"); at > 0 {
			return msg[:i+3] + "…" + msg[i+at:]
		}
	}
	return msg
}

// Replica is this process's name in the database.
func (s *Store) Replica() string { return s.replica }

// Lease is how long this replica's approvals stay answerable after its
// last heartbeat.
func (s *Store) Lease() time.Duration { return s.lease }

// Where names the database without its password (user@host:port/db).
func (s *Store) Where() string { return s.where }

// Close stops the background work and closes the connections.
func (s *Store) Close() error {
	s.closeOne.Do(func() {
		s.bgMu.Lock()
		close(s.closed)
		s.bgMu.Unlock()
		if b := s.board.Load(); b != nil {
			b.stop()
		}
		if l := s.audit.Load(); l != nil {
			l.stop()
		}
		s.bg.Wait()
		s.pool.Close()
		if s.spool != nil {
			_ = s.spool.close()
		}
	})
	return nil
}

// op runs f with the operation deadline, refusing at once while the
// database is known to be down, and marking it down when f fails to reach
// it.
func (s *Store) op(ctx context.Context, what string, f func(ctx context.Context) error) error {
	return s.opWithin(ctx, what, s.timeout, f)
}

// opWithin is op with a timeout of its own (at most the Store's).
func (s *Store) opWithin(ctx context.Context, what string, timeout time.Duration, f func(ctx context.Context) error) error {
	if s.down.Load() {
		s.probe()
		return s.unavailable(what, *s.downErr.Load())
	}
	opCtx, cancel := context.WithTimeout(ctx, min(timeout, s.timeout))
	defer cancel()
	err := f(opCtx)
	if err == nil {
		return nil
	}
	if ctx.Err() != nil { // the caller gave up (a client went away): says nothing of the database
		return fmt.Errorf("fleet database %s: %s: %w", s.where, what, ctx.Err())
	}
	if unreachable(opCtx, err) {
		s.markDown(err)
		return s.unavailable(what, err)
	}
	return fmt.Errorf("fleet database %s: %s: %w", s.where, what, err)
}

func (s *Store) unavailable(what string, err error) error {
	return fmt.Errorf("%w (%s, %s): %v", ErrUnavailable, s.where, what, err)
}

// unreachable tells a database that cannot be reached (refused, reset,
// timed out, shutting down) from an error of the statement itself.
func unreachable(ctx context.Context, err error) bool {
	if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		// admin_shutdown, crash_shutdown, cannot_connect_now and the
		// connection exceptions.
		return strings.HasPrefix(pgErr.Code, "08") || pgErr.Code == "57P01" || pgErr.Code == "57P02" || pgErr.Code == "57P03"
	}
	var netErr net.Error
	return errors.As(err, &netErr) || pgconn.SafeToRetry(err) || errors.Is(err, net.ErrClosed) ||
		strings.Contains(err.Error(), "connection refused") || strings.Contains(err.Error(), "unexpected EOF") ||
		strings.Contains(err.Error(), "failed to connect") || strings.Contains(err.Error(), "conn closed")
}

// markDown records that the database cannot be reached; operations fail
// at once until a probe reaches it again.
func (s *Store) markDown(err error) {
	s.downErr.Store(&err)
	if !s.down.Swap(true) {
		s.log.Warn("fleet database unreachable; deciding endpoints deny until it is back", "db", s.where, "err", err.Error())
	}
	s.probe()
}

// probe starts (once) a background loop that pings the database every
// 200 ms while it is down and marks it up when a ping succeeds.
func (s *Store) probe() {
	if s.oneCall || !s.probing.CompareAndSwap(false, true) {
		return
	}
	if !s.background() {
		s.probing.Store(false)
		return
	}
	go func() {
		defer s.bg.Done()
		defer s.probing.Store(false)
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-s.closed:
				return
			case <-t.C:
			}
			if s.spool != nil {
				_ = s.spool.sync() // the records of the outage so far reach the disk
			}
			ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
			err := s.pool.Ping(ctx)
			cancel()
			if err == nil {
				s.down.Store(false)
				s.log.Info("fleet database reachable again", "db", s.where)
				s.drainSoon()
				return
			}
		}
	}()
}

// background counts a goroutine about to start in bg; false once the
// Store is closing (then it must not start).
func (s *Store) background() bool {
	s.bgMu.Lock()
	defer s.bgMu.Unlock()
	select {
	case <-s.closed:
		return false
	default:
		s.bg.Add(1)
		return true
	}
}

// Healthy reports whether the database was reachable at the last
// operation.
func (s *Store) Healthy() bool { return !s.down.Load() }

// query runs one query as an operation and collects its rows with scan.
func query[T any](ctx context.Context, s *Store, what, sql string, scan pgx.RowToFunc[T], args ...any) ([]T, error) {
	var out []T
	err := s.op(ctx, what, func(ctx context.Context) error {
		rows, err := s.pool.Query(ctx, sql, args...)
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, scan)
		return err
	})
	return out, err
}

// exec runs one statement as an operation.
func (s *Store) exec(ctx context.Context, what, sql string, args ...any) error {
	return s.op(ctx, what, func(ctx context.Context) error {
		_, err := s.pool.Exec(ctx, sql, args...)
		return err
	})
}
