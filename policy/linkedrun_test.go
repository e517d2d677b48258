package policy_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLinkedOrCodeWrittenThenRun: a file the call links to another
// (ln, ln -s) is run with the text it links to, and a file code on the
// command line writes from what it decodes (open('x.sh',
// 'w').write(base64.b64decode(…))) holds what cannot be known before it
// runs: running it is unverifiable, never allowed without a person.
func TestLinkedOrCodeWrittenThenRun(t *testing.T) {
	type want = laidVerdicts
	wipe := map[string]string{"wipe.sh": "#!/bin/sh\nrm -rf ~/\n"}
	tidy := map[string]string{"tidy.sh": "#!/bin/sh\ngo vet ./...\n"}
	unverifiable := [3]string{"ask", "ask", "ask"}
	for _, tc := range []struct {
		name, command string
		files         map[string]string
		want          want
	}{
		{"a symbolic link to a planted script", "ln -s wipe.sh run.sh && sh run.sh", wipe,
			want{[3]string{"deny", "deny", "deny"}, "rm -rf ~/"}},
		{"a hard link to a planted script", "ln wipe.sh run.sh && ./run.sh", wipe,
			want{[3]string{"deny", "deny", "deny"}, "rm -rf ~/"}},
		{"a link into a directory", "mkdir -p bin && ln -sf $PWD/wipe.sh bin/ && sh bin/wipe.sh", wipe,
			want{[3]string{"deny", "deny", "deny"}, "rm -rf ~/"}},
		{"a link to an ordinary script", "ln -s tidy.sh run.sh && sh run.sh", tidy,
			want{[3]string{"ask", "allow", "allow"}, ""}},
		{"python writes a script, then it runs", `python3 -c "import base64; open('x.sh','w').write(base64.b64decode('ZWNobyBoaQo=').decode())" && bash x.sh`, nil,
			want{unverifiable, "which the call writes with content that cannot be known before it runs"}},
		{"node writes a decoded script, then it runs", `node -e "require('fs').writeFileSync('x.sh', Buffer.from('ZWNobyBoaQo=', 'base64'))" && sh x.sh`, nil,
			want{unverifiable, "which the call writes with content that cannot be known before it runs"}},
		{"perl writes a decoded script, then it runs", `perl -e 'open(F, ">x.sh"); print F pack("H*", "6563686f206869")' && sh x.sh`, nil,
			want{unverifiable, "which the call writes with content that cannot be known before it runs"}},
		{"node writes its own literal, judged with the writing code", `node -e "require('fs').writeFileSync('r.js', 'console.log(1)')" && node r.js`, nil,
			want{[3]string{"ask", "allow", "allow"}, ""}},
		{"python writes data that is read", `python3 -c "open('out.json','w').write('{}')" && cat out.json`, nil,
			want{[3]string{"ask", "allow", "allow"}, ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := decideLaid(t, tc.files, 0o755, tc.command, tc.want.Reason)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.command, diff)
			}
		})
	}
}
