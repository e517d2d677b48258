package rules

import "testing"

// TestAttachedFile: the forms in which a client's argument stands for the
// content of a file it sends.
func TestAttachedFile(t *testing.T) {
	for v, want := range map[string]string{
		"@body.json":                          "body.json",
		"data=@~/.ssh/id_rsa":                 "~/.ssh/id_rsa",
		"f=@report.txt;type=text/plain":       "report.txt",
		"@-":                                  "",
		"file:///tmp/in.json":                 "/tmp/in.json",
		"fileb://~/.aws/credentials":          "~/.aws/credentials",
		"fileb://build/fn.zip":                "build/fn.zip",
		"Name=x,Values=file://vals.json":      "vals.json",
		"--payload=fileb://p.bin":             "p.bin",
		"https://example.com/file://x":        "",
		"user@example.com":                    "",
		"avatar@/home/u/me.png":               "/home/u/me.png",
		"s3://bucket/fileb://not-a-file-here": "",
	} {
		if got := attachedFile(v); got != want {
			t.Errorf("attachedFile(%q) = %q, want %q", v, got, want)
		}
	}
}
