package audit

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRedactString(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"aws access key", "aws configure set aws_access_key_id AKIAIOSFODNN7EXAMPLE", "aws configure set aws_access_key_id AKIA***"},
		{"aws session key", "export K=ASIAY34FZKBOKMUTVV7A", "export K=ASIA***"},
		{"github ghp", "git push https://x/ ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789", "git push https://x/ ghp_***"},
		{"token flag value", "app --token-file ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789", "app --token-file ghp_***"},
		{"github gho", "echo gho_16C7e42F292c6912E7710c838347Ae178B4a", "echo gho_***"},
		{"github ghs", "echo ghs_16C7e42F292c6912E7710c838347Ae178B4a", "echo ghs_***"},
		{"github ghu", "echo ghu_16C7e42F292c6912E7710c838347Ae178B4a", "echo ghu_***"},
		{"github fine-grained", "echo github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "echo github_pat_***"},
		{"gitlab", "curl -H 'PRIVATE: glpat-xYz12345678901234567' x", "curl -H 'PRIVATE: glpat-***' x"},
		{"slack bot", "post xoxb-123456789012-1234567890123-AbCdEfGhIjKl", "post xoxb-***"},
		{"slack user", "post xoxp-1234567890-abcdef", "post xoxp-***"},
		{"stripe live", "stripe login sk_live_4eC39HqLyjWDarjtT1zdp7dc", "stripe login sk_live_***"},
		{"openai", "echo sk-proj-Abcdefghijklmnopqrstuvwx12", "echo sk-proj-***"},
		{"anthropic", "echo sk-ant-api03-Abcdefghijklmnopqrstuvwx12", "echo sk-ant-***"},
		{"openai legacy", "echo sk-Abcdefghijklmnopqrstuvwx12", "echo sk-***"},
		{"google", "maps?key AIzaSyA-1234567890abcdefghijklmnopqrstu", "maps?key AIza***"},
		{"jwt", "echo eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.dGVzdHNpZ25hdHVyZQ", "echo eyJ***"},
		{"pem", "printf '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nabc\n-----END RSA PRIVATE KEY-----' > k", "printf '-----BEGIN RSA PRIVATE KEY-----***-----END RSA PRIVATE KEY-----' > k"},
		{"pem unterminated", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk", "-----BEGIN OPENSSH PRIVATE KEY-----***-----END OPENSSH PRIVATE KEY-----"},
		{"bearer header", `curl -H "Authorization: Bearer abcdef123456" https://api`, `curl -H "Authorization: ***" https://api`},
		{"bearer alone", `Bearer abcdef123456`, `Bearer ***`},
		{"basic header", `curl -H "X: Basic dXNlcjpwYXNz" u`, `curl -H "X: Basic ***" u`},
		{"key=value", "PASSWORD=hunter2 ./run", "PASSWORD=*** ./run"},
		{"key: value", "db_password: 's3cr3t value'", "db_password: '***'"},
		{"api_key param", "curl 'https://x/?api_key=abc123&q=1'", "curl 'https://x/?api_key=***&q=1'"},
		{"client secret", "CLIENT_SECRET=\"a b\" x", "CLIENT_SECRET=\"***\" x"},
		{"password flag space", "psql --password hunter2 db", "psql --password *** db"},
		{"password flag equals", "tool --api-key=abc123 run", "tool --api-key=*** run"},
		{"token flag", "gh auth login --with-token tkn123", "gh auth login --with-token ***"},
		{"curl user", "curl -u alice:pw1 https://h", "curl -u alice:*** https://h"},
		{"curl user equals", "curl --user='alice:pw1' https://h", "curl --user='alice:***' https://h"},
		{"git push -u untouched", "git push -u origin main", "git push -u origin main"},
		{"mysql glued", "mysql -u root -phunter2 db", "mysql -u root -p*** db"},
		{"mysql path", "/usr/bin/mysqldump -phunter2 db", "/usr/bin/mysqldump -p*** db"},
		{"url credentials", "git clone https://alice:s3cret@github.com/o/r.git", "git clone https://alice:***@github.com/o/r.git"},
		{"url token only", "pip install -i https://:tok@pypi.example/simple x", "pip install -i https://:***@pypi.example/simple x"},
		{"random token", "curl -d k9Vq3ZtLw8XyR2mNpB7cH4sJf6DgT1aE x", "curl -d *** x"},
		{"hex git sha", "git show 3f786850e387550fdab836ed7e6dc881de23001b", "git show ***"},
		{"mkdir -p untouched", "mkdir -p build/out", "mkdir -p build/out"},
		{"ssh -p untouched", "ssh -p 22 host", "ssh -p 22 host"},
		{"path untouched", "cat /home/user/projects/some-really-long-directory-name/file.go", "cat /home/user/projects/some-really-long-directory-name/file.go"},
		{"identifier with digits untouched", "go test -run TestParse2CommandsWithoutAnyRandomness", "go test -run TestParse2CommandsWithoutAnyRandomness"},
		{"words untouched", "go test ./... -run TestSomethingVeryLongNameWithoutRandomness", "go test ./... -run TestSomethingVeryLongNameWithoutRandomness"},
		{"plain url untouched", "curl https://example.com/a/b?q=1", "curl https://example.com/a/b?q=1"},
		{"token word alone", "echo the token is missing", "echo the token is missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, RedactString(tt.in)); diff != "" {
				t.Errorf("RedactString(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestIsSecretKey(t *testing.T) {
	tests := map[string]bool{
		"password": true, "Passwd": true, "DB_PASSWORD": true, "secret": true, "client-secret": true,
		"token": true, "access_token": true, "api_key": true, "apiKey": true, "API-KEY": true,
		"access_key": true, "AccessKey": true, "private_key": true, "Authorization": true,
		"cookie": true, "Set-Cookie": true, "credentials": true, "pwd": true, "auth": true,
		"command": false, "file_path": false, "author": false, "keyboard": false, "path": false,
	}
	for key, want := range tests {
		if got := IsSecretKey(key); got != want {
			t.Errorf("IsSecretKey(%q) = %v, want %v", key, got, want)
		}
	}
}

func TestRedact(t *testing.T) {
	in := map[string]any{
		"command": "curl -H 'Authorization: Bearer abcdef123456' x",
		"headers": map[string]any{"Cookie": "sid=1", "Accept": "json"},
		"token":   "plain",
		"list":    []any{"AKIAIOSFODNN7EXAMPLE", 3.0, nil},
		"argv":    []string{"--password", "x"},
		"n":       4.0,
	}
	want := map[string]any{
		"command": "curl -H 'Authorization: ***' x",
		"headers": map[string]any{"Cookie": Mask, "Accept": "json"},
		"token":   Mask,
		"list":    []any{"AKIA***", 3.0, nil},
		"argv":    []string{"--password", Mask},
		"n":       4.0,
	}
	got := Redact(in)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Redact (-want +got):\n%s", diff)
	}
	if in["token"] != "plain" {
		t.Error("Redact modified its input")
	}
}

func FuzzRedactString(f *testing.F) {
	f.Add("curl -H 'Authorization: Bearer abcdefgh1234' https://u:p@h/?token=x")
	f.Add("-----BEGIN PRIVATE KEY-----\nabc")
	f.Add("mysql -phunter2 AKIAIOSFODNN7EXAMPLE")
	f.Fuzz(func(t *testing.T, s string) {
		out := redactText(s, true)
		if strings.Contains(s, "AKIAIOSFODNN7EXAMPLE") && strings.Contains(out, "AKIAIOSFODNN7EXAMPLE") {
			t.Errorf("AWS key survived in %q", out)
		}
	})
}

func BenchmarkRedactString(b *testing.B) {
	script := strings.Repeat("cd /work/repo && git status --short && go vet ./... && make -j2 build 2>&1 | tail -20\n", 20)
	file := strings.Repeat("func (s *Server) handle(w http.ResponseWriter, r *http.Request) { key := r.URL.Query().Get(\"key\"); _ = key }\n", 600)
	for _, bc := range []struct{ name, in string }{
		{"plain", "git -C /work/repo log --oneline -n 20 -- src/main.go | head -5 && go test ./... -run TestParse -count=1"},
		{"secret", "curl -sS -H 'Authorization: Bearer abcdef123456' https://api.example.com/v1/items?limit=10 | jq '.items[] | .name' > out.json"},
		{"docker-login", "docker login -u alice -p Dk9xS3cretPw registry.example.com && docker push registry.example.com/app:1.2"},
		{"sudo-pipe", "echo SudoPw-778x | sudo -S apt-get update && sudo -S apt-get install -y jq"},
		{"script-2k", script},
		{"file-64k", file},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.in)))
			for b.Loop() {
				RedactString(bc.in)
			}
		})
	}
}

// TestShapesCompile compiles every lazily compiled shape, so a bad pattern
// fails here rather than panicking in a hook process.
func TestShapesCompile(t *testing.T) {
	prepareShapes()
	if len(shapes) == 0 {
		t.Fatal("no shapes")
	}
	for _, sh := range shapes {
		t.Run(sh.name, func(t *testing.T) {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("shape %q does not compile: %v", sh.name, p)
				}
			}()
			if sh.re() == nil || len(sh.need) == 0 {
				t.Errorf("shape %q: compiled %v, literal filter %q; want a regexp and at least one literal", sh.name, sh.re(), sh.need)
			}
		})
	}
}
