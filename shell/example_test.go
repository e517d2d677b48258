package shell_test

import (
	"fmt"

	"github.com/toolguard/toolguard/shell"
)

func ExampleParse() {
	src := `cd /srv; X=rm; sudo bash -c "$X -rf ./data" && echo 'rm -rf /' | tee note.txt`
	script, err := shell.Parse(src, shell.Options{Home: "/home/me"})
	if err != nil {
		fmt.Println("cannot parse:", err)
		return
	}
	for _, c := range script.Commands {
		name := c.Name
		if name == "" {
			name = "-" // only assignments
		}
		fmt.Printf("%-5s %q origin=%q wrappers=%v privileged=%v dir=%q\n",
			name, c.Values(), c.Origin, c.Wrappers, c.Privileged, c.Dir.Value)
	}
	fmt.Println("problems:", len(script.Problems))
	// Output:
	// cd    ["cd" "/srv"] origin="" wrappers=[] privileged=false dir=""
	// -     [] origin="" wrappers=[] privileged=false dir="/srv"
	// bash  ["bash" "-c" "rm -rf ./data"] origin="" wrappers=[sudo] privileged=true dir="/srv"
	// rm    ["rm" "-rf" "./data"] origin="bash -c" wrappers=[sudo bash] privileged=true dir="/srv"
	// echo  ["echo" "rm -rf /"] origin="" wrappers=[] privileged=false dir="/srv"
	// tee   ["tee" "note.txt"] origin="" wrappers=[] privileged=false dir="/srv"
	// problems: 0
}
