package buildfile

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCompose(t *testing.T) {
	const wipe = "services:\n  db:\n    image: alpine:3.20\n    privileged: true\n    volumes: [\"/:/host\", \"./data:/data\", \"cache:/cache\"]\n    command: [\"sh\", \"-c\", \"rm -rf /host/home/u\"]\n  app:\n    image: app\n    depends_on: {db: {condition: service_started}}\n  web:\n    image: nginx\n    entrypoint: [\"sh\", \"-c\"]\n    command: [\"nginx -g 'daemon off;'\"]\n    volumes:\n      - type: bind\n        source: ~/site\n        target: /usr/share/nginx/html\n"
	files := fakeFiles{"/w/docker-compose.yml": wipe, "/w/ops/stack.yaml": "services:\n  job:\n    image: busybox\n    command: echo hi\n"}
	dbStep := Step{File: "/w/docker-compose.yml", Line: 2, Lang: Shell, Dir: w,
		Text: "docker run --rm --privileged -v /:/host -v /w/data:/data -v cache:/cache alpine:3.20 sh -c 'rm -rf /host/home/u'"}
	appStep := Step{File: "/w/docker-compose.yml", Line: 7, Lang: Shell, Dir: w, Text: "docker run --rm app"}
	webStep := Step{File: "/w/docker-compose.yml", Line: 10, Lang: Shell, Dir: w,
		Text: "docker run --rm -v /home/u/site:/usr/share/nginx/html --entrypoint sh nginx -c 'nginx -g '\\''daemon off;'\\'''"}
	tests := []struct {
		cmd   string
		steps []Step
	}{
		{"docker compose up -d db", []Step{dbStep}},
		{"docker-compose up", []Step{appStep, dbStep, webStep}},
		{"docker compose --project-name x up --scale web=2 web", []Step{webStep}},
		{"docker compose run --rm db ls /host", []Step{{File: dbStep.File, Line: 2, Lang: Shell, Dir: w,
			Text: "docker run --rm --privileged -v /:/host -v /w/data:/data -v cache:/cache alpine:3.20 ls /host"}}},
		{"docker compose -f ops/stack.yaml up", []Step{{File: "/w/ops/stack.yaml", Line: 2, Lang: Shell, Dir: w,
			Text: "docker run --rm busybox echo hi"}}},
		{"docker compose run --rm -v ~:/h --entrypoint sh db -c id", []Step{{File: dbStep.File, Line: 2, Lang: Shell, Dir: w,
			Text: "docker run --rm --privileged -v /:/host -v /w/data:/data -v cache:/cache -v /home/u:/h --entrypoint sh alpine:3.20 -c id"}}},
		{"docker compose up -d app", []Step{appStep, dbStep}},
		{"docker compose up -d --no-deps app", []Step{appStep}},
		{"docker compose ps", nil},
		{"docker compose down", nil},
		{"docker run alpine", nil},
	}
	for _, tc := range tests {
		t.Run(tc.cmd, func(t *testing.T) {
			got := Resolve(invocationOf(tc.cmd), execFiles{files, nil})
			if diff := cmp.Diff(tc.steps, got.Steps); diff != "" {
				t.Errorf("steps (-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzComposeFile(f *testing.F) {
	f.Add("services:\n  a:\n    image: x\n    command: [\"sh\", \"-c\", \"id\"]\n    volumes: [\"/:/h\"]\n")
	f.Add("services:\n  a:\n    command: echo hi\n    entrypoint: [\"sh\"]\n    volumes:\n      - {source: ., target: /x}\n")
	f.Fuzz(func(t *testing.T, text string) {
		got := Resolve(invocationOf("docker compose up"), execFiles{fakeFiles{"/w/compose.yaml": text}, nil})
		for _, s := range got.Steps {
			if s.Lang != Shell || s.File != "/w/compose.yaml" {
				t.Fatalf("step %+v", s)
			}
		}
	})
}

// TestComposeUnreadable: a compose file that exists but cannot be read is
// a problem, never taken for a missing file (which would start services
// unjudged).
func TestComposeUnreadable(t *testing.T) {
	got := Resolve(invocationOf("docker compose up"), fakeFiles{"/w/compose.yaml": "\x00"})
	if len(got.Problems) != 1 || got.Problems[0].File != "/w/compose.yaml" || len(got.Steps) != 0 {
		t.Errorf("plan %+v: want one problem for /w/compose.yaml and no step", got)
	}
	got = Resolve(invocationOf("docker compose up"), fakeFiles{})
	if len(got.Problems)+len(got.Steps) != 0 {
		t.Errorf("no compose file: plan %+v, want nothing", got)
	}
}
