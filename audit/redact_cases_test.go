package audit

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/call"
)

// TestRedactCommandForms covers the shell forms around the rules: quoting,
// expansions, nesting, control structures, substitutions and pipes. Both
// the shell parser and the tolerant tokenizer must give the same text.
func TestRedactCommandForms(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"mixed quoting glued", `docker login -u bob -p"ab cd"'ef' r.io`, `docker login -u bob -p*** r.io`},
		{"quoted after =", `docker login --password="a b" r.io`, `docker login --password="***" r.io`},
		{"variable kept", `docker login -p $PW r.io`, `docker login -p $PW r.io`},
		{"substitution kept", `docker login -p "$(cat ~/.pw)" r.io`, `docker login -p "$(cat ~/.pw)" r.io`},
		{"here-string variable kept", `sudo -S apt-get update <<< "$PW"`, `sudo -S apt-get update <<< "$PW"`},
		{"mysql -p alone prompts", `mysql -u root -p`, `mysql -u root -p`},
		{"quoted variable value", `MYSQL_PWD='a b c' mysql`, `MYSQL_PWD='***' mysql`},
		{"export among others", `export A=1 TOKEN=abc123 B=2`, `export A=1 TOKEN=*** B=2`},
		{"from-literal with a space", `kubectl create secret generic x --from-literal password=abc123`, `kubectl create secret generic x --from-literal password=***`},
		{"curl quoted user:password", `curl -u "alice:p@ss w0rd" https://x`, `curl -u "alice:***" https://x`},
		{"curl user only", `curl --user alice https://x`, `curl --user alice https://x`},
		{"interpreter one-liner", `python -c "import os; os.system('sshpass -p Pw123456 ssh h')"`, `python -c "import os; os.system('sshpass -p *** ssh h')"`},
		{"at sign in password", `git clone https://user:p@ss@host.example.com/r.git`, `git clone https://user:***@host.example.com/r.git`},
		{"echo -n into stdin", `echo -n 'hunter22' | docker login --username u --password-stdin`, `echo -n '***' | docker login --username u --password-stdin`},
		{"cat here-document into sudo -S", "cat <<EOF | sudo -S tee /etc/x\nPw-in-heredoc\nEOF", "cat <<EOF | sudo -S tee /etc/x\n***\nEOF"},
		{"env -u then variable", `env -u FOO API_TOKEN=zz9988 cmd`, `env -u FOO API_TOKEN=*** cmd`},
		{"watch quoted command", `watch -n 5 'redis-cli -a RedisWatch-11 info'`, `watch -n 5 'redis-cli -a *** info'`},
		{"time prefix", `time sudo -S ls <<< pw123456`, `time sudo -S ls <<< ***`},
		{"function body", `f() { docker login -p FnPw-5521 r; }; f`, `f() { docker login -p *** r; }; f`},
		{"if body", `if true; then mysql -pIfPw-4471; fi`, `if true; then mysql -p***; fi`},
		{"loop body", `for i in 1 2; do redis-cli -a LoopPw-33 ping; done`, `for i in 1 2; do redis-cli -a *** ping; done`},
		{"command substitution", `echo $(docker login -p SubstPw-99 r 2>&1)`, `echo $(docker login -p *** r 2>&1)`},
		{"process substitution", `diff <(mysql -pProcPw-88 -e 'show tables') b`, `diff <(mysql -p*** -e 'show tables') b`},
		{"JSON holding a command", `{"command":"docker login -p JsonPw123 r.io","max_tokens":100}`, `{"command":"docker login -p *** r.io","max_tokens":100}`},
		{"redis-cli config after --pass", `redis-cli -h h -p 6379 --user u --pass P4ss-word config get maxmemory`, `redis-cli -h h -p 6379 --user u --pass *** config get maxmemory`},
		{"reading a secret key shows no value", `npm config get //registry.npmjs.org/:_authToken && aws configure get aws_secret_access_key`, `npm config get //registry.npmjs.org/:_authToken && aws configure get aws_secret_access_key`},
		{"htpasswd without -b", `htpasswd -c .htpasswd alice`, `htpasswd -c .htpasswd alice`},
		{"vault userpass without password", `vault login -method=userpass username=bob`, `vault login -method=userpass username=bob`},
		{"reason prose", `The arguments of mcp hold a secret (github token); the tool would send it on.`, `The arguments of mcp hold a secret (github token); the tool would send it on.`},
		{"reason listing secrets", `it holds secrets: /home/u/.env`, `it holds secrets: /home/u/.env`},
		{"private key path kept", `tool --private-key ~/.ssh/id_ed25519 --ssh-key-file k`, `tool --private-key ~/.ssh/id_ed25519 --ssh-key-file k`},
		{"password path masked", `tool --password /not/a/path`, `tool --password ***`},
		{"option value starting with a dash is not taken", `tool --token --verbose`, `tool --token --verbose`},
		{"sshpass wraps ssh", `sshpass -p SsW-1234 ssh -p 22 mysql@db`, `sshpass -p *** ssh -p 22 mysql@db`},
		// Found by fuzzing.
		{"redirection without a target", "<\ndocker login -u u -p RedirPw-1 r", "<\ndocker login -u u -p *** r"},
		{"scheme at the end", "Auth:BeArer ", "Auth:BeArer "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, RedactString(tt.in)); diff != "" {
				t.Errorf("RedactString(%q) (-want +got):\n%s", tt.in, diff)
			}
			if diff := cmp.Diff(tt.want, redactWith(tt.in, false)); diff != "" {
				t.Errorf("tolerant tokenizer, %q (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

// TestRedactNestingBounded checks that deeply nested quotes and
// substitutions are read in bounded time (each quoted span once, all of
// them within a budget) and that the shell parser still finds the secret.
func TestRedactNestingBounded(t *testing.T) {
	for _, s := range []string{
		strings.Repeat(`"$(echo `, 60) + "docker login -p DeepPw-1 r" + strings.Repeat(`)"`, 60),
		`bash -c '` + strings.Repeat(`sh -c "x `, 200) + "docker login -p DeepPw-1 r",
		strings.Repeat(`'a b' "c d" `, 2000) + "docker login -p DeepPw-1 r",
	} {
		if out := RedactString(s); strings.Contains(out, "DeepPw-1") {
			t.Errorf("secret survived in %.60q…", s)
		}
		redactWith(s, false)
	}
	a := &analyzer{text: strings.Repeat(`"$(a "$(b 'c d' --token x)" )" `, 300), parse: true}
	a.budget = nestBudget*len(a.text) + 4096
	a.analyze(0, len(a.text), 0)
	if a.budget < 0 {
		t.Errorf("nested reading overspent its budget: %d", a.budget)
	}
}

func TestSecretNames(t *testing.T) {
	tests := map[string]bool{
		// Counts, cursors, switches, prompts and places are not secrets.
		"maxTokens": false, "max_tokens": false, "MAX-TOKENS": false, "max-completion-tokens": false,
		"input_tokens": false, "cache_read_input_tokens": false, "tokens": false, "token_count": false,
		"page_token": false, "pageToken": false, "next_page_token": false, "nextPageToken": false,
		"nextToken": false, "continuation_token": false, "tokenizer": false, "tokenizer_name": false,
		"TOKENIZERS_PARALLELISM": false, "password_file": false, "PASSWORD_FILE": false,
		"password_min_length": false, "secret_name": false, "secret-id": false, "secretArn": false,
		"aws_access_key_id": false, "token_type": false, "token_url": false, "token_expires_at": false,
		"no-password": false, "ask-vault-pass": false, "pass-credentials": false, "show-token": false,
		"auth_method": false, "auth_user": false, "SSH_AUTH_SOCK": false, "GIT_ASKPASS": false,
		"sort_key": false, "public_key": false, "cookie_name": false, "PWD": false, "key": false,
		// Secrets.
		"access_tokens": true, "session_id": true, "sessionId": true, "aws_secret_access_key": true,
		"aws_session_token": true, "AWS_SECRET_ACCESS_KEY": true, "STRIPE_KEY": true, "DB_PASS": true,
		"MYSQL_PWD": true, "REDISCLI_AUTH": true, "SSHPASS": true, "SENTRY_DSN": true, "x-api-key": true,
		"X-Amz-Signature": true, "sig": true, "_authToken": true, "_auth": true, "_password": true,
		"npmAuthToken": true, "Ocp-Apim-Subscription-Key": true, "AccountKey": true, "client_secret": true,
		"clientSecret": true, "refresh_token": true, "id_token": true, "SECRET_KEY_BASE": true,
		"ansible_become_pass": true, "passphrase": true, "PRIVATE-TOKEN": true, "X-Vault-Token": true,
		"basic_auth": true, "spring.datasource.password": true,
	}
	for key, want := range tests {
		if got := IsSecretKey(key); got != want {
			t.Errorf("IsSecretKey(%q) = %v, want %v", key, got, want)
		}
	}
}

// TestRedactInputs checks tool inputs given as JSON: harmless keys keep
// their values, secret keys and argv values are masked, through Redact
// and through the summary of an audit record.
func TestRedactInputs(t *testing.T) {
	in := map[string]any{
		"model": "m", "max_tokens": 1024.0, "maxTokens": 5.0, "page_token": "CkQKAggA",
		"next_page_token": "abc", "tokenizer": "bert", "token_count": 3.0, "stream": true,
		"apiKey": "k-123", "headers": map[string]any{"Authorization": "Bearer abc", "Accept": "json"},
		"env":  map[string]any{"STRIPE_KEY": "x", "PATH": "/bin"},
		"argv": []any{"docker", "login", "-p", "ArgvPw-77", "r.example.com"},
		"args": []string{"--token", "ArgsTok-88", "--max-tokens", "5"},
	}
	want := map[string]any{
		"model": "m", "max_tokens": 1024.0, "maxTokens": 5.0, "page_token": "CkQKAggA",
		"next_page_token": "abc", "tokenizer": "bert", "token_count": 3.0, "stream": true,
		"apiKey": Mask, "headers": map[string]any{"Authorization": Mask, "Accept": "json"},
		"env":  map[string]any{"STRIPE_KEY": Mask, "PATH": "/bin"},
		"argv": []any{"docker", "login", "-p", Mask, "r.example.com"},
		"args": []string{"--token", Mask, "--max-tokens", "5"},
	}
	if diff := cmp.Diff(want, Redact(in)); diff != "" {
		t.Errorf("Redact (-want +got):\n%s", diff)
	}
	sum := Summarize(call.Call{Tool: "mcp__llm__complete", Kind: call.MCP, Input: in})
	for _, keep := range []string{"max_tokens=1024", "maxTokens=5", "page_token=CkQKAggA", "next_page_token=abc", "tokenizer=bert", "token_count=3"} {
		if !strings.Contains(sum, keep) {
			t.Errorf("summary %q lost %q", sum, keep)
		}
	}
	for _, secret := range []string{"k-123", "ArgvPw-77", "ArgsTok-88", "Bearer abc"} {
		if strings.Contains(sum, secret) {
			t.Errorf("summary %q holds %q", sum, secret)
		}
	}
	b, _ := json.Marshal(Redact(map[string]string{"password": "p", "user": "u"}))
	if diff := cmp.Diff(`{"password":"***","user":"u"}`, string(b)); diff != "" {
		t.Errorf("map[string]string (-want +got):\n%s", diff)
	}
}

func TestMapRange(t *testing.T) {
	tests := []struct {
		src, val string
		from, to int
		ps, pe   int
		ok       bool
	}{
		{`abc`, `abc`, 1, 3, 1, 3, true},
		{`'a b'`, `a b`, 0, 3, 1, 4, true},
		{`--p="a b"`, `--p=a b`, 4, 7, 5, 8, true},
		{`a\ b`, `a b`, 0, 3, 0, 0, false}, // crosses an escape
		{`"ab"'cd'`, `abcd`, 0, 4, 0, 0, false},
		{`x`, `xy`, 0, 1, 0, 0, false},
	}
	for _, tt := range tests {
		ps, pe, ok := mapRange(tt.src, tt.val, tt.from, tt.to)
		if ok != tt.ok || ok && (ps != tt.ps || pe != tt.pe) {
			t.Errorf("mapRange(%q, %q, %d, %d) = %d, %d, %v; want %d, %d, %v", tt.src, tt.val, tt.from, tt.to, ps, pe, ok, tt.ps, tt.pe, tt.ok)
		}
	}
}

// FuzzRedactCommand feeds arbitrary text to both tokenizers: neither may
// panic, and a password given to docker login after the text must not
// survive either.
func FuzzRedactCommand(f *testing.F) {
	for _, s := range []string{"", "echo 'a", "a | b <<EOF\nx\n", "$(", "x=$'\\'' y", "sudo -S <<< ", "docker login -p"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsAny(s, "\x00") {
			return
		}
		for _, parse := range []bool{true, false} {
			redactText(s, parse)
			cmd := s + "\ndocker login -u u -p FuzzPw-4242 r"
			if out := redactText(cmd, parse); strings.Contains(out, "FuzzPw-4242") && !strings.Contains(s, "FuzzPw") {
				// Text before it may open a quote or a here-document that
				// swallows the line; the secret must then go with it.
				if strings.Count(s, "'")%2 == 0 && strings.Count(s, "\"")%2 == 0 && !strings.Contains(s, "<<") &&
					!strings.ContainsAny(s, "\\`$#(){}") {
					t.Errorf("parse=%v: secret survived after %q: %q", parse, s, out)
				}
			}
		}
	})
}

func BenchmarkIsSecretKey(b *testing.B) {
	keys := []string{"command", "file_path", "max_tokens", "api_key", "nextPageToken", "AWS_SECRET_ACCESS_KEY"}
	for b.Loop() {
		for _, k := range keys {
			IsSecretKey(k)
		}
	}
}
