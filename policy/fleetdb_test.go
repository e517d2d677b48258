package policy_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/policy"
)

// TestFleetDatabaseClients: with [state] url set, any client connection to
// that database is self-protection in every mode, whatever spells the
// connection; a connection elsewhere is judged as usual (issue 30: a
// forged grant through psql -h 127.0.0.1 … -f q.sql).
func TestFleetDatabaseClients(t *testing.T) {
	svcHome := t.TempDir()
	if err := os.WriteFile(filepath.Join(svcHome, ".pg_service.conf"),
		[]byte("[other]\nhost=10.9.9.9\ndbname=app\n\n[fleet]\nhost=127.0.0.1\nport=5432\ndbname=toolguard\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	local := "postgres://tg:secret@127.0.0.1:5432/toolguard?sslmode=disable"
	remote := "postgres://tg@db.internal:5433/fleet"
	for _, c := range []struct {
		url, cmd string
		self     bool
	}{
		{local, "psql -h 127.0.0.1 -U postgres toolguard -f q.sql", true},
		{local, "psql -h localhost -d toolguard -c 'select 1'", true},
		{local, "psql --host=127.1 --port=5432 --dbname=toolguard", true},
		{local, "psql -hlocalhost -p5432 toolguard", true},
		{local, "psql postgresql://postgres@[::1]/toolguard -f q.sql", true},
		{local, "psql 'host=127.0.0.1 dbname=toolguard user=postgres'", true},
		{local, "psql -d 'postgres://x@localhost:5432/toolguard'", true},
		{local, "PGHOST=127.0.0.1 PGDATABASE=toolguard psql -f q.sql", true},
		{local, "export PGDATABASE=toolguard; psql -f q.sql", true},
		{local, "PGDATABASE=$DB psql -f q.sql", true},
		{local, "pg_dump -h 127.0.0.1 toolguard", true},
		{local, "psql", true}, // the local socket, the database unknown: fail closed
		{local, `python3 -c "import psycopg2; psycopg2.connect(host='127.0.0.1', dbname='toolguard')"`, true},
		{local, `node -e "const {Client}=require('pg'); new Client({host:'localhost', database:'toolguard'}).connect()"`, true},
		{local, `python3 -c "import sqlalchemy as s; s.create_engine('postgresql://u@127.0.0.1/toolguard').connect()"`, true},
		{local, "psql -h 127.0.0.1 -d appdb -c 'select 1'", false},
		{local, "psql -h 127.0.0.1 -p 5433 toolguard", false},
		{local, "psql -h db.prod.example toolguard", false},
		{local, `python3 -c "import psycopg2; psycopg2.connect(host='127.0.0.1', dbname='shop')"`, false},
		{local, "docker run -e POSTGRES_PASSWORD=x postgres:16", false},
		{remote, "psql -h db.internal -p 5433 fleet", true},
		{remote, "psql postgres://someone@DB.internal:5433/fleet", true},
		{remote, "psql -h db.internal fleet", false}, // port 5432
		{remote, "psql -h 127.0.0.1 -p 5433 fleet", false},
		{remote, "psql", false},
		{"", "psql -h 127.0.0.1 toolguard", false},
	} {
		for _, mode := range []string{policy.ModeSupervised, policy.ModeFull} {
			p, err := policy.Compile(&policy.Config{Settings: policy.Settings{Mode: mode, State: policy.State{URL: c.url}}},
				policy.Options{Home: home})
			if err != nil {
				t.Fatal(err)
			}
			got := decide(t, p, "Bash", bash(c.cmd))
			if is := got == (outcome{"deny", "self.protect"}); is != c.self {
				t.Errorf("%s [%s] with url %q: %v, want self.protect %v", c.cmd, mode, c.url, got, c.self)
			}
		}
	}
	// A service in the service file is read.
	for _, c := range []struct {
		cmd  string
		want outcome
	}{
		{"PGSERVICE=fleet psql -f q.sql", outcome{"deny", "self.protect"}},
		{"psql service=fleet", outcome{"deny", "self.protect"}},
		{"psql 'service=other'", outcome{"allow", "mode.full"}},
		{"PGSERVICE=missing psql", outcome{"deny", "self.protect"}},
	} {
		p, err := policy.Compile(&policy.Config{Settings: policy.Settings{Mode: policy.ModeFull, State: policy.State{URL: local}}},
			policy.Options{Home: svcHome})
		if err != nil {
			t.Fatal(err)
		}
		if got := decide(t, p, "Bash", bash(c.cmd)); !cmp.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.cmd, got, c.want)
		}
	}
}
