package install

import (
	"testing"
	"text/template"
)

// TestTemplatesParse: the file templates are parsed on first use (a hook
// process never installs anything); each must parse.
func TestTemplatesParse(t *testing.T) {
	for name, tmpl := range map[string]func() *template.Template{
		"gemini": geminiPolicyTemplate, "codex": codexRulesTemplate, "plugin": pluginTemplate, "cline": clineTemplate,
	} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: %v", name, r)
				}
			}()
			if tmpl().Name() != name {
				t.Errorf("%s: template named %q", name, tmpl().Name())
			}
		}()
	}
}
