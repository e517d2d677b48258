package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestExecAsksServe: toolguard exec (its authorize step) with [approval] approver = "server"
// and no terminal puts its ask on a running serve's page; the person's
// answer there decides whether the command runs, and a denial reads as
// one sentence, not the server's reason wrapped in the local one.
func TestExecAsksServe(t *testing.T) {
	addr, _ := startServe(t, "--addr", "127.0.0.1:0")
	base := strings.TrimSuffix(strings.Split(addr, "#")[0], "/")
	dir := t.TempDir()
	cfg := filepath.Join(dir, "policy.toml")
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf("[approval]\napprover = \"server\"\nserver = %q\n", base)), 0o600); err != nil {
		t.Fatal(err)
	}
	pf := &policyFlags{config: cfg, noUser: true, noProject: true, cwd: dir}
	p, err := pf.load(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, approve := range []bool{true, false} {
		t.Run(fmt.Sprint("approve=", approve), func(t *testing.T) {
			c, err := execCall([]string{"touch", "made"}, dir)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			answered := make(chan error, 1)
			go func() { answered <- answerApproval(ctx, addr, "touch ", approve) }()
			var stderr bytes.Buffer
			err = authorize(&app{ctx: context.Background(), io: IO{Stdout: io.Discard, Stderr: &stderr}}, p, c)
			cancel()
			if aerr := <-answered; aerr != nil {
				t.Fatalf("answering on the page: %v (authorize: %v, stderr %q)", aerr, err, stderr.String())
			}
			if approve {
				if err != nil {
					t.Errorf("approved, but authorize = %v, stderr %q", err, stderr.String())
				}
				return
			}
			want := "toolguard: denied (mode.supervised): A person denied the call on the toolguard page. " +
				"The supervised mode asks a person before write-tier calls.\n"
			if exitCode(err, io.Discard) != ExitDeny || stderr.String() != want {
				t.Errorf("denied: %v, stderr\n%q\nwant\n%q", err, stderr.String(), want)
			}
		})
	}
}

// answerApproval waits for a pending approval on the serve at addr and
// answers it once, as a person on the page would; the call waiting must be
// a command starting with prefix.
func answerApproval(ctx context.Context, addr, prefix string, approve bool) error {
	base := strings.TrimSuffix(strings.Split(addr, "#")[0], "/")
	for ctx.Err() == nil {
		req, _ := http.NewRequest(http.MethodGet, base+"/v1/approvals", nil)
		resp, err := http.DefaultClient.Do(withKey(req, addr))
		if err != nil {
			return err
		}
		var list struct {
			Approvals []struct {
				ID   string `json:"id"`
				Call struct {
					Command string `json:"command"`
				} `json:"call"`
			} `json:"approvals"`
		}
		err = json.NewDecoder(resp.Body).Decode(&list)
		resp.Body.Close()
		if err != nil {
			return err
		}
		if len(list.Approvals) == 0 {
			select {
			case <-ctx.Done():
			case <-time.After(20 * time.Millisecond):
			}
			continue
		}
		if !strings.HasPrefix(list.Approvals[0].Call.Command, prefix) {
			return fmt.Errorf("the page shows %q", list.Approvals[0].Call.Command)
		}
		body := fmt.Sprintf(`{"approved":%v,"scope":"once"}`, approve)
		req, _ = http.NewRequest(http.MethodPost, base+"/v1/approvals/"+list.Approvals[0].ID, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err = http.DefaultClient.Do(withKey(req, addr))
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("answer: %s", resp.Status)
		}
		return nil
	}
	return fmt.Errorf("no approval appeared before exec ended")
}
