package paths

import (
	"crypto/ed25519"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// pemFixtures returns a self-signed certificate, its public key and its
// private key, PEM-encoded.
func pemFixtures(t testing.TB) (cert, pub, priv string) {
	t.Helper()
	pk, sk, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "server"},
		NotBefore: time.Unix(0, 0), NotAfter: time.Unix(1<<31, 0)}
	der, err := x509.CreateCertificate(nil, tmpl, tmpl, pk, sk)
	if err != nil {
		t.Fatal(err)
	}
	pubDER, err := x509.MarshalPKIXPublicKey(pk)
	if err != nil {
		t.Fatal(err)
	}
	privDER, err := x509.MarshalPKCS8PrivateKey(sk)
	if err != nil {
		t.Fatal(err)
	}
	enc := func(typ string, b []byte) string { return string(pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: b})) }
	return enc("CERTIFICATE", der), enc("PUBLIC KEY", pubDER), enc("PRIVATE KEY", privDER)
}

func TestPublicPEM(t *testing.T) {
	cert, pub, priv := pemFixtures(t)
	for _, tc := range []struct {
		name, data string
		want       bool
	}{
		{"certificate", cert, true},
		{"chain of two", cert + cert, true},
		{"public key", pub, true},
		{"openssl attribute lines", "subject=CN = server\nissuer=CN = server\n\n" + cert, true},
		{"bag attributes", "Bag Attributes\n    localKeyID: 01 02\n    friendlyName: server\n" + cert, true},
		{"private key", priv, false},
		{"certificate and private key", cert + priv, false},
		{"private key first", priv + cert, false},
		{"text after", cert + "API_KEY=abc123\n", false},
		{"text before", "password: hunter2\n" + cert, false},
		{"certificate header over garbage", "-----BEGIN CERTIFICATE-----\nTUlJQg==\n-----END CERTIFICATE-----\n", false},
		{"encrypted headers", strings.Replace(cert, "-----BEGIN CERTIFICATE-----\n", "-----BEGIN CERTIFICATE-----\nProc-Type: 4,ENCRYPTED\n\n", 1), false},
		{"unterminated block", strings.TrimSuffix(cert, "-----END CERTIFICATE-----\n"), false},
		{"empty", "", false},
		{"no block", "just text\n", false},
	} {
		if got := publicPEM([]byte(tc.data)); got != tc.want {
			t.Errorf("%s: publicPEM = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestPublicPEMFile(t *testing.T) {
	cert, _, priv := pemFixtures(t)
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	certFile, keyFile := write("server.pem", cert), write("server.key", priv)
	big := write("big.pem", strings.Repeat(cert, maxPEMRead/len(cert)+1))
	link := filepath.Join(dir, "link.pem")
	if err := os.Symlink(certFile, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		p    string
		want bool
	}{
		{certFile, true}, {keyFile, false}, {big, false}, {link, false}, {dir, false}, {filepath.Join(dir, "missing.pem"), false},
	} {
		if got := PublicPEMFile(tc.p); got != tc.want {
			t.Errorf("PublicPEMFile(%s) = %v, want %v", filepath.Base(tc.p), got, tc.want)
		}
	}

	// The denied list names *.pem; a certificate is read, a key is not,
	// and the user's own denied list is never softened.
	c, err := Compile(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	env := Env{Cwd: dir, Workspace: dir}
	for _, tc := range []struct {
		p      string
		a      Access
		denied bool
	}{
		{certFile, Read, false}, {certFile, Write, true}, {keyFile, Read, true},
	} {
		if got := hasRule(c.Check(tc.p, tc.a, env), RuleDenied); got != tc.denied {
			t.Errorf("Check(%s, %s) denied = %v, want %v", filepath.Base(tc.p), tc.a, got, tc.denied)
		}
	}
	cfg := DefaultConfig()
	cfg.UserDenied = []string{"**/server.pem"}
	uc, err := Compile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !hasRule(uc.Check(certFile, Read, env), RuleDenied) {
		t.Errorf("a certificate the user's denied list names is read")
	}
}

func FuzzPublicPEM(f *testing.F) {
	cert, pub, priv := pemFixtures(f)
	for _, s := range []string{cert, pub, priv, cert + priv, "subject=x\n" + cert, "-----BEGIN CERTIFICATE-----\n", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if publicPEM(data) && strings.Contains(string(data), "PRIVATE KEY-----") {
			t.Fatalf("publicPEM accepted a private key: %q", data)
		}
	})
}
