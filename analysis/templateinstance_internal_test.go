package analysis

import (
	"testing"

	"github.com/toolguard/toolguard/shell"
)

// TestTemplateInstance: cp -n of a project's template to the file's own
// name beside it is a file made from the template; any other copy is not.
func TestTemplateInstance(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // the destination; "" for none
	}{
		{[]string{"-n", ".env.example", ".env"}, ".env"},
		{[]string{"--no-clobber", "web/.env.sample", "web/.env"}, "web/.env"},
		{[]string{"--update=none", "config/secrets.template.yml", "config/secrets.yml"}, "config/secrets.yml"},
		{[]string{"-nv", "settings_example.json", "settings.json"}, "settings.json"},
		{[]string{"-n", "app.conf.dist", "app.conf"}, "app.conf"},
		{[]string{".env.example", ".env"}, ""},                 // replaces a .env already there
		{[]string{"-f", "-n", ".env.example", ".env"}, ""},     // another option: another shape
		{[]string{"-n", "notes.txt", ".env"}, ""},              // not a template of it
		{[]string{"-n", ".env.example", "../other/.env"}, ""},  // elsewhere
		{[]string{"-n", ".env.example", ".env.local"}, ""},     // another name
		{[]string{"-n", ".env", ".env.example"}, ""},           // the secret copied out
		{[]string{"-n", "a/.env.example", "b/.env"}, ""},       // another directory
		{[]string{"-n", ".env.example", ".env", "extra/"}, ""}, // several sources
		{[]string{"-rn", "tpl.example", "tpl"}, ""},            // a tree
		{[]string{"-n", "/etc/app.example", "/etc/app"}, ""},   // an absolute path
	} {
		cmd := &shell.Command{Name: "cp", Argv: []shell.Word{{Value: "cp", Known: true}}}
		for _, a := range tc.args {
			cmd.Argv = append(cmd.Argv, shell.Word{Value: a, Known: true})
		}
		got, noClobber, ok := templateCopy(cmd)
		if !ok || !noClobber {
			got.Value = ""
		}
		if got.Value != tc.want {
			t.Errorf("cp %v: templateCopy (with -n) = %q, want %q", tc.args, got.Value, tc.want)
		}
	}
}

// TestTemplateCopy: the same shape without -n is a template copy that
// replaces a file already at the name.
func TestTemplateCopy(t *testing.T) {
	for _, tc := range []struct {
		args      []string
		want      string // the destination; "" for none
		noClobber bool
	}{
		{[]string{".env.example", ".env"}, ".env", false},
		{[]string{"-v", "web/.env.sample", "web/.env"}, "web/.env", false},
		{[]string{"-n", ".env.example", ".env"}, ".env", true},
		{[]string{"-f", ".env.example", ".env"}, "", false},
		{[]string{"notes.txt", ".env"}, "", false},
		{[]string{".env", ".env.example"}, "", false},
		{[]string{".env.example", "../.env"}, "", false},
	} {
		cmd := &shell.Command{Name: "cp", Argv: []shell.Word{{Value: "cp", Known: true}}}
		for _, a := range tc.args {
			cmd.Argv = append(cmd.Argv, shell.Word{Value: a, Known: true})
		}
		got, noClobber, ok := templateCopy(cmd)
		if !ok {
			got.Value, noClobber = "", false
		}
		if got.Value != tc.want || noClobber != tc.noClobber {
			t.Errorf("cp %v: templateCopy = %q, %v; want %q, %v", tc.args, got.Value, noClobber, tc.want, tc.noClobber)
		}
	}
}
