package rules

import (
	"strings"
	"testing"
)

// TestKindConstants checks the kind bits against sqlKindNames.
func TestKindConstants(t *testing.T) {
	for i, k := range []kindSet{kindDropDatabase, kindDropTable, kindDropOther, kindTruncate, kindDeleteAll,
		kindUpdateAll, kindAlterDrop, kindFlush, kindShutdown, kindMongoDrop, kindMongoDeleteAll, kindReplicaof, kindUnknown} {
		if got := kindBit(sqlKindNames[i]); got != k {
			t.Errorf("kind %s: bit %#x, constant %#x", sqlKindNames[i], got, k)
		}
	}
	if len(sqlKindNames) != 13 {
		t.Errorf("%d kinds, 13 constants", len(sqlKindNames))
	}
}

// TestTextKindsExact pins textKinds on hand-picked texts.
func TestTextKindsExact(t *testing.T) {
	for _, tc := range []struct {
		text string
		want string
	}{
		{"SELECT 1", ""},
		{"DROP TABLE t", "drop-table"},
		{"drop schema s; TRUNCATE x", "drop-database truncate"},
		{"DELETE FROM t", "delete-all"},
		{"DELETE FROM t WHERE id=1", ""},
		{"UPDATE t SET a=1", "update-all"},
		{"ALTER TABLE t DROP COLUMN c", "alter-drop"},
		{"DROP INDEX i", "drop-other"},
		{"drop", "drop-other"},
		{"SELECT 'x; DROP TABLE t'", ""},
		{"SELECT 1 /*!50000 ; DROP TABLE t */", "drop-table"},
		{"SELECT 1 # ; DROP TABLE t\n", "drop-table"},
		{"DR/**/OP TABLE t", "drop-table"},
		{"SELECT 1 -- ; DROP TABLE t\n", ""},
		{"FLUSHALL", "flush"},
		{"set a 1\nSCRIPT flush", "flush"},
		{"shutdown nosave", "shutdown"},
		{"db.users.drop()", "mongo-drop"},
		{"db.users.deleteMany( { } )", "mongo-delete-all"},
		{"db.dropDatabase(); db.x.remove({})", "mongo-drop"},
		{"DROP TABLE \u212Aelvin", "drop-table"},
		{"DELETE FROM t WHERE\u00a0x", "delete-all"},
		{"İNSERT INTO t VALUES (1)", ""},
	} {
		got := strings.Join(textKinds(tc.text).names(), " ")
		if got != tc.want {
			t.Errorf("textKinds(%q) = %q, want %q", tc.text, got, tc.want)
		}
		if slow := strings.Join(slowTextKinds(tc.text).names(), " "); slow != got {
			t.Errorf("textKinds(%q) = %q, statementKinds %q", tc.text, got, slow)
		}
	}
}

// sqlFragments are the pieces the generated texts are made of: keywords
// of every kind, quotes, comments of each dialect, separators and case.
var sqlFragments = []string{
	"DROP", "drop", "TABLE", "Table", "DATABASE", "schema", "INDEX", "TRUNCATE", "DELETE", "delete", "UPDATE",
	"ALTER", "WHERE", "where", "FROM", "t", "SET", "x=1", " ", "  ", "\t", "\n", "\r", "\v", ";", ",", "(", ")",
	"'", "''", "\"", "`", "'a;b'", "--", "#", "/*", "*/", "/*!", "/*!50000", "!", "0", "FLUSHALL", "flushdb",
	"SHUTDOWN", "script", "FUNCTION", "flush", "db.x.drop(", ".drop(", "dropDatabase(", "deleteMany({})",
	"deleteMany(", "{}", "remove({})", "REMOVE", "()", "\u212A", "é", "\xff",
	"SELECT", "select", "WITH", "EXPLAIN", "ANALYZE", "show", "VALUES", "INTO", "pg_read_file", "insert", "1",
}

// TestTextKindsGenerated compares textKinds with statementKinds (the slow
// path) on every text of up to three fragments, and on longer texts built
// from a fixed sequence.
func TestTextKindsGenerated(t *testing.T) {
	n := 0
	check := func(text string) {
		n++
		if got, want := textKinds(text), slowTextKinds(text); got != want {
			t.Fatalf("textKinds(%q) = %v, statementKinds %v", text, got.names(), want.names())
		}
		if got, want := sqlReadOnly(text), slowSQLReadOnly(text); got != want {
			t.Fatalf("sqlReadOnly(%q) = %v, splitStatements says %v", text, got, want)
		}
	}
	for _, a := range sqlFragments {
		for _, b := range sqlFragments {
			check(a + b)
			for _, c := range sqlFragments {
				check(a + " " + b + c)
			}
		}
	}
	// Longer texts: a deterministic walk over the fragments.
	x := uint32(1)
	for i := 0; i < 20000; i++ {
		var sb strings.Builder
		for j := 0; j < 3+i%12; j++ {
			x = x*1664525 + 1013904223
			sb.WriteString(sqlFragments[int(x>>8)%len(sqlFragments)])
			if x&0x10000 != 0 {
				sb.WriteByte(' ')
			}
		}
		check(sb.String())
	}
	if n < 100000 {
		t.Fatalf("only %d texts compared", n)
	}
}

// TestSQLReadOnlyExact pins SQLReadOnly on hand-picked texts.
func TestSQLReadOnlyExact(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"", false},
		{";;", false},
		{"SELECT 1", true},
		{"select * from t; SHOW tables", true},
		{"SELECT 1; DELETE FROM t", false},
		{"SELECT pg_read_file('/etc/passwd')", false},
		{"EXPLAIN ANALYZE SELECT 1", false},
		{"EXPLAIN SELECT 1", true},
		{"SELECT 1 INTO t", false},
		{"SELECT 1 /*! ; DROP TABLE t */", false},
		{"SELECT 1 # ; DROP TABLE t\n", false},
		{"SELECT 'DROP TABLE t'", true},
		{"SELECT 1 -- DROP\n", true},
		{"WITH x AS (SELECT 1) SELECT * FROM x", true},
		{"İNSERT INTO t VALUES (1)", false},
	} {
		if got := SQLReadOnly(tc.text); got != tc.want {
			t.Errorf("SQLReadOnly(%q) = %v, want %v", tc.text, got, tc.want)
		}
		if slow := slowSQLReadOnly(tc.text); slow != tc.want {
			t.Errorf("slowSQLReadOnly(%q) = %v, want %v", tc.text, slow, tc.want)
		}
	}
}

// TestTextKindsLong compares the two paths on a long text (longer than
// the stack buffer) and checks the fast path does not allocate on a short
// one.
func TestTextKindsLong(t *testing.T) {
	long := strings.Repeat("INSERT INTO accounts (email) VALUES ('ada@example.com');\n", 200) + "DELETE FROM t"
	if got, want := textKinds(long), slowTextKinds(long); got != want || got != kindDeleteAll {
		t.Fatalf("long text: %v, statementKinds %v", got.names(), want.names())
	}
	short := "INSERT INTO accounts (email) VALUES ('ada@example.com'); UPDATE t SET a = 1"
	if allocs := testing.AllocsPerRun(100, func() { textKinds(short) }); allocs != 0 {
		t.Fatalf("textKinds allocates %v times on a short text", allocs)
	}
	if allocs := testing.AllocsPerRun(100, func() { sqlReadOnly(short) }); allocs != 0 {
		t.Fatalf("sqlReadOnly allocates %v times on a short text", allocs)
	}
	if got, want := sqlReadOnly(long), slowSQLReadOnly(long); got != want || got {
		t.Fatalf("long text: sqlReadOnly %v, splitStatements says %v", got, want)
	}
	reads := strings.Repeat("SELECT email FROM accounts WHERE id = 1;\n", 300)
	if got, want := sqlReadOnly(reads), slowSQLReadOnly(reads); got != want || !got {
		t.Fatalf("long reads: sqlReadOnly %v, splitStatements says %v", got, want)
	}
}

// FuzzTextKinds checks textKinds against statementKinds, and sqlReadOnly
// against splitStatements, on any text.
func FuzzTextKinds(f *testing.F) {
	for _, s := range []string{"DROP TABLE t", "SELECT 1 /*!50000 ; DROP TABLE t */", "a # ; delete from x\n",
		"db.x.deleteMany({})", "FLUSHALL; script flush", "İNSERT", "DELETE FROM t WHERE\u00a0x", "'unclosed; drop table",
		"SELECT 1; SHOW x", "EXPLAIN ANALYZE SELECT 1", "select 1 /*!; insert into t */"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if got, want := textKinds(text), slowTextKinds(text); got != want {
			t.Fatalf("textKinds(%q) = %v, statementKinds %v", text, got.names(), want.names())
		}
		if got, want := sqlReadOnly(text), slowSQLReadOnly(text); got != want {
			t.Fatalf("sqlReadOnly(%q) = %v, splitStatements says %v", text, got, want)
		}
	})
}

// TestHasLowerPrefix compares hasLowerPrefix with lower-casing the text, on
// texts made of the prefixes' letters in both cases and of the runes that
// lower-case to ASCII letters.
func TestHasLowerPrefix(t *testing.T) {
	parts := []string{"s", "S", "y", "Y", "t", "T", "e", "E", "m", "M", "o", "O", "u", "U", "r", "R", "c", "C",
		" ", "\u212A", "\u0130", "k", "i", "\xff", "é"}
	for _, p := range []string{"system ", "source ", "tee "} {
		texts := []string{p, strings.ToUpper(p), "System x", "SOURCE f.sql", "Tee out", "tee", "systemd"}
		for _, a := range parts {
			for _, b := range parts {
				for _, c := range parts {
					texts = append(texts, a+b+c, p[:len(p)-2]+a+b, a+p[1:]+c)
				}
			}
		}
		for _, s := range texts {
			if got, want := hasLowerPrefix(s, p), strings.HasPrefix(strings.ToLower(s), p); got != want {
				t.Fatalf("hasLowerPrefix(%q, %q) = %v, lower-casing says %v", s, p, got, want)
			}
		}
	}
}
