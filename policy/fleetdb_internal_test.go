package policy

import (
	"bufio"
	"strings"
	"testing"
)

// FuzzPGConnection reads arbitrary connection strings and service files:
// no panic, and a target that reaches the fleet database through a URL
// still reaches it when read as the dbname of a conninfo.
func FuzzPGConnection(f *testing.F) {
	for _, s := range []string{"postgres://u:p@127.0.0.1:5432/db?sslmode=disable", "host=a port=1 dbname=b",
		"postgresql://h1,h2/db", "dbname=postgres://x@y/z", "[svc]\nhost=a\n# c\nport=1\n", "service=x", "postgres://[::1"} {
		f.Add(s)
	}
	db := parseFleetDB("postgres://tg@127.0.0.1:5432/toolguard")
	f.Fuzz(func(t *testing.T, s string) {
		tgt, ok := parsePGString(s)
		if ok && (strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")) && db.reaches(tgt) {
			if inner, ok := parsePGString("dbname=" + s); ok && !strings.ContainsAny(s, " \t\n\r\v\f") && !db.reaches(inner) {
				t.Fatalf("%q reaches the fleet database as a URL but not as a dbname", s)
			}
		}
		readService(bufio.NewScanner(strings.NewReader(s)), "svc")
		db.urlReaches(s)
		db.driverReaches(s)
		parseFleetDB(s)
	})
}
