package install

import (
	"encoding/json"
	"fmt"
	"slices"
)

// jsonAgent installs toolguard into a JSON settings file.
type jsonAgent struct {
	// events are the hook events toolguard registers for.
	events []string
	// grouped: events hold matcher groups ({matcher, hooks: [...]}) rather
	// than handlers directly (Cursor).
	grouped bool
	matcher string
	handler func(command string) json.RawMessage
	// version, when non-zero, is set as top-level "version" if absent.
	version int
	// deny are permission rules mirrored into permissions.deny.
	deny []string
}

func (j jsonAgent) install(before []byte, command string) ([]byte, error) {
	doc, hooks, err := j.open(before)
	if err != nil {
		return nil, err
	}
	for _, ev := range j.events {
		if err := j.ensure(hooks, ev, j.handler(command)); err != nil {
			return nil, fmt.Errorf("hooks.%s: %v", ev, err)
		}
	}
	doc.set("hooks", hooks.raw())
	if _, ok := doc.get("version"); j.version != 0 && !ok {
		doc.set("version", jsonValue(j.version))
	}
	if err := addDeny(doc, j.deny); err != nil {
		return nil, err
	}
	return j.output(doc, before), nil
}

func (j jsonAgent) ensure(hooks *object, ev string, want json.RawMessage) error {
	arr, err := hooks.childArray(ev)
	if err != nil {
		return err
	}
	if j.grouped {
		arr = ensureGrouped(arr, j.matcher, want)
	} else {
		arr = ensureFlat(arr, want)
	}
	hooks.setArray(ev, arr)
	return nil
}

// uninstall removes toolguard's handlers and the deny rules it added (those
// not already in backup, the file as it was before install).
func (j jsonAgent) uninstall(current, backup []byte) ([]byte, error) {
	doc, hooks, err := j.open(current)
	if err != nil {
		return nil, err
	}
	for _, ev := range j.events {
		if err := j.remove(hooks, ev); err != nil {
			return nil, fmt.Errorf("hooks.%s: %v", ev, err)
		}
	}
	setOrDrop(doc, "hooks", hooks)
	if err := removeDeny(doc, j.deny, denyRules(backup)); err != nil {
		return nil, err
	}
	if doc.empty() || (j.version != 0 && slices.Equal(doc.keys, []string{"version"})) {
		return nil, nil
	}
	return j.output(doc, current), nil
}

func (j jsonAgent) remove(hooks *object, ev string) error {
	arr, err := hooks.childArray(ev)
	if err != nil || arr == nil {
		return err
	}
	if j.grouped {
		arr = removeGrouped(arr)
	} else {
		arr = removeFlat(arr)
	}
	if len(arr) == 0 {
		hooks.del(ev)
	} else {
		hooks.setArray(ev, arr)
	}
	return nil
}

// status returns the hook command found and the events lacking it.
func (j jsonAgent) status(doc []byte) (command string, missing []string, err error) {
	_, hooks, err := j.open(doc)
	if err != nil {
		return "", nil, err
	}
	for _, ev := range j.events {
		arr, _ := hooks.childArray(ev)
		c, ok := flatHas(arr)
		if j.grouped {
			c, ok = groupedHas(arr)
		}
		if !ok {
			missing = append(missing, ev)
		} else if command == "" {
			command = c
		}
	}
	return command, missing, nil
}

func (j jsonAgent) open(b []byte) (doc, hooks *object, err error) {
	doc, err = parseObject(b)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot parse it as JSON (%v); fix or move the file and try again", err)
	}
	hooks, err = doc.childObject("hooks")
	return doc, hooks, err
}

// output keeps the original bytes when nothing changed but whitespace.
func (j jsonAgent) output(doc *object, original []byte) []byte {
	if original != nil && string(compact(original)) == string(doc.raw()) {
		return original
	}
	return format(doc, original)
}

func setOrDrop(doc *object, key string, child *object) {
	if child.empty() {
		doc.del(key)
		return
	}
	doc.set(key, child.raw())
}

// addDeny appends the rules missing from permissions.deny.
func addDeny(doc *object, rules []string) error {
	if len(rules) == 0 {
		return nil
	}
	perms, err := doc.childObject("permissions")
	if err != nil {
		return err
	}
	deny, err := perms.childArray("deny")
	if err != nil {
		return fmt.Errorf("permissions: %v", err)
	}
	have := stringsOf(deny)
	for _, r := range rules {
		if !slices.Contains(have, r) {
			deny = append(deny, jsonString(r))
		}
	}
	perms.setArray("deny", deny)
	doc.set("permissions", perms.raw())
	return nil
}

// removeDeny drops our rules from permissions.deny, except those the user
// had before install (keep).
func removeDeny(doc *object, rules, keep []string) error {
	if len(rules) == 0 {
		return nil
	}
	if _, ok := doc.get("permissions"); !ok {
		return nil
	}
	perms, err := doc.childObject("permissions")
	if err != nil {
		return err
	}
	deny, err := perms.childArray("deny")
	if err != nil || deny == nil {
		return err
	}
	deny = slices.DeleteFunc(deny, func(r json.RawMessage) bool {
		s := stringOf(r)
		return slices.Contains(rules, s) && !slices.Contains(keep, s)
	})
	if len(deny) == 0 {
		perms.del("deny")
	} else {
		perms.setArray("deny", deny)
	}
	setOrDrop(doc, "permissions", perms)
	return nil
}

// denyRules returns permissions.deny of a settings file; nil when absent.
func denyRules(doc []byte) []string {
	o, err := parseObject(doc)
	if err != nil {
		return nil
	}
	perms, err := o.childObject("permissions")
	if err != nil {
		return nil
	}
	deny, _ := perms.childArray("deny")
	return stringsOf(deny)
}

func stringsOf(arr []json.RawMessage) []string {
	var out []string
	for _, r := range arr {
		out = append(out, stringOf(r))
	}
	return out
}

func stringOf(r json.RawMessage) string {
	var s string
	_ = json.Unmarshal(r, &s) // non-strings read as ""
	return s
}
