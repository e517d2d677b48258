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
	// deny, when set, lists the agent's own deny rules toolguard adds (the
	// hard denies, harddeny.go), into permissions.deny or denyList.
	deny func() []string
	// denyList is the top-level list the deny rules go in; empty means
	// permissions.deny (Claude Code's and Qwen Code's).
	denyList string
}

// denyRules are the deny rules toolguard adds; nil when none.
func (j jsonAgent) denyRules() []string {
	if j.deny == nil {
		return nil
	}
	return j.deny()
}

// denyPath is where the agent keeps its deny rules: a parent object
// ("" for the top level) and the list's key in it.
func (j jsonAgent) denyPath() (parent, key string) {
	if j.denyList != "" {
		return "", j.denyList
	}
	return "permissions", "deny"
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
	parent, key := j.denyPath()
	if err := addDeny(doc, parent, key, j.denyRules()); err != nil {
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
// not already in backup, the file as it was before install). A backup that
// holds toolguard's hook was made after toolguard was in, so the deny
// rules in it are toolguard's too, not the person's.
func (j jsonAgent) uninstall(current, backup []byte) ([]byte, error) {
	if c, _, _ := j.status(backup); c != "" {
		backup = nil
	}
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
	parent, key := j.denyPath()
	if err := removeDeny(doc, parent, key, j.denyRules(), listOf(backup, parent, key)); err != nil {
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

// addDeny appends the rules missing from the list key of object parent
// ("" for the top level).
func addDeny(doc *object, parent, key string, rules []string) error {
	if len(rules) == 0 {
		return nil
	}
	holder := doc
	if parent != "" {
		var err error
		if holder, err = doc.childObject(parent); err != nil {
			return err
		}
	}
	deny, err := holder.childArray(key)
	if err != nil {
		return fmt.Errorf("%s: %v", pathName(parent, ""), err)
	}
	have := stringsOf(deny)
	for _, r := range rules {
		if !slices.Contains(have, r) {
			deny = append(deny, jsonString(r))
		}
	}
	holder.setArray(key, deny)
	if parent != "" {
		doc.set(parent, holder.raw())
	}
	return nil
}

// removeDeny drops our rules from the list, except those the user had
// before install (keep); an emptied list goes, and so does an emptied
// parent.
func removeDeny(doc *object, parent, key string, rules, keep []string) error {
	if len(rules) == 0 {
		return nil
	}
	holder := doc
	if parent != "" {
		if _, ok := doc.get(parent); !ok {
			return nil
		}
		var err error
		if holder, err = doc.childObject(parent); err != nil {
			return err
		}
	}
	deny, err := holder.childArray(key)
	if err != nil || deny == nil {
		return err
	}
	deny = slices.DeleteFunc(deny, func(r json.RawMessage) bool {
		s := stringOf(r)
		return slices.Contains(rules, s) && !slices.Contains(keep, s)
	})
	if len(deny) == 0 {
		holder.del(key)
	} else {
		holder.setArray(key, deny)
	}
	if parent != "" {
		setOrDrop(doc, parent, holder)
	}
	return nil
}

// pathName is "parent.key", or key alone at the top level.
func pathName(parent, key string) string {
	switch {
	case parent == "":
		return key
	case key == "":
		return parent
	}
	return parent + "." + key
}

// listOf returns the string list key of object parent ("" for the top
// level) of a settings file; nil when absent.
func listOf(doc []byte, parent, key string) []string {
	o, err := parseObject(doc)
	if err != nil {
		return nil
	}
	if parent != "" {
		if o, err = o.childObject(parent); err != nil {
			return nil
		}
	}
	list, _ := o.childArray(key)
	return stringsOf(list)
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
