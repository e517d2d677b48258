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
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// DefaultURL is the server tests use when FLEET_TEST_DATABASE_URL is unset.
const DefaultURL = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

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
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	admin, err := pgx.Connect(ctx, ServerURL())
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
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		c, err := pgx.Connect(ctx, ServerURL())
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
