package policy

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	toml "github.com/pelletier/go-toml/v2"
)

// TestInlineDeleteMarkersMatchThePack: the markers the policy ties to
// their calls are the ones the rule fires on; a marker the pack gains and
// the list lacks would let a delete through untied.
func TestInlineDeleteMarkersMatchThePack(t *testing.T) {
	data, err := os.ReadFile("../rules/packs/remote-code.toml")
	if err != nil {
		t.Fatal(err)
	}
	var pack struct {
		Rule []struct {
			ID    string `toml:"id"`
			Match struct {
				InlineAny []string `toml:"inline_any"`
			} `toml:"match"`
		} `toml:"rule"`
	}
	if err := toml.Unmarshal(data, &pack); err != nil {
		t.Fatal(err)
	}
	for _, r := range pack.Rule {
		if r.ID == inlineDeleteRule {
			if diff := cmp.Diff(r.Match.InlineAny, inlineDeleteMarkers); diff != "" {
				t.Errorf("markers (-pack +policy):\n%s", diff)
			}
			return
		}
	}
	t.Fatalf("no rule %s in the pack", inlineDeleteRule)
}

// TestLiteralDeletes: the paths of deletes that are calls on plain string
// literals; anything else is not tied (ok false).
func TestLiteralDeletes(t *testing.T) {
	cases := []struct {
		code    string
		targets []string
		ok      bool
	}{
		{"import shutil;shutil.rmtree('.pytest_cache', ignore_errors=True)", []string{".pytest_cache"}, true},
		{"require('fs').rmSync('coverage',{recursive:true,force:true})", []string{"coverage"}, true},
		{`remove_tree("blib")`, []string{"blib"}, true},
		{`require "fileutils"; FileUtils.remove_dir("tmp/cache", true)`, []string{"tmp/cache"}, true},
		{"import shutil;shutil.rmtree('build');shutil.rmtree('dist')", []string{"build", "dist"}, true},
		{"import shutil,sys;shutil.rmtree(sys.argv[1])", nil, false},
		{"import shutil;shutil.rmtree(f'{d}')", nil, false},
		{`FileUtils.rm_rf("#{ENV['HOME']}")`, nil, false},
		{"require('fs').rmSync(`${process.env.HOME}`)", nil, false},
		{`unlink "a.txt"`, nil, false},
		{"import shutil;shutil.rmtree('build');print('rmtree')", nil, false},
		{"print(1)", nil, false},
	}
	for _, c := range cases {
		got, ok := literalDeletes(c.code)
		if diff := cmp.Diff(c.targets, got); diff != "" || ok != c.ok {
			t.Errorf("%s: ok %v, want %v; targets (-want +got):\n%s", c.code, ok, c.ok, diff)
		}
	}
}
