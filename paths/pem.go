package paths

import (
	"bytes"
	"crypto/x509"
	"encoding/pem"
	"io"
	"os"
)

// maxPEMRead bounds what is read of a file to tell whether it holds only
// public PEM blocks: certificate chains and public keys are a few
// kilobytes; a larger file stays judged by its name.
const maxPEMRead = 64 << 10

// PublicPEMFile reports whether the regular file p holds only public PEM
// blocks (certificates, public keys, certificate requests, revocation
// lists), each of which parses as what its header says, with nothing but
// blank lines and openssl's subject=/issuer= and bag attribute lines
// around them. A private key, an encrypted block, any other text, a file
// that cannot be read or one larger than maxPEMRead is not public.
func PublicPEMFile(p string) bool {
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 || fi.Size() > maxPEMRead {
		return false
	}
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxPEMRead+1))
	if err != nil || len(data) > maxPEMRead {
		return false
	}
	return publicPEM(data)
}

// publicPEM reports whether data is one or more public PEM blocks and
// nothing else that could hold a secret (see publicPEMFile): the content
// that makes certs/server.pem a certificate to read rather than a key.
func publicPEM(data []byte) bool {
	blocks := 0
	for {
		rest := data
		block, after := pem.Decode(rest)
		if block == nil {
			return blocks > 0 && onlyAttributes(rest)
		}
		start := bytes.Index(rest, []byte("-----BEGIN "))
		if start < 0 || !onlyAttributes(rest[:start]) || !publicBlock(block) {
			return false
		}
		blocks++
		data = after
	}
}

// publicBlock reports whether a PEM block is a public object that parses
// as its type says, with no headers (encrypted blocks carry them).
func publicBlock(b *pem.Block) bool {
	if len(b.Headers) > 0 {
		return false
	}
	var err error
	switch b.Type {
	case "CERTIFICATE", "TRUSTED CERTIFICATE":
		_, err = x509.ParseCertificate(b.Bytes)
	case "PUBLIC KEY":
		_, err = x509.ParsePKIXPublicKey(b.Bytes)
	case "RSA PUBLIC KEY":
		_, err = x509.ParsePKCS1PublicKey(b.Bytes)
	case "CERTIFICATE REQUEST", "NEW CERTIFICATE REQUEST":
		_, err = x509.ParseCertificateRequest(b.Bytes)
	case "X509 CRL":
		_, err = x509.ParseRevocationList(b.Bytes)
	default:
		return false
	}
	return err == nil
}

// onlyAttributes reports whether text between PEM blocks is only blank
// lines and the lines openssl writes before a certificate: subject=,
// issuer=, "Bag Attributes" and their indented attribute lines.
func onlyAttributes(text []byte) bool {
	for _, line := range bytes.Split(text, []byte("\n")) {
		l := bytes.TrimRight(line, "\r")
		switch {
		case len(bytes.TrimSpace(l)) == 0,
			bytes.HasPrefix(l, []byte("subject=")), bytes.HasPrefix(l, []byte("issuer=")),
			bytes.Equal(l, []byte("Bag Attributes")),
			(l[0] == ' ' || l[0] == '\t') && isAttributeLine(bytes.TrimSpace(l)):
		default:
			return false
		}
	}
	return true
}

// isAttributeLine reports whether an indented line is a PKCS#12 bag
// attribute openssl prints (localKeyID: …, friendlyName: …).
func isAttributeLine(l []byte) bool {
	for _, k := range []string{"localKeyID:", "friendlyName:", "<No Attributes>"} {
		if bytes.HasPrefix(l, []byte(k)) {
			return true
		}
	}
	return false
}
