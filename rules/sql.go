package rules

import (
	"github.com/toolguard/toolguard/script"
	"slices"
	"strings"
)

// statementKinds classifies the statements in texts (SQL, Redis commands,
// MongoDB shell code) into the kinds rules name: drop-database, drop-table,
// drop-other, truncate, delete-all, update-all, alter-drop, flush, shutdown,
// mongo-drop, mongo-delete-all, and unknown for text that is not static.
func statementKinds(texts []sqlText) map[string]bool {
	kinds := map[string]bool{}
	for _, t := range texts {
		if !t.known {
			kinds["unknown"] = true
			continue
		}
		for _, stmt := range splitStatements(t.text) {
			if k := sqlKind(stmt); k != "" {
				kinds[k] = true
			}
		}
		for _, line := range strings.FieldsFunc(t.text, func(r rune) bool { return r == '\n' || r == ';' }) {
			if k := redisKind(line); k != "" {
				kinds[k] = true
			}
		}
		if k := mongoKind(t.text); k != "" {
			kinds[k] = true
		}
		if k := luaRedisKind(t.text); k != "" { // EVAL's script, whole: Lua separates statements with ";" too
			kinds[k] = true
		}
	}
	return kinds
}

// splitStatements splits SQL on semicolons outside quotes and removes
// comments, returning each statement's words in lower case. Dialects read
// comments differently, so the text is split three ways and every
// statement of each is returned: as standard SQL; with MySQL's executable
// comments (/*! … */, /*!50000 … */), whose content MySQL runs, read as
// code; and with MySQL's "#" line comments, which PostgreSQL reads as an
// operator. SQL padded with comments of one dialect cannot hide a
// statement from the others.
func splitStatements(s string) [][]string {
	out := splitDialect(s, false, false)
	if strings.Contains(s, "/*!") {
		out = append(out, splitDialect(s, true, false)...)
	}
	if strings.Contains(s, "#") {
		out = append(out, splitDialect(s, false, true)...)
	}
	return out
}

// splitDialect splits s; bang reads /*! … */ as code, hash reads # as a
// line comment.
func splitDialect(s string, bang, hash bool) [][]string {
	var out [][]string
	var cur strings.Builder
	flush := func() {
		if words := sqlWords(cur.String()); len(words) > 0 {
			out = append(out, words)
		}
		cur.Reset()
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			j := closingQuote(s, i)
			cur.WriteString(" q ")
			i = j
		case c == '-' && i+1 < len(s) && s[i+1] == '-' || hash && c == '#':
			i = skipTo(s, i, "\n")
		case bang && c == '/' && strings.HasPrefix(s[i:], "/*!"):
			i += 2
			for i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' { // the server version it runs from
				i++
			}
			cur.WriteByte(' ')
		case bang && c == '*' && i+1 < len(s) && s[i+1] == '/':
			i++
			cur.WriteByte(' ')
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			i = skipTo(s, i+2, "*/") + 1
		case c == ';':
			flush()
		default:
			cur.WriteByte(c)
		}
	}
	flush()
	return out
}

// closingQuote returns the index of the quote closing the one at i (or the
// end of s); doubled quotes stay inside the string.
func closingQuote(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		if s[j] == q {
			if j+1 < len(s) && s[j+1] == q {
				j++
				continue
			}
			return j
		}
	}
	return len(s) - 1
}

func skipTo(s string, i int, end string) int {
	if k := strings.Index(s[i:], end); k >= 0 {
		return i + k
	}
	return len(s) - 1
}

func sqlWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '(' || r == ')' || r == ','
	})
}

func sqlKind(w []string) string {
	has := func(x string) bool {
		for _, v := range w {
			if v == x {
				return true
			}
		}
		return false
	}
	switch w[0] {
	case "drop":
		return dropKind(w)
	case "truncate":
		return "truncate"
	case "delete":
		if !has("where") {
			return "delete-all"
		}
	case "update":
		if !has("where") {
			return "update-all"
		}
	case "alter":
		if has("drop") {
			return "alter-drop"
		}
	}
	return ""
}

func dropKind(w []string) string {
	if len(w) < 2 {
		return "drop-other"
	}
	switch w[1] {
	case "database", "schema", "keyspace": // CQL's keyspace is a database
		return "drop-database"
	case "table", "columnfamily":
		return "drop-table"
	}
	return "drop-other"
}

func redisKind(line string) string {
	f := strings.Fields(strings.ToLower(line))
	if len(f) == 0 {
		return ""
	}
	switch f[0] {
	case "flushall", "flushdb":
		return "flush"
	case "shutdown":
		return "shutdown"
	case "script", "function":
		if len(f) > 1 && f[1] == "flush" {
			return "flush"
		}
	case "replicaof", "slaveof":
		// REPLICAOF HOST PORT discards the dataset for another server's;
		// REPLICAOF NO ONE only stops replicating
		if len(f) > 1 && f[1] != "no" {
			return "replicaof"
		}
	}
	return ""
}

// luaRedisKind judges the Redis commands a Lua script given to EVAL calls
// (redis.call('FLUSHALL'), redis.pcall("replicaof", …)) as if they were
// given directly: the first kind found, or "unknown" when a call's command
// is not a literal string (built at run time).
func luaRedisKind(script string) string {
	if !containsFoldASCII(script, "redis.") {
		return ""
	}
	low := strings.ToLower(script)
	for i := 0; ; {
		j := strings.Index(low[i:], "redis.")
		if j < 0 {
			return ""
		}
		i += j + len("redis.")
		rest := low[i:]
		switch {
		case strings.HasPrefix(rest, "call"):
			rest = rest[len("call"):]
		case strings.HasPrefix(rest, "pcall"):
			rest = rest[len("pcall"):]
		default:
			continue
		}
		rest = strings.TrimLeft(rest, " \t")
		if !strings.HasPrefix(rest, "(") {
			return "unknown" // redis.call passed around as a value
		}
		rest = strings.TrimLeft(rest[1:], " \t")
		if rest == "" || rest[0] != '\'' && rest[0] != '"' {
			return "unknown"
		}
		end := strings.IndexByte(rest[1:], rest[0])
		if end < 0 {
			return "unknown"
		}
		cmd := rest[1 : 1+end]
		if arg, ok := luaNextString(rest[2+end:]); ok { // REPLICAOF's host (or NO ONE)
			cmd += " " + arg
		}
		if k := redisKind(cmd); k != "" {
			return k
		}
	}
}

// containsFoldASCII reports whether s holds the lower-case ASCII word w
// in any case, without allocating.
func containsFoldASCII(s, w string) bool {
	for i := 0; i+len(w) <= len(s); i++ {
		if hasFoldPrefix(s[i:], w) {
			return true
		}
	}
	return false
}

// hasFoldPrefix reports whether s starts with the lower-case ASCII w in
// any ASCII case.
func hasFoldPrefix(s, w string) bool {
	if len(s) < len(w) {
		return false
	}
	for j := 0; j < len(w); j++ {
		c := s[j]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != w[j] {
			return false
		}
	}
	return true
}

// luaNextString returns the literal string that is the next argument of a
// call whose previous argument ended just before s (", 'x'" gives x).
func luaNextString(s string) (string, bool) {
	s = strings.TrimLeft(s, " \t")
	if !strings.HasPrefix(s, ",") {
		return "", false
	}
	s = strings.TrimLeft(s[1:], " \t")
	if s == "" || s[0] != '\'' && s[0] != '"' {
		return "", false
	}
	end := strings.IndexByte(s[1:], s[0])
	if end < 0 {
		return "", false
	}
	return s[1 : 1+end], true
}

func mongoKind(s string) string {
	compact := strings.ToLower(strings.Join(strings.Fields(s), ""))
	switch {
	case strings.Contains(compact, "dropdatabase("), strings.Contains(compact, ".drop("),
		strings.Contains(compact, "dropcollection("):
		return "mongo-drop"
	case strings.Contains(compact, "deletemany({})"), strings.Contains(compact, "deletemany()"),
		strings.Contains(compact, "remove({})"):
		return "mongo-delete-all"
	}
	return ""
}

// SQLReadOnly reports whether every statement of an SQL text only reads:
// it starts with SELECT, WITH, EXPLAIN (without ANALYZE), SHOW, DESCRIBE,
// VALUES or TABLE, and names no statement or function that writes, runs
// code or reads the server's files (INSERT, UPDATE, DELETE, INTO, COPY,
// pg_read_file, lo_export, load_extension, …). An empty text is not read
// only. The check is lexical: SQL it cannot read is not read only.
func SQLReadOnly(text string) bool { return sqlReadOnly(text) }

// slowSQLReadOnly is SQLReadOnly by splitStatements: the reference for
// sqlReadOnly and its path for text that is not ASCII.
func slowSQLReadOnly(text string) bool {
	stmts := splitStatements(text)
	if len(stmts) == 0 {
		return false
	}
	for _, w := range stmts {
		switch w[0] {
		case "select", "with", "explain", "show", "describe", "desc", "values", "table":
		default:
			return false
		}
		for _, word := range w {
			name, _, _ := strings.Cut(word, "(")
			if isSQLWriteWord(name) || w[0] == "explain" && name == "analyze" {
				return false
			}
		}
	}
	return true
}

// isSQLWriteWord reports whether name is a word that makes a statement more
// than a read.
func isSQLWriteWord(name string) bool {
	switch name {
	case "insert", "update", "delete", "merge", "upsert", "replace", "into", "create", "drop", "alter",
		"truncate", "rename", "grant", "revoke", "copy", "call", "execute", "exec", "do", "lock", "vacuum",
		"reindex", "cluster", "attach", "detach", "set", "reset", "commit", "rollback", "begin",
		"savepoint", "release", "prepare", "deallocate", "listen", "notify", "load", "import",
		"pg_read_file", "pg_read_binary_file", "pg_ls_dir", "pg_stat_file", "lo_import", "lo_export",
		"lo_unlink", "dblink", "dblink_exec", "set_config", "pg_terminate_backend", "pg_cancel_backend",
		"pg_reload_conf", "pg_sleep", "load_extension", "readfile", "writefile", "edit", "sys_exec",
		"xp_cmdshell", "load_file", "outfile", "dumpfile", "nextval", "setval":
		return true
	}
	return false
}

// SQLKinds classifies the statements of an SQL text into the kinds rules
// name (drop-database, drop-table, drop-other, truncate, delete-all,
// update-all, alter-drop, …).
func SQLKinds(text string) []string {
	out := textKinds(text).names()
	slices.Sort(out)
	return out
}

// sqlClientEffects analyses what a SQL client is given to run: the
// statements, judged with [SQLReadOnly], and the client's own commands —
// sqlite3's dot commands, psql's and mysql's backslash commands — which
// can read and write files and run shell commands.
func sqlClientEffects(text string) script.Effects {
	var e script.Effects
	var stmts []string
	for _, line := range strings.Split(text, "\n") {
		l := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(l, "."), strings.HasPrefix(l, `\`):
			clientCommand(l, &e)
		case hasLowerPrefix(l, "system "), hasLowerPrefix(l, "source "), hasLowerPrefix(l, "tee "):
			clientCommand(`\`+l, &e) // mysql's long spellings
		default:
			stmts = append(stmts, line)
		}
	}
	// COPY … TO/FROM PROGRAM: the database server runs the command in a shell
	sql := strings.Join(stmts, "\n")
	if progs := copyPrograms(sql); len(progs) > 0 {
		e.Shell = append(e.Shell, progs...)
		e.Private = e.Private || copiesToProgram(sql)
	}
	if sql := strings.TrimSpace(sql); sql != "" && !SQLReadOnly(sql) {
		e.Exec = true
		if e.Unknown == "" {
			e.Unknown = "the statements change data"
		}
	}
	return e
}

// copiesToProgram reports whether SQL holds COPY … TO PROGRAM: the server
// runs the program with the rows the statement selects on its input.
func copiesToProgram(sql string) bool {
	w := strings.Fields(strings.ToLower(strings.ReplaceAll(sql, ")", ") ")))
	for i := 1; i < len(w); i++ {
		if w[i] == "program" && (w[i-1] == "to" || strings.HasSuffix(w[i-1], ")to")) {
			return true
		}
	}
	return false
}

// hasLowerPrefix is strings.HasPrefix(strings.ToLower(s), p) for a prefix p
// of ASCII letters other than i and k and of blanks, without lower-casing
// s: only the ASCII letters of s can lower-case to those (İ lower-cases
// to i and the Kelvin sign to k), and the bytes before them keep their
// length.
func hasLowerPrefix(s, p string) bool {
	if len(s) < len(p) {
		return false
	}
	for i := 0; i < len(p); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != p[i] {
			return false
		}
	}
	return true
}

// clientCommand judges one dot or backslash command of a SQL client.
func clientCommand(l string, e *script.Effects) {
	f := strings.Fields(l)
	verb := strings.ToLower(strings.TrimLeft(f[0], `.\`))
	arg := strings.TrimSpace(strings.TrimPrefix(l, f[0]))
	file := strings.Trim(firstField(arg), `'"`)
	switch verb {
	case "tables", "schema", "indexes", "indices", "headers", "mode", "databases", "dbinfo", "show", "help", "width",
		"timer", "stats", "eqp", "explain", "nullvalue", "separator", "print", "echo", "quit", "exit", "q", "bail",
		"changes", "dump", "fullschema", "lint", "limits", "expert", "d", "dt", "dt+", "d+", "l", "l+", "dn", "df",
		"dv", "du", "di", "ds", "dp", "dx", "x", "timing", "conninfo", "set", "pset", "a", "t", "encoding", "h",
		"?", "c", "connect", "columns", "status", "s", "dm", "db", "dc", "dd", "de", "dg", "dl", "do", "dT", "sf",
		"sv", "errverbose", "prompt", "parameter", "scanstats", "trace", "vfsinfo", "vfslist", "vfsname", "sha3sum":
		if verb == "dump" { // every table's rows, as SQL
			e.Private = true
		}
	case "output", "once", "o", "out", "save", "backup", "w", "write", "g", "tee":
		if file == "" || file == "stdout" || file == "-" {
			return
		}
		if strings.HasPrefix(file, "|") {
			e.Shell = append(e.Shell, strings.TrimPrefix(file, "|"))
			return
		}
		e.Writes = append(e.Writes, file)
	case "read", "i", "ir", "include", "source", "import":
		if file != "" {
			e.Reads = append(e.Reads, file)
		}
		if verb != "import" {
			e.Exec = true
			if e.Unknown == "" {
				e.Unknown = "the statements in " + file + " are not known"
			}
		}
	case "system", "shell", "!":
		e.Shell = append(e.Shell, arg)
	case "load":
		e.Exec = true
		if e.Unknown == "" {
			e.Unknown = "the client loads the extension " + file
		}
	default:
		if strings.HasPrefix(verb, "!") {
			e.Shell = append(e.Shell, strings.TrimSpace(strings.TrimPrefix(strings.TrimLeft(l, `\.`), "!")))
			return
		}
		e.Exec = true
		if e.Unknown == "" {
			e.Unknown = "the client command " + f[0] + " is not known to be harmless"
		}
	}
}

func firstField(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return ""
}

// copyPrograms returns the shell commands PostgreSQL's COPY … TO PROGRAM
// and COPY … FROM PROGRAM statements of an SQL text run (on the database
// server, which for a developer's local database is their machine).
func copyPrograms(sql string) []string {
	var out []string
	low := []byte(sql) // lower-cased ASCII, byte for byte: its offsets are sql's
	for i, c := range low {
		if c >= 'A' && c <= 'Z' {
			low[i] = c + 'a' - 'A'
		}
	}
	for i := 0; ; {
		j := strings.Index(string(low[i:]), "program")
		if j < 0 {
			return out
		}
		i += j + len("program")
		before := strings.TrimRight(string(low[:i-len("program")]), " \t\n")
		if !strings.HasSuffix(before, " to") && !strings.HasSuffix(before, " from") && !strings.HasSuffix(before, ")to") {
			continue
		}
		rest := strings.TrimLeft(sql[i:], " \t\n")
		if !strings.HasPrefix(rest, "'") {
			continue
		}
		end := strings.Index(rest[1:], "'")
		for end >= 0 && end+2 < len(rest) && rest[end+2] == '\'' { // '' is a quote inside the string
			next := strings.Index(rest[end+3:], "'")
			if next < 0 {
				end = -1
				break
			}
			end += next + 2
		}
		if end < 0 {
			return out
		}
		out = append(out, strings.ReplaceAll(rest[1:1+end], "''", "'"))
	}
}

// duckdbEffects adds to what sqlClientEffects found in SQL given to duckdb
// what duckdb's SQL does beyond a database's: its table functions and
// replacement scans read any file a string or a quoted name gives
// (read_parquet('data/*.parquet'), FROM 'x.csv', FROM "~/.aws/credentials"),
// so every such literal is a file read, judged by the path rules; a
// literal that names a URL or a remote store (https://…, s3://…) reaches
// the network; and functions that print the environment or settings or
// run SQL held in a string (getenv, current_setting, duckdb_secrets,
// query) are not proven to only read.
func duckdbEffects(text string, e *script.Effects) {
	for _, lit := range sqlLiterals(text) {
		low := strings.ToLower(lit)
		switch {
		case lit == "":
		case strings.ContainsAny(lit, "\n\r\x00"):
			if e.Unknown == "" {
				e.Unknown = "a string holds a line break"
			}
		case strings.Contains(low, "://") || hasAnyPrefix(low, "s3:", "gs:", "gcs:", "r2:", "az:", "abfss:", "hf:"):
			e.Network = true
		default:
			e.Reads = append(e.Reads, lit)
		}
	}
	for _, w := range splitStatements(text) {
		for _, word := range w {
			name, _, _ := strings.Cut(word, "(")
			switch name {
			case "getenv", "current_setting", "duckdb_secrets", "which_secret", "query", "query_table", "duckdb_settings":
				if e.Unknown == "" {
					e.Unknown = "it calls " + name
				}
			}
		}
	}
}

func hasAnyPrefix(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// sqlLiterals returns the text of the quoted strings and quoted names of
// SQL ('…' and "…", doubled quotes inside kept single), outside comments.
func sqlLiterals(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'' || c == '"':
			j := closingQuote(s, i)
			body := s[i+1 : max(j, i+1)]
			if j == len(s)-1 && s[j] != c { // unterminated: the rest
				body = s[i+1:]
			}
			out = append(out, strings.ReplaceAll(body, string([]byte{c, c}), string(c)))
			i = j
		case c == '-' && i+1 < len(s) && s[i+1] == '-':
			i = skipTo(s, i, "\n")
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			i = skipTo(s, i+2, "*/") + 1
		}
	}
	return out
}
