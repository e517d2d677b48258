package rules_test

import (
	"fmt"

	"github.com/toolguard/toolguard/rules"
	"github.com/toolguard/toolguard/shell"
)

func ExampleSet_Classify() {
	set, err := rules.Builtin()
	if err != nil {
		fmt.Println(err)
		return
	}
	script, _ := shell.Parse("git status && git push --force origin main", shell.Options{})
	for _, cmd := range script.Commands {
		r := set.Classify(cmd)
		fmt.Println(cmd.Name, r.Tier, r.Known)
		for _, f := range r.Findings {
			fmt.Println("  ", f.Rule, f.Category, f.Blast)
		}
	}
	// Output:
	// git read true
	// git destructive true
	//    git.push-force vcs-history high
}

func ExampleSet_Classify_paths() {
	set, _ := rules.Builtin()
	script, _ := shell.Parse("mv notes.txt ~/old/notes.txt", shell.Options{Home: "/home/ada"})
	for _, p := range set.Classify(script.Commands[0]).Paths {
		fmt.Println(p.Access, p.Word.Value)
	}
	// Output:
	// delete notes.txt
	// write /home/ada/old/notes.txt
}

func ExampleSet_Knows() {
	set, err := rules.Builtin()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(set.Knows("rm"), set.Knows("RM"), set.Knows("fix"))
	// Output:
	// true true false
}
