package policy

import (
	"bufio"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolguard/toolguard/internal/lazyre"
	"github.com/toolguard/toolguard/netguard"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// A fleet keeps its grants, approvals, budgets and audit trail in the
// PostgreSQL database of [state] url. An agent that connects to it can
// write a grant or an answer, so any client connection a call makes to
// that database is self-protection, whatever spells the connection: the
// host, port and database flags of the libpq programs (psql, pg_dump, …),
// a postgres:// URL or a "host=… dbname=…" conninfo string wherever they
// are (an operand, -d, a driver call in interpreter code), the PG*
// variables the command is given, a service in the service file
// (service=NAME, PGSERVICE). A part of the connection that is not known
// (an unset or unknown variable, a service file that cannot be read)
// counts as reaching the database: fail closed. A connection that names
// another host, port or database does not.

// pgTarget is where a PostgreSQL connection goes; an empty field is not
// known (or the default), resolved by resolve.
type pgTarget struct {
	host, port, db, user string
	unknown              bool // a part of it cannot be known before the call runs
	service              string
	serviceFile          string
}

// fleetDB is the configured state database.
type fleetDB struct {
	host  netguard.Endpoint
	local bool // a UNIX socket or this machine
	port  string
	db    string
}

// parseFleetDB reads [state] url; nil when it is empty or unreadable.
func parseFleetDB(raw string) *fleetDB {
	if raw == "" {
		return nil
	}
	t, ok := parsePGString(raw)
	if !ok {
		return nil
	}
	db := &fleetDB{port: cmpOr(t.port, "5432"), db: cmpOr(t.db, t.user)}
	if t.host == "" || strings.HasPrefix(t.host, "/") {
		db.local = true
	} else if ep, ok := netguard.HostPort(t.host, db.port); ok {
		db.host, db.local = ep, ep.IsLocal(machineNames()...)
	}
	return db
}

// parsePGString reads a postgres:// URL or a keyword=value conninfo.
func parsePGString(s string) (pgTarget, bool) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://") {
		u, err := url.Parse(s)
		if err != nil {
			return pgTarget{}, false
		}
		t := pgTarget{host: u.Hostname(), port: u.Port(), db: strings.TrimPrefix(u.Path, "/")}
		if u.User != nil {
			t.user = u.User.Username()
		}
		if h := strings.Split(u.Host, ","); len(h) > 1 { // several hosts: any of them
			t.unknown = true
		}
		q := u.Query()
		for k, v := range map[string]*string{"host": &t.host, "hostaddr": &t.host, "port": &t.port, "dbname": &t.db,
			"user": &t.user, "service": &t.service} {
			if q.Has(k) {
				*v = q.Get(k)
			}
		}
		return t, true
	}
	if !strings.Contains(s, "=") {
		return pgTarget{}, false
	}
	var t pgTarget
	for _, kv := range strings.Fields(s) {
		k, v, _ := strings.Cut(kv, "=")
		v = strings.Trim(v, `'"`)
		switch strings.ToLower(k) {
		case "host", "hostaddr":
			t.host = v
		case "port":
			t.port = v
		case "dbname":
			if inner, ok := parsePGString(v); ok && strings.Contains(v, "://") {
				return inner, true
			}
			t.db = v
		case "user":
			t.user = v
		case "service":
			t.service = v
		}
	}
	return t, true
}

// pgClients are the libpq programs and their options that take a value.
var pgClients = map[string]string{
	"psql": "cdfhLopPTUvFR", "pgcli": "hpUdDR", "pg_dump": "dfhpUFnNtTjZESe", "pg_dumpall": "dfhpUlSE",
	"pg_restore": "dfhpUFnNtTjIPLSEe", "createdb": "hpUDEOlT", "dropdb": "hpU", "vacuumdb": "dhpUtnNjP",
	"reindexdb": "dhpUtiSsj", "clusterdb": "dhpUt", "pgbench": "hpUcjTfDsStM", "usql": "cfoPvJ",
	"pg_basebackup": "DhpUFXrTZzcCdlS", "createuser": "hpUcgr", "dropuser": "hpU",
}

// pgLongValues are the long options of the libpq programs that name the
// connection.
var pgLongValues = map[string]string{"host": "h", "port": "p", "dbname": "d", "username": "U", "user": "U"}

// clientTarget is where a libpq program connects; ok is false for a
// program that is not one.
func clientTarget(cmd *shell.Command, home string) (pgTarget, bool) {
	values, ok := pgClients[cmd.Name]
	if !ok {
		return pgTarget{}, false
	}
	var t pgTarget
	env := map[string]shell.Word{}
	for _, a := range append(append([]shell.Assign{}, cmd.Env...), cmd.Assigns...) {
		if strings.HasPrefix(a.Name, "PG") {
			env[a.Name] = a.Value
		}
	}
	setVar := func(dst *string, name string) {
		if w, ok := env[name]; ok {
			*dst = w.Value
			t.unknown = t.unknown || !w.Known
		}
	}
	setVar(&t.host, "PGHOST")
	setVar(&t.host, "PGHOSTADDR")
	setVar(&t.port, "PGPORT")
	setVar(&t.db, "PGDATABASE")
	setVar(&t.user, "PGUSER")
	setVar(&t.service, "PGSERVICE")
	setVar(&t.serviceFile, "PGSERVICEFILE")
	var positional []shell.Word
	set := func(opt byte, w shell.Word) {
		t.unknown = t.unknown || !w.Known
		switch opt {
		case 'h':
			t.host = w.Value
		case 'p':
			t.port = w.Value
		case 'd':
			positional = append(positional[:0:0], w) // a dbname, URL or conninfo
		case 'U':
			t.user = w.Value
		}
	}
	args := cmd.Args()
	for i := 0; i < len(args); i++ {
		w := args[i]
		v := w.Value
		switch {
		case v == "--":
			positional = append(positional, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(v, "--"):
			name, val, hasVal := strings.Cut(v[2:], "=")
			opt, conn := pgLongValues[name]
			if !hasVal && (conn || strings.Contains("file command set variable output log-file", name)) && i+1 < len(args) {
				i++
				val, w = args[i].Value, args[i]
			}
			if conn {
				set(opt[0], withWordValue(w, val))
			}
		case len(v) > 1 && v[0] == '-':
			c := v[1]
			if strings.IndexByte(values, c) < 0 {
				continue
			}
			val := withWordValue(w, v[2:])
			if len(v) == 2 && i+1 < len(args) {
				i++
				val = args[i]
			}
			set(c, val)
		default:
			positional = append(positional, w)
		}
	}
	if len(positional) > 0 {
		w := positional[0]
		if !w.Known {
			t.unknown = true
		} else if inner, ok := parsePGString(w.Value); ok {
			t = mergePG(t, inner)
		} else {
			t.db = w.Value
		}
		if len(positional) > 1 && t.user == "" {
			t.user = positional[1].Value
		}
	}
	if t.service != "" {
		t = mergePG(t, serviceTarget(t, home))
	}
	return t, true
}

func withWordValue(w shell.Word, v string) shell.Word {
	w.Value = v
	return w
}

// mergePG lays what b says over a.
func mergePG(a, b pgTarget) pgTarget {
	for _, f := range [][2]*string{{&a.host, &b.host}, {&a.port, &b.port}, {&a.db, &b.db}, {&a.user, &b.user},
		{&a.service, &b.service}} {
		if *f[1] != "" {
			*f[0] = *f[1]
		}
	}
	a.unknown = a.unknown || b.unknown
	return a
}

// maxServiceFile bounds the service file read.
const maxServiceFile = 64 << 10

// serviceTarget reads a service's section of the connection service file
// (PGSERVICEFILE, else ~/.pg_service.conf); a file or section that cannot
// be read is unknown.
func serviceTarget(t pgTarget, home string) pgTarget {
	file := t.serviceFile
	if file == "" {
		file = filepath.Join(home, ".pg_service.conf")
	}
	f, err := os.Open(file)
	if err != nil {
		return pgTarget{unknown: true}
	}
	defer f.Close()
	out, found := readService(bufio.NewScanner(io.LimitReader(f, maxServiceFile)), t.service)
	if !found {
		return pgTarget{unknown: true}
	}
	return out
}

// readService finds the section [name] of a service file.
func readService(sc *bufio.Scanner, name string) (pgTarget, bool) {
	var t pgTarget
	in, found := false, false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || line[0] == '#':
		case line[0] == '[':
			in = strings.TrimSuffix(line[1:], "]") == name
			found = found || in
		case in:
			k, v, _ := strings.Cut(line, "=")
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			inner, _ := parsePGString(k + "=" + v)
			t = mergePG(t, inner)
		}
	}
	if sc.Err() != nil {
		return pgTarget{unknown: true}, true
	}
	return t, found
}

// reaches reports whether a connection to t may reach the fleet database.
func (db *fleetDB) reaches(t pgTarget) bool {
	if t.unknown {
		return true
	}
	if port := cmpOr(t.port, "5432"); port != db.port {
		return false
	}
	if d := cmpOr(t.db, t.user); d != "" && db.db != "" && d != db.db {
		return false
	}
	if t.host == "" || strings.HasPrefix(t.host, "/") {
		return db.local
	}
	ep, ok := netguard.HostPort(t.host, db.port)
	if !ok {
		return true
	}
	if ep.IsLocal(machineNames()...) && db.local {
		return true
	}
	return ep.Name == db.host.Name && ep.Addr == db.host.Addr
}

// pgURL finds postgres URLs in text; pgDriver the PostgreSQL drivers of
// the common languages; pgKeyword a host, port or database given to one.
var (
	pgURL     = lazyre.Regexp{Expr: `postgres(?:ql)?://[^\s'"` + "`" + `)]*`}
	pgDriver  = lazyre.Regexp{Expr: `(?i)psycopg|asyncpg|pg8000|\bpgx\b|lib/pq|dbi:pg|\bPG::Connection|pg_connect|npgsql|require\(\s*['"]pg['"]|from\s+['"]pg['"]|postgres`}
	pgConnect = lazyre.Regexp{Expr: `(?i)connect|pool|client|create_engine|sql\.open`}
	pgKeyword = lazyre.Regexp{Expr: `(?i)\b(host|hostaddr|port|dbname|database)\b['"]?\s*[=:]\s*['"]?([^'"\s,;)}]+)`}
)

// urlReaches reports whether text holds a postgres URL to the fleet
// database.
func (db *fleetDB) urlReaches(text string) bool {
	for _, u := range pgURL.Get().FindAllString(text, 16) {
		if t, ok := parsePGString(u); ok && db.reaches(t) {
			return true
		}
	}
	return false
}

// driverReaches reports whether interpreter code connects a PostgreSQL
// driver to the fleet database: the host, port and database it is given
// (keyword arguments, a conninfo string), the defaults for those it is not.
func (db *fleetDB) driverReaches(code string) bool {
	if !pgDriver.Get().MatchString(code) || !pgConnect.Get().MatchString(code) {
		return false
	}
	var t pgTarget
	for _, m := range pgKeyword.Get().FindAllStringSubmatch(code, 32) {
		switch strings.ToLower(m[1]) {
		case "host", "hostaddr":
			t.host = m[2]
		case "port":
			t.port = m[2]
		case "dbname", "database":
			t.db = m[2]
		}
	}
	return db.reaches(t)
}

// fleetDBFinding is the self-protection finding of a command that
// connects to the fleet database.
func (p *Policy) fleetDBFinding(cmd *shell.Command) (risk.Finding, bool) {
	db := p.fleetDB
	if db == nil {
		return risk.Finding{}, false
	}
	reason := "The command connects to toolguard's fleet database ([state] url), where grants, approvals, budgets and the audit trail are kept: whoever writes there can grant or approve anything for every agent of the fleet."
	if t, ok := clientTarget(cmd, p.home); ok && db.reaches(t) {
		return selfFinding(cmd, reason), true
	}
	texts := cmd.Values()
	for _, r := range cmd.Redirects {
		texts = append(texts, r.Body)
	}
	for _, s := range texts {
		if strings.Contains(s, "postgres") && db.urlReaches(s) {
			return selfFinding(cmd, reason), true
		}
	}
	if cmd.Inline != nil && (db.urlReaches(cmd.Inline.Code) || db.driverReaches(cmd.Inline.Code)) {
		return selfFinding(cmd, reason), true
	}
	return risk.Finding{}, false
}
