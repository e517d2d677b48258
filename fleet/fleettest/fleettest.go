// Package fleettest gives tests a fresh PostgreSQL database of their own.
//
// The server is found through FLEET_TEST_DATABASE_URL (default
// postgres://postgres@127.0.0.1:5432/test?sslmode=disable). When it cannot
// be reached the test is skipped with a message, unless
// FLEET_TEST_REQUIRE=1 (CI sets it): then it fails.
package fleettest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// DefaultURL is the server tests use when FLEET_TEST_DATABASE_URL is unset.
const DefaultURL = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// OpTimeout is the deadline of one database operation that tests give a
// fleet.Store ([state] timeout) when what they prove is not how fast it
// answers: exact budgets, shared grants, the audit trail. On a machine
// loaded 10–20 deep, 60 calls queued on one advisory lock and on new
// connections take seconds, and the default 750ms would turn slowness
// into "database unreachable". Tests of the deadline set their own.
const OpTimeout = 30 * time.Second

// ServerURL is the URL of the test server's maintenance database.
func ServerURL() string {
	if u := os.Getenv("FLEET_TEST_DATABASE_URL"); u != "" {
		return u
	}
	return DefaultURL
}

// Database creates an empty database for t, dropped when t ends, and
// returns its URL.
func Database(t testing.TB) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	admin, err := connect(ctx)
	if err != nil {
		if os.Getenv("FLEET_TEST_REQUIRE") == "1" {
			t.Fatalf("PostgreSQL at %s is required (FLEET_TEST_REQUIRE=1): %v", ServerURL(), err)
		}
		t.Skipf("no PostgreSQL at %s (set FLEET_TEST_DATABASE_URL; .ci/run starts one): %v", ServerURL(), err)
	}
	defer admin.Close(context.Background())
	var b [6]byte
	_, _ = rand.Read(b[:])
	name := "toolguard_test_" + hex.EncodeToString(b[:])
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("creating a test database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		c, err := connect(ctx)
		if err != nil {
			return
		}
		defer c.Close(context.Background())
		_, _ = c.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	})
	u, err := url.Parse(ServerURL())
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// connect opens a connection to the server's maintenance database. A
// server that is there but has no connection free (other tests' pools,
// SQLSTATE 53300) or is slow to answer is asked again until ctx ends;
// one that refuses the connection is not there.
func connect(ctx context.Context) (*pgx.Conn, error) {
	for {
		attempt, cancel := context.WithTimeout(ctx, 10*time.Second)
		c, err := pgx.Connect(attempt, ServerURL())
		cancel()
		if err == nil || !busy(err) || ctx.Err() != nil {
			return c, err
		}
		select {
		case <-ctx.Done():
			return nil, err
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// busy reports whether err says the server is there but cannot take the
// connection now.
func busy(err error) bool {
	if pe, ok := errors.AsType[*pgconn.PgError](err); ok {
		return pe.Code == "53300" || pe.Code == "57P03" // too many connections; starting up
	}
	return errors.Is(err, context.DeadlineExceeded)
}
