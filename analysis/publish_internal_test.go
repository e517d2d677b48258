package analysis

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/shell"
)

func TestPublishFolder(t *testing.T) {
	for _, tc := range []struct {
		command, want string
		ok            bool
	}{
		{"npm publish", ".", true},
		{"npm publish --access public", ".", true},
		{"npm publish --tag next packages/core", "packages/core", true},
		{"pnpm publish --no-git-checks", ".", true},
		{"yarn publish", ".", true},
		{"npm publish --dry-run", "", false},
		{"npm publish --dry-run false", ".", true},
		{"npm publish --dry-run false packages/core", "packages/core", true},
		{"npm publish --dry-run=false", ".", true},
		{"npm publish --dry-run true", "", false},
		{"npm publish ./app-1.0.0.tgz", "", false},
		{"npm pack", "", false},
		{"npm test", "", false},
		{"cargo publish", "", false},
		{"npm publish \"$DIR\"", "", false},
	} {
		s, err := shell.Parse(tc.command, shell.Options{})
		if err != nil || len(s.Commands) != 1 {
			t.Fatalf("%s: %v", tc.command, err)
		}
		w, ok := publishFolder(s.Commands[0])
		if ok != tc.ok || ok && w.Value != tc.want {
			t.Errorf("publishFolder(%q) = %q, %v; want %q, %v", tc.command, w.Value, ok, tc.want, tc.ok)
		}
	}
}

type mapFiles map[string]string

func (m mapFiles) Read(p string) (string, error) {
	if t, ok := m[p]; ok {
		return t, nil
	}
	return "", ErrNotExist
}

func TestPackageIgnores(t *testing.T) {
	for _, tc := range []struct {
		name      string
		files     mapFiles
		ignored   []string
		listed    []string
		hasListed bool
	}{
		{"gitignore", mapFiles{"/p/package.json": `{"name":"x"}`, "/p/.gitignore": "# secrets\n.env\n/dist/\nconfig/local.json\n*.log\n"},
			[]string{".env", "dist", "*.log"}, nil, false},
		{"npmignore wins", mapFiles{"/p/.npmignore": "test\n", "/p/.gitignore": ".env\n"}, []string{"test"}, nil, false},
		{"a negation leaves nothing out", mapFiles{"/p/.gitignore": ".env*\n!.env.example\n"}, nil, nil, false},
		{"no ignore file", mapFiles{}, nil, nil, false},
		{"files field", mapFiles{"/p/package.json": `{"files": ["dist/", "./lib/**/*.js", "!test"]}`}, nil, []string{"dist", "lib/**/*.js"}, true},
	} {
		a := &Analysis{ctx: Context{Files: tc.files}}
		if diff := cmp.Diff(tc.ignored, a.ignoredNames("/p")); diff != "" {
			t.Errorf("%s: ignoredNames (-want +got):\n%s", tc.name, diff)
		}
		listed, ok := a.packageFiles("/p")
		if ok != tc.hasListed || !cmp.Equal(listed, tc.listed) {
			t.Errorf("%s: packageFiles = %q, %v; want %q, %v", tc.name, listed, ok, tc.listed, tc.hasListed)
		}
	}
}
