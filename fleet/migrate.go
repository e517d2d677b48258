package fleet

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrationLock is the advisory lock key under which migrations run, so
// that replicas starting together apply each one once.
const migrationLock int64 = 0x746f6f6c67756172 // "toolguar"

// Migration is one embedded schema version.
type Migration struct {
	// Version is the number the file name starts with.
	Version int
	// Name is the file name.
	Name string
	sql  string
}

// Migrations are the schema versions this binary carries, oldest first.
func Migrations() []Migration {
	entries, err := fs.ReadDir(migrationFiles, "migrations")
	if err != nil {
		panic(err) // embedded at build time
	}
	var out []Migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			panic("fleet: migration file " + e.Name() + " does not start with a version number and _")
		}
		data, err := migrationFiles.ReadFile(path.Join("migrations", e.Name()))
		if err != nil {
			panic(err)
		}
		out = append(out, Migration{Version: v, Name: e.Name(), sql: string(data)})
	}
	slices.SortFunc(out, func(a, b Migration) int { return a.Version - b.Version })
	return out
}

// SchemaVersion is the newest schema version this binary carries.
func SchemaVersion() int {
	m := Migrations()
	return m[len(m)-1].Version
}

const migrationsTable = `CREATE TABLE IF NOT EXISTS toolguard_migrations (
	version    integer PRIMARY KEY,
	name       text NOT NULL,
	applied_at timestamptz NOT NULL DEFAULT now()
)`

// Version is the schema version of the database: 0 before any migration.
func (s *Store) Version(ctx context.Context) (int, error) {
	var v int
	err := s.op(ctx, "reading the schema version", func(ctx context.Context) error {
		return s.pool.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM toolguard_migrations`).Scan(&v)
	})
	if err != nil && strings.Contains(err.Error(), "42P01") { // undefined_table: nothing applied yet
		return 0, nil
	}
	return v, err
}

// migrate brings the schema to this binary's version. A database already
// there costs one query; otherwise the migrations run under an advisory
// lock, each in its own transaction, so concurrent starts apply each once.
func (s *Store) migrate(ctx context.Context) error {
	v, err := s.Version(ctx)
	if err != nil {
		return err
	}
	if v == SchemaVersion() {
		return nil
	}
	if v > SchemaVersion() {
		return fmt.Errorf("the fleet database %s has schema version %d, newer than this toolguard's %d: upgrade toolguard", s.where, v, SchemaVersion())
	}
	_, err = s.Migrate(ctx)
	return err
}

// Migrate applies the migrations the database lacks and returns those it
// applied. It is what `toolguard state migrate` runs.
func (s *Store) Migrate(ctx context.Context) ([]Migration, error) {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return nil, s.unavailable("migrating", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, migrationLock); err != nil {
		return nil, fmt.Errorf("fleet database %s: taking the migration lock: %w", s.where, err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, migrationLock) //nolint:errcheck // released with the session anyway
	if _, err := conn.Exec(ctx, migrationsTable); err != nil {
		return nil, fmt.Errorf("fleet database %s: %w", s.where, err)
	}
	var applied []Migration
	for _, m := range Migrations() {
		done, err := applyMigration(ctx, conn.Conn(), m)
		if err != nil {
			return applied, fmt.Errorf("fleet database %s: migration %s: %w", s.where, m.Name, err)
		}
		if done {
			applied = append(applied, m)
			s.log.Info("fleet schema migrated", "version", m.Version, "name", m.Name)
		}
	}
	return applied, nil
}

// applyMigration applies m in one transaction unless it is recorded as
// applied; it reports whether it applied it.
func applyMigration(ctx context.Context, conn *pgx.Conn, m Migration) (bool, error) {
	tx, err := conn.Begin(ctx)
	if err != nil {
		return false, err
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // no-op after Commit
	var exists bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM toolguard_migrations WHERE version = $1)`, m.Version).Scan(&exists); err != nil {
		return false, err
	}
	if exists {
		return false, nil
	}
	if _, err := tx.Exec(ctx, m.sql); err != nil {
		return false, err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO toolguard_migrations (version, name) VALUES ($1, $2)`, m.Version, m.Name); err != nil {
		return false, err
	}
	return true, tx.Commit(ctx)
}
