package rules

import (
	"bytes"
	"strings"
)

// kindSet is a set of statement kinds: bit i is sqlKindNames[i].
type kindSet uint16

// The statement kinds, in sqlKindNames order.
const (
	kindDropDatabase kindSet = 1 << iota
	kindDropTable
	kindDropOther
	kindTruncate
	kindDeleteAll
	kindUpdateAll
	kindAlterDrop
	kindFlush
	kindShutdown
	kindMongoDrop
	kindMongoDeleteAll
	kindReplicaof
	kindUnknown
)

// kindBit returns the bit of a statement kind name (0 for a name that is
// not one; compileStdin reports those).
func kindBit(name string) kindSet {
	for i, n := range sqlKindNames {
		if n == name {
			return 1 << i
		}
	}
	return 0
}

// kindBits is the set of the named kinds.
func kindBits(names []string) kindSet {
	var k kindSet
	for _, n := range names {
		k |= kindBit(n)
	}
	return k
}

// names lists the kinds of k, in sqlKindNames order.
func (k kindSet) names() []string {
	var out []string
	for i, n := range sqlKindNames {
		if k&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return out
}

// textKinds is the set of statement kinds of one static text: what
// statementKinds finds in it. An ASCII text (nearly every one) is read in
// one pass per dialect without building strings; a text with other bytes
// takes statementKinds' path, whose Unicode lower-casing may change the
// words' lengths.
func textKinds(text string) kindSet {
	if !isASCII(text) {
		return slowTextKinds(text)
	}
	var k kindSet
	var buf [256]byte
	scratch := buf[:0]
	if len(text) > len(buf) {
		scratch = make([]byte, 0, len(text)+16) // one buffer for every statement and the compacted text
	}
	scratch, k = asciiSQLKinds(text, false, false, scratch, k)
	if strings.Contains(text, "/*!") {
		scratch, k = asciiSQLKinds(text, true, false, scratch, k)
	}
	if strings.Contains(text, "#") {
		scratch, k = asciiSQLKinds(text, false, true, scratch, k)
	}
	k |= asciiRedisKinds(text)
	if lk := luaRedisKind(text); lk != "" {
		k |= kindBit(lk)
	}
	_, m := asciiMongoKind(text, scratch)
	return k | m
}

// slowTextKinds is textKinds by statementKinds (the reference).
func slowTextKinds(text string) kindSet {
	var k kindSet
	for name := range statementKinds([]sqlText{{text: text, known: true}}) {
		k |= kindBit(name)
	}
	return k
}

// asciiSQLKinds adds to k the kinds of the statements splitDialect finds in
// the ASCII text s, lower-casing each statement into scratch (returned for
// reuse) instead of building strings.
func asciiSQLKinds(s string, bang, hash bool, scratch []byte, k kindSet) ([]byte, kindSet) {
	for i := 0; i <= len(s); {
		scratch, i = nextStmt(s, bang, hash, i, scratch[:0])
		k |= stmtKind(scratch)
	}
	return scratch, k
}

// nextStmt reads the statement of the ASCII text s that starts at from as
// splitDialect does (bang reads /*! … */ as code, hash reads # as a line
// comment), lower-cased into cur, and returns it with where the next one
// starts: past the end (len(s)+1) after the last. A statement may have no
// words (splitDialect leaves those out).
func nextStmt(s string, bang, hash bool, from int, cur []byte) ([]byte, int) {
	for i := from; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			i = closingQuote(s, i)
			cur = append(cur, " q "...)
		case c == '-' && i+1 < len(s) && s[i+1] == '-' || hash && c == '#':
			i = skipTo(s, i, "\n")
		case bang && c == '/' && strings.HasPrefix(s[i:], "/*!"):
			i += 2
			for i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' {
				i++
			}
			cur = append(cur, ' ')
		case bang && c == '*' && i+1 < len(s) && s[i+1] == '/':
			i++
			cur = append(cur, ' ')
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			i = skipTo(s, i+2, "*/") + 1
		case c == ';':
			return cur, i + 1
		default:
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			cur = append(cur, c)
		}
	}
	return cur, len(s) + 1
}

// isASCII reports whether s has only ASCII bytes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// sqlReadOnly is SQLReadOnly: an ASCII text is read statement by statement
// without building strings; any other text takes the reference path
// (slowSQLReadOnly).
func sqlReadOnly(text string) bool {
	if !isASCII(text) {
		return slowSQLReadOnly(text)
	}
	var buf [256]byte
	scratch := buf[:0]
	if len(text) > len(buf) {
		scratch = make([]byte, 0, len(text)+16)
	}
	stmts := 0
	for _, d := range [...]struct{ bang, hash, on bool }{{false, false, true},
		{true, false, strings.Contains(text, "/*!")}, {false, true, strings.Contains(text, "#")}} {
		if !d.on {
			continue
		}
		for i := 0; i <= len(text); {
			scratch, i = nextStmt(text, d.bang, d.hash, i, scratch[:0])
			switch words, ok := readOnlyStmt(scratch); {
			case !ok:
				return false
			case words:
				stmts++
			}
		}
	}
	return stmts > 0
}

// readOnlyStmt reports whether one lower-cased statement has words, and
// whether it only reads (as SQLReadOnly judges each statement).
func readOnlyStmt(stmt []byte) (words, ok bool) {
	s, e := nextWord(stmt, 0, isSQLSep)
	if s == len(stmt) {
		return false, true
	}
	switch string(stmt[s:e]) {
	case "select", "with", "explain", "show", "describe", "desc", "values", "table":
	default:
		return true, false
	}
	explain := string(stmt[s:e]) == "explain"
	for i := 0; i < len(stmt); {
		s, e := nextWord(stmt, i, isSQLSep)
		if s < e && (isSQLWriteWord(string(stmt[s:e])) || explain && string(stmt[s:e]) == "analyze") {
			return true, false
		}
		i = e
	}
	return true, true
}

// isSQLSep reports whether c separates the words of a statement (sqlWords).
func isSQLSep(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '(' || c == ')' || c == ','
}

// nextWord returns the bounds of the first word of b at or after i that
// sep does not split, or start == len(b) when there is none.
func nextWord[T string | []byte](b T, i int, sep func(byte) bool) (start, end int) {
	for i < len(b) && sep(b[i]) {
		i++
	}
	start = i
	for i < len(b) && !sep(b[i]) {
		i++
	}
	return start, i
}

// stmtKind is sqlKind of the words of one lower-cased statement (0: none,
// as for a statement without words).
func stmtKind(stmt []byte) kindSet {
	s, e := nextWord(stmt, 0, isSQLSep)
	if s == len(stmt) {
		return 0
	}
	has := func(x string) bool {
		for i := 0; i < len(stmt); {
			s, e := nextWord(stmt, i, isSQLSep)
			if s < e && string(stmt[s:e]) == x {
				return true
			}
			i = e
		}
		return false
	}
	switch string(stmt[s:e]) { // compared only: not copied
	case "drop":
		s2, e2 := nextWord(stmt, e, isSQLSep)
		switch string(stmt[s2:e2]) {
		case "database", "schema", "keyspace":
			return kindDropDatabase
		case "table", "columnfamily":
			return kindDropTable
		}
		return kindDropOther
	case "truncate":
		return kindTruncate
	case "delete":
		if !has("where") {
			return kindDeleteAll
		}
	case "update":
		if !has("where") {
			return kindUpdateAll
		}
	case "alter":
		if has("drop") {
			return kindAlterDrop
		}
	}
	return 0
}

// isASCIISpace is the white space strings.Fields splits ASCII text on.
func isASCIISpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// asciiRedisKinds is redisKind of every line of the ASCII text s (lines
// end at a newline or a semicolon), without building strings.
func asciiRedisKinds(s string) kindSet {
	var k kindSet
	for len(s) > 0 {
		end := strings.IndexAny(s, "\n;")
		line := s
		if end >= 0 {
			line, s = s[:end], s[end+1:]
		} else {
			s = ""
		}
		k |= asciiRedisKind(line)
	}
	return k
}

func asciiRedisKind(line string) kindSet {
	s, e := nextWord(line, 0, isASCIISpace)
	if s == len(line) {
		return 0
	}
	first := line[s:e]
	switch {
	case strings.EqualFold(first, "flushall"), strings.EqualFold(first, "flushdb"):
		return kindFlush
	case strings.EqualFold(first, "shutdown"):
		return kindShutdown
	case strings.EqualFold(first, "script"), strings.EqualFold(first, "function"):
		s2, e2 := nextWord(line, e, isASCIISpace)
		if strings.EqualFold(line[s2:e2], "flush") {
			return kindFlush
		}
	case strings.EqualFold(first, "replicaof"), strings.EqualFold(first, "slaveof"):
		s2, e2 := nextWord(line, e, isASCIISpace)
		if s2 < e2 && !strings.EqualFold(line[s2:e2], "no") {
			return kindReplicaof
		}
	}
	return 0
}

// asciiMongoKind is mongoKind of the ASCII text s: its white space removed
// and lower-cased into scratch (returned for reuse).
func asciiMongoKind(s string, scratch []byte) ([]byte, kindSet) {
	compact := scratch[:0]
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isASCIISpace(c):
		case 'A' <= c && c <= 'Z':
			compact = append(compact, c+'a'-'A')
		default:
			compact = append(compact, c)
		}
	}
	has := func(x string) bool { return bytes.Contains(compact, []byte(x)) }
	switch {
	case has("dropdatabase("), has(".drop("), has("dropcollection("):
		return compact, kindMongoDrop
	case has("deletemany({})"), has("deletemany()"), has("remove({})"):
		return compact, kindMongoDeleteAll
	}
	return compact, 0
}

// sqlMemo is the statement kinds of one text a database client runs,
// remembered for the rest of one Classify call: the rules about SQL
// statements of one client read the same texts.
type sqlMemo struct {
	text  string
	kinds kindSet
}

// kindsOf returns the statement kinds of t, working them out once per text
// and command.
func (e *env) kindsOf(t sqlText) kindSet {
	if !t.known {
		return kindUnknown
	}
	for _, m := range e.sqlMemo {
		if m.text == t.text {
			return m.kinds
		}
	}
	k := textKinds(t.text)
	if len(e.sqlMemo) < maxSQLMemo {
		e.sqlMemo = append(e.sqlMemo, sqlMemo{t.text, k})
	}
	return k
}

// maxSQLMemo bounds the texts remembered per command (a command with many
// -c options compares each text with at most this many).
const maxSQLMemo = 8
