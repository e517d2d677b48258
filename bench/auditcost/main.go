// Command auditcost measures what an audit record costs PostgreSQL: it
// creates a scratch database with the fleet schema, inserts records in
// groups of -group through the statement the replicas use, each group its
// own transaction as a replica's group commit, and prints the CPU time of
// the inserting backend (from /proc, so PostgreSQL must run on this
// machine) per record and per group. Variants of the statement and the
// schema are compared with -variant.
//
//	go run ./bench/auditcost -records 20000 -group 8
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"flag"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/toolguard/toolguard/fleet"
)

func main() {
	admin := flag.String("admin", "postgres://postgres@127.0.0.1:5432/test?sslmode=disable", "a database on the server to create the scratch database from")
	records := flag.Int("records", 20000, "records inserted")
	group := flag.Int("group", 8, "records a group (one statement and one commit)")
	variant := flag.String("variant", "unnest", "unnest: the replicas' statement; "+strings.Join(variantNames(), ", "))
	flag.Parse()
	if err := run(*admin, *records, *group, *variant); err != nil {
		fmt.Fprintln(os.Stderr, "auditcost:", err)
		os.Exit(1)
	}
}

// variants change the schema after the migrations (setup) or the insert.
var variants = map[string]struct {
	setup string
	copy  bool
	sql   string
}{
	"select":      {sql: `SELECT 1`},
	"async":       {setup: `SET synchronous_commit = off`},
	"unnest":      {},
	"copy":        {copy: true},
	"no-time":     {setup: `DROP INDEX toolguard_audit_time`},
	"brin-time":   {setup: `DROP INDEX toolguard_audit_time; CREATE INDEX toolguard_audit_time ON toolguard_audit USING brin (time)`},
	"json-record": {setup: `ALTER TABLE toolguard_audit ALTER COLUMN record TYPE json`},
	"no-rid":      {setup: `DROP INDEX toolguard_audit_rid`},
}

func variantNames() []string {
	var out []string
	for n := range variants {
		out = append(out, n)
	}
	return out
}

const insertAudit = `INSERT INTO toolguard_audit (time, replica, policy, agent, session, tool, verdict, rule, record, rid)
	SELECT t, r, p, a, s, tl, v, ru, rec::jsonb, id::uuid FROM unnest($1::timestamptz[], $2::text[], $3::text[], $4::text[],
		$5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[]) AS u(t, r, p, a, s, tl, v, ru, rec, id)`

func run(admin string, records, group int, variant string) error {
	v, ok := variants[variant]
	if !ok {
		return fmt.Errorf("-variant %q: one of %s", variant, strings.Join(variantNames(), ", "))
	}
	ctx := context.Background()
	dbURL, drop, err := scratch(ctx, admin)
	if err != nil {
		return err
	}
	defer drop()
	st, err := fleet.Open(ctx, dbURL, fleet.Options{Replica: "auditcost"})
	if err != nil {
		return err
	}
	_ = st.Close()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	if v.setup != "" {
		if _, err := conn.Exec(ctx, v.setup); err != nil {
			return err
		}
	}
	var pid int
	if err := conn.QueryRow(ctx, `SELECT pg_backend_pid()`).Scan(&pid); err != nil {
		return err
	}
	insert := func(n int, base int) error {
		cols := columns(n, base)
		if v.copy {
			rows := make([][]any, n)
			for i := range rows {
				rows[i] = []any{cols.times[i], cols.text[0][i], cols.text[1][i], cols.text[2][i], cols.text[3][i], cols.text[4][i],
					cols.text[5][i], cols.text[6][i], cols.text[7][i], cols.text[8][i]}
			}
			_, err := conn.CopyFrom(ctx, pgx.Identifier{"toolguard_audit"},
				[]string{"time", "replica", "policy", "agent", "session", "tool", "verdict", "rule", "record", "rid"}, pgx.CopyFromRows(rows))
			return err
		}
		if v.sql != "" {
			_, err := conn.Exec(ctx, v.sql)
			return err
		}
		c := cols.text
		_, err := conn.Exec(ctx, insertAudit, cols.times, c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8])
		return err
	}
	if err := insert(group, 0); err != nil { // prepares the statement
		return err
	}
	before, sysBefore, start := backendCPU(pid), backendSys(pid), time.Now()
	for done := 0; done < records; done += group {
		if err := insert(min(group, records-done), done); err != nil {
			return err
		}
	}
	cpu, wall := backendCPU(pid)-before, time.Since(start)
	sys := backendSys(pid) - sysBefore
	groups := (records + group - 1) / group
	fmt.Printf("variant %s, %d records in groups of %d: backend CPU %s, %.1f µs a record, %.1f µs a group (system %.0f%%); wall %.1f µs a record\n",
		variant, records, group, cpu.Round(time.Millisecond), float64(cpu.Microseconds())/float64(records),
		float64(cpu.Microseconds())/float64(groups), 100*sys.Seconds()/cpu.Seconds(), float64(wall.Microseconds())/float64(records))
	return nil
}

type cols struct {
	times []time.Time
	text  [9][]string
}

// columns are n records like those of bench/fleetload's calls.
func columns(n, base int) cols {
	var c cols
	now := time.Now().UTC()
	for i := range n {
		k := base + i
		session := "bench-" + strconv.Itoa(k%8)
		args := [...]string{"ls -la", "git status", "cat README.md", "grep -rn TODO src"}[k%4]
		rec := `{"time":"` + now.Format(time.RFC3339Nano) + `","agent":"claude-code","session":"` + session +
			`","tool":"Bash","kind":"shell","args":"` + args + `","verdict":"allow","tier":"read","blast_radius":"none",` +
			`"rule":"mode.supervised","reason":"The supervised mode allows read-tier calls.","latency_ms":0.53,` +
			`"policy":"sha256:532638ac2b9924713968afbe2932b6cc2f17fdbe49f40b45dd4ecd645f9f7c8e","replica":"r2"}`
		c.times = append(c.times, now)
		for j, v := range [...]string{"r2", "sha256:532638ac2b9924713968afbe2932b6cc2f17fdbe49f40b45dd4ecd645f9f7c8e",
			"claude-code", session, "Bash", "allow", "mode.supervised", rec, uuid()} {
			c.text[j] = append(c.text[j], v)
		}
	}
	return c
}

func uuid() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x70
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

func scratch(ctx context.Context, admin string) (string, func(), error) {
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		return "", nil, fmt.Errorf("-admin: %w", err)
	}
	var b [4]byte
	_, _ = rand.Read(b[:])
	name := "auditcost_" + hex.EncodeToString(b[:])
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		conn.Close(ctx)
		return "", nil, err
	}
	u, _ := url.Parse(admin)
	u.Path = "/" + name
	return u.String(), func() {
		_, _ = conn.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
		conn.Close(context.Background())
	}, nil
}

// backendCPU is the user + system time of a process.
func backendCPU(pid int) time.Duration {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	s := string(data)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	u, _ := strconv.ParseInt(f[11], 10, 64)
	sy, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+sy) * time.Second / 100
}

// backendSys is the system time of a process.
func backendSys(pid int) time.Duration {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	s := string(data)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	sy, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(sy) * time.Second / 100
}
