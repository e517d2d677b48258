package paths

import "testing"

// litComponentPatterns are base-name prefix and suffix patterns whose
// literal part holds the bytes the generated subjects are made of.
var litComponentPatterns = []string{"**/a*", "**/*a", "**/ab*", "**/*ab", "**/.a*", "**/*.a", "**/a.*", "**/*a.",
	"**/aa*", "**/*aa", "**/.*", "**/*.", "**/a.b*", "**/*b.a"}

// TestLitComponentAgrees is the generated test of litComponent, the one
// search anyComponent makes for a base-name prefix or suffix: for every
// subject of up to seven bytes of "a", "b", "." and "/", it answers as
// matching the pattern against every component in turn does.
func TestLitComponentAgrees(t *testing.T) {
	var pts []pattern
	for _, src := range litComponentPatterns {
		ps, err := compilePattern(src, nil)
		if err != nil {
			t.Fatal(err)
		}
		if k := ps[0].kind; k != kindBasePrefix && k != kindBaseSuffix || ps[0].lit == "" {
			t.Fatalf("%q is kind %d, lit %q: want a base-name prefix or suffix", src, k, ps[0].lit)
		}
		pts = append(pts, ps[0])
	}
	subjects := []string{""}
	for n, level := 0, []string{""}; n < 7; n++ {
		var next []string
		for _, s := range level {
			for _, c := range []string{"a", "b", ".", "/"} {
				next = append(next, s+c)
			}
		}
		subjects, level = append(subjects, next...), next
	}
	yes := 0
	for i := range pts {
		for _, s := range subjects {
			got, want := pts[i].litComponent(s), pts[i].eachComponent(s)
			if got != want {
				t.Fatalf("%q against %q: one search says %v, every component %v", pts[i].source, s, got, want)
			}
			if got {
				yes++
			}
		}
	}
	if yes == 0 || yes == len(pts)*len(subjects) {
		t.Fatalf("%d of %d matched: the subjects do not tell the two apart", yes, len(pts)*len(subjects))
	}
}

// FuzzLitComponent compares litComponent with every component asked, for
// any literal part and subject.
func FuzzLitComponent(f *testing.F) {
	f.Add("credentials", "/home/dev/project/credentials.json", true)
	f.Add(".pem", "/k/a.pem/inner", false)
	f.Add("aa", "/aaa/xaa", true)
	f.Fuzz(func(t *testing.T, lit, subject string, prefix bool) {
		src := "**/*" + lit
		if prefix {
			src = "**/" + lit + "*"
		}
		ps, err := compilePattern(src, nil)
		if err != nil || len(ps) != 1 || ps[0].lit == "" || ps[0].kind != kindBasePrefix && ps[0].kind != kindBaseSuffix {
			return // not a literal base-name pattern (a glob byte or "/" in lit)
		}
		if got, want := ps[0].anyComponent(subject), ps[0].eachComponent(subject); got != want {
			t.Fatalf("%q against %q: one search says %v, every component %v", src, subject, got, want)
		}
	})
}
