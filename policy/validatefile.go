package policy

import (
	"errors"
	"fmt"
	"os"

	"github.com/toolguard/toolguard/internal/tree"
)

// ValidateFile checks one policy file on its own and reports every problem
// of every kind in one error, sorted by line and column: unknown keys and
// bad values, then what only compiling finds (regular expressions, globs,
// conditions, domains, rule packs), which a failed first check used to
// hide. A syntax error is reported alone: nothing after it can be read.
// The error is a tree.Errors when every problem has a position.
func ValidateFile(file string) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return fmt.Errorf("reading policy: %w", err)
	}
	layer := Layer{Name: file, Data: data, User: true}
	n, err := parseLayer(layer)
	if err != nil {
		return err
	}
	var c Config
	meta, decodeErr := tree.DecodeMeta(n, layer.Name, &c) // decodes what it can, listing the rest
	validErr := c.validate(layer.Name, n)
	l := &Loaded{Config: &Config{}}
	merge(l.Config, &c, meta)
	var compileErr, rulesErr error
	if decodeErr == nil && validErr == nil { // validate already checks what Compile would, with positions
		var p *Policy
		if p, compileErr = Compile(l.Config, Options{}); compileErr == nil {
			rulesErr = p.Rules().Check()
		}
	}
	return collectErrors(file, decodeErr, validErr, compileErr, rulesErr)
}

// collectErrors flattens errs into one sorted tree.Errors without
// duplicates; an error without a position is kept with the file's name.
func collectErrors(file string, errs ...error) error {
	var out tree.Errors
	seen := map[string]bool{}
	var add func(error)
	add = func(err error) {
		switch e := err.(type) {
		case nil:
		case tree.Errors:
			for _, x := range e {
				add(x)
			}
		case *tree.Error:
			if !seen[e.Error()] {
				seen[e.Error()] = true
				out = append(out, e)
			}
		case interface{ Unwrap() []error }:
			for _, x := range e.Unwrap() {
				add(x)
			}
		default:
			var te *tree.Error
			var tes tree.Errors
			switch {
			case errors.As(err, &tes):
				add(tes)
			case errors.As(err, &te):
				add(te)
			default:
				add(&tree.Error{File: file, Msg: err.Error()})
			}
		}
	}
	for _, err := range errs {
		add(err)
	}
	if len(out) == 0 {
		return nil
	}
	out.Sort()
	return out
}
