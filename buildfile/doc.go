// Package buildfile says what code a build or task runner will run: given
// a command (its program and arguments), the directory it runs in and a
// reader of files, [Resolve] reads the runner's file — a Makefile, a
// package.json, a justfile, a Taskfile, tox.ini, noxfile.py, composer.json,
// setup.py, conftest.py and the pytest configuration, the //go:generate
// lines of Go packages, Cargo.toml and build.rs, a Rakefile or Gemfile,
// mix.exs, Package.swift, a Jupyter notebook, dvc.yaml, CMakeLists.txt,
// deno.json — and returns the steps the command runs, in order:
// each step's file, line, text and language. It runs nothing and writes
// nothing.
//
// What each runner is taken to run:
//
//   - make: the recipes of the named targets (or the default goal) and of
//     their prerequisites, with the Makefile's static variables and the
//     command line's assignments expanded; every $(shell …) the Makefile
//     expands as it is read (immediate assignments, += to a simple
//     variable, define NAME :=, conditionals, rule lines) and the exported
//     variables' (expanded for every recipe); $(wildcard …) as the files
//     it matches when the reader can list their directory and they are few
//     (else not known), so that include $(wildcard mk/*.mk) reads them, and
//     an include's own wildcards (include mk/*.mk) the same way, a
//     directory that cannot be listed a [Problem]. make -n (--dry-run, --just-print, --recon), -q and -t run
//     only the recipe lines prefixed with + or naming $(MAKE), and the
//     $(shell …) calls.
//   - npm, yarn, pnpm and bun: run, test, start, stop and restart run the
//     script with its pre and post scripts, following npm run, yarn,
//     pnpm run, bun run, run-s and run-p inside scripts; install, ci and
//     the others' installs run the project's own preinstall, install,
//     postinstall and prepare scripts (none with --ignore-scripts); pack,
//     publish and version their lifecycle scripts.
//   - deno task NAME: tasks.NAME of deno.json or deno.jsonc (found
//     upwards, or -c), after the tasks it depends on, with the extra
//     arguments, in the configuration's directory; package.json's script
//     when the configuration has no such task; --eval's command; deno task
//     alone lists; --recursive and --filter are a problem.
//   - pytest (and python -m pytest): conftest.py in the root and in the
//     collected directories (and below them when the reader can list
//     directories), addopts from pytest.ini, pyproject.toml, tox.ini and
//     setup.cfg, and --basetemp, whose directory pytest empties.
//   - pip install -e . and pip install DIR: DIR/setup.py, and the build
//     backend DIR/pyproject.toml keeps in the project's tree (backend-path).
//   - go generate: the //go:generate lines of the named packages; -n runs
//     nothing.
//   - just: the recipes named (or the first) and their dependencies,
//     shebang recipes as one program in their language, backticks in
//     assignments; --list and the other listings run nothing.
//   - task: the cmds of the named tasks (or default) and their deps, the
//     sh of dynamic variables; --list and --dry run nothing.
//   - tox: the commands_pre, commands and commands_post of the chosen
//     environments ({toxinidir}, {envdir}, {homedir} and the other
//     directories substituted, an unknown substitution not known); nox: noxfile.py, which nox imports.
//   - hatch run [ENV:]SCRIPT: the script of the environment (hatch.toml's
//     [envs.ENV.scripts], else pyproject.toml's [tool.hatch.envs.ENV.scripts],
//     inherited from its template), scripts it names expanded, after the
//     environment's pre- and post-install commands; pdm run and rye run:
//     the [tool.pdm.scripts] or [tool.rye.scripts] entry (cmd, shell,
//     composite, chain, call), with pdm's pre_ and post_ scripts. A name
//     that is no script is a program, left to the caller.
//   - pre-commit run [HOOK]: the entries (with args) of the local hooks of
//     .pre-commit-config.yaml (-c FILE) in a language that runs them as
//     commands; remote repositories' hooks are not read.
//   - composer: the install, update and autoload event scripts, and run,
//     run-script or a script's own name, following @script references.
//   - systemctl start, restart, reload and enable (now or at every boot
//     or login): the Exec lines (ExecStart, ExecStartPre, …) of the units
//     named, found where a user or an agent puts them
//     (~/.config/systemd/user, ~/.local/share/systemd/user and
//     /etc/systemd/user with --user, /etc/systemd/system without) or at
//     the path given; a timer, socket or path unit runs its service.
//   - direnv allow (and exec): the .envrc it approves, which direnv runs on
//     every later cd into the directory.
//   - cargo build, check, test, bench, run, clippy, doc, rustc, fix,
//     package, publish and install --path: the build.rs (or [package]
//     build) of the package, of its workspace members and of its path
//     dependencies, as Rust; from .cargo/config.toml in the directory, its
//     parents and ~/.cargo, the rustc wrappers and linkers, and the target
//     runner for run, test and bench, as shell; aliases are expanded.
//   - rake (rake -T too) and rails TASK: the Rakefile, found upwards, and
//     rakelib/*.rake (lib/tasks/*.rake and db/seeds.rb for rails), as Ruby,
//     and the commands of their sh and ruby calls as shell, each on its
//     line (a command made at run time is a problem);
//     bundle install, exec and the others: the Gemfile, then for bundle
//     exec what its command runs; gem build: the gemspec.
//   - vitest, vite, jest, webpack, rollup -c, eslint, playwright test,
//     next, cypress, nuxt, astro, mocha, prettier, tsup and stylelint: the
//     configuration file they load as a module (the one --config names
//     when it is JavaScript or TypeScript, else the first default name in
//     the directory, or above it for eslint, prettier and stylelint), as
//     one step in Node's language (jsconfig.go); then the files it names
//     to run before the tests (vitest's globalSetup and setupFiles, jest's
//     setup and teardown files, Playwright's globalSetup and
//     globalTeardown, mocha's require), each a whole step in Node's
//     language (jssetup.go). pnpm, yarn and bun given such a tool's name
//     that is no script run the project's tool.
//   - cmake's configure step (cmake -S SRC -B BUILD, cmake SRC, cmake
//     BUILD through its cache; first the -C initial cache script) and
//     cmake -P FILE: every
//     execute_process(COMMAND …) of CMakeLists.txt (with the
//     subdirectories and files it names by literal path) or the script,
//     each COMMAND an argv, several a pipeline, run in the build directory
//     or WORKING_DIRECTORY; ${VAR} from literal set()s and CMake's
//     directories, $ENV{NAME} as ${NAME}, another variable not known.
//     cmake --build, --install and -E read nothing.
//   - mix: mix.exs, as Elixir (and mix run's file or -e code); swift build,
//     test, run and package: Package.swift, as Swift.
//   - jupyter nbconvert --execute, jupyter execute, papermill and ipython
//     FILE: the notebook's code cells, its ! lines, %%bash cells and %pip
//     lines as shell, %run following the file; each cell's number is its
//     Line.
//   - dvc repro and dvc exp run: the cmd of every stage of dvc.yaml, as
//     shell in the stage's wdir; --dry only prints.
//   - gradle, gradlew (any task; --help, --version, --stop and --status run
//     nothing): every script Gradle evaluates first, whole, in Groovy or
//     Kotlin — the init scripts (-I, ~/.gradle/init.gradle(.kts),
//     ~/.gradle/init.d when the reader can list it), the settings script
//     (-c), buildSrc's scripts, the build script (-b) and those of the
//     projects the settings include by literal path.
//   - mvn, mvnw (any goal; -v and --help run nothing): pom.xml (-f) and its
//     modules: exec-maven-plugin's executable and arguments,
//     maven-antrun-plugin's exec, apply, java, script, delete and get tasks,
//     the Groovy plugins' scripts, with ${…} expanded; every execution runs
//     (the lifecycle is not modelled), the plugin's configuration when its
//     goal is named, pluginManagement merged, profiles that activate
//     themselves or that -P names.
//   - dotnet build, test, pack, publish, run, watch, msbuild, restore and
//     clean, and msbuild: the projects named or in the directory (a .sln's
//     and .slnx's), the nearest Directory.Build.props and .targets above each
//     and the files they import: Exec commands, RemoveDir, Delete,
//     WriteLinesToFile and DownloadFile as shell, inline tasks' code as C#,
//     in every target, $(Prop) expanded from static properties.
//   - kotlinc -script FILE and kotlin FILE.kts: the script, as Kotlin.
//
// Reading is bounded: each file by [MaxFileSize], all files by
// [MaxTotalSize] and [MaxFiles], scripts that run scripts and make's
// prerequisite chains by [MaxDepth], steps by [MaxSteps]. A file that
// exists but cannot be read, or whose steps cannot be known (a bound
// exceeded, a make $(eval …), a task in an included Taskfile, a pom or
// MSBuild file that is not XML, a Maven plugin whose command the pom does
// not hold), is a
// [Problem]: the caller treats the command as unverifiable. A runner
// whose file does not exist gives no steps and no problems.
package buildfile
