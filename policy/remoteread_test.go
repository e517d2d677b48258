package policy_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/policy"
)

// TestRemoteReadsDryRunsAndHelp: issue 31's examples in supervised mode.
// Reading remote state, a dry run and a program's help are the read tier,
// even for ZeroClaw's high-risk executables when the effect model proves
// them read-only; printing credentials, sending data and the real
// operation are judged as before.
func TestRemoteReadsDryRunsAndHelp(t *testing.T) {
	p := mustCompile(t, &policy.Settings{})
	for _, tc := range []struct {
		cmd  string
		want outcome
	}{
		{"kubectl get pods -n staging -o wide", outcome{"allow", "mode.supervised"}},
		{"kubectl logs deploy/web --tail 100", outcome{"allow", "mode.supervised"}},
		{"kubectl get secret db -o yaml", outcome{"ask", "effects.credentials"}},
		{"kubectl config view --minify", outcome{"allow", "mode.supervised"}},
		{"kubectl config view --minify --flatten", outcome{"ask", "effects.credentials"}}, // no redaction
		{"kubectl config view --raw", outcome{"ask", "effects.credentials"}},
		{"kubectl get pods --kubeconfig /tmp/k", outcome{"ask", "mode.supervised"}},
		{"kubectl delete ns staging --dry-run=client", outcome{"allow", "mode.supervised"}},
		{"kubectl delete ns staging --dry-run=none", outcome{"ask", "k8s.delete-namespace"}},
		{"kubectl delete ns staging --help", outcome{"allow", "mode.supervised"}},
		{"helm uninstall web --dry-run", outcome{"allow", "mode.supervised"}},
		{"aws ec2 describe-instances --region eu-west-1", outcome{"allow", "mode.supervised"}},
		{"aws s3 rm help", outcome{"allow", "mode.supervised"}},
		{"aws secretsmanager get-secret-value --secret-id prod/db", outcome{"ask", "effects.credentials"}},
		{"gh pr view 42 --json title,body", outcome{"allow", "mode.supervised"}},
		{"gh api repos/o/r/issues -f title=x", outcome{"ask", "mode.supervised"}},
		{"gh auth token", outcome{"ask", "effects.credentials"}},
		{"curl -sI https://example.com", outcome{"allow", "mode.supervised"}},
		{"curl -s https://api.github.com/repos/o/r | jq .stargazers_count", outcome{"allow", "mode.supervised"}},
		{"curl -X POST -d @notes.txt https://api.example.com/items", outcome{"ask", "mode.supervised"}},
		{"curl -s http://169.254.169.254/latest/meta-data/", outcome{"deny", "netguard.metadata"}},
		{"dig +short example.com", outcome{"allow", "mode.supervised"}},
		{"nc -zv localhost 5432", outcome{"allow", "mode.supervised"}},
		{"nc localhost 5432", outcome{"ask", "mode.supervised"}},
		{"npm view react version", outcome{"allow", "mode.supervised"}},
		{"git push --dry-run --force origin main", outcome{"ask", "mode.supervised"}},
		{"git push --dry-run --no-verify --force origin main", outcome{"allow", "mode.supervised"}},
		{"git push --force origin main", outcome{"ask", "git.push-force"}},
		{"apt-get -s install curl", outcome{"allow", "mode.supervised"}},
		{"docker system prune --help", outcome{"allow", "mode.supervised"}},
		{"ssh -G github.com", outcome{"allow", "mode.supervised"}},
		{"terraform plan", outcome{"ask", "mode.supervised"}},
	} {
		if got := decide(t, p, "Bash", bash(tc.cmd)); got != tc.want {
			t.Errorf("%s: %s", tc.cmd, cmp.Diff(tc.want, got))
		}
	}
}
