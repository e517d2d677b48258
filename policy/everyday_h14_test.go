package policy_test

import "testing"

// TestRemoteReadsH14: lookups and listings that only read remote state are
// the read tier (allowed in every mode); the same programs sending a file,
// a body or writing what they fetch are not.
func TestRemoteReadsH14(t *testing.T) {
	allowed := [3]string{"allow", "allow", "allow"}
	runDiskCases(t, []diskCase{
		{"drill looks a name up", "drill example.com AAAA", nil, allowed, ""},
		{"drill looks an address up", "drill -x 1.1.1.1", nil, allowed, ""},
		{"drill sends a packet read from a file", "drill -f query.bin example.com", nil, [3]string{"ask", "allow", "allow"}, ""},
		{"drill writes the answer", "drill -w answer.bin example.com", nil, [3]string{"ask", "allow", "allow"}, ""},
		{"wget checks a page is there", "wget -q --spider https://go.dev/dl/", nil, allowed, ""},
		{"wget saves the page", "wget -q https://go.dev/dl/", nil, [3]string{"ask", "allow", "allow"}, ""},
		{"wget --spider posting data", "wget --spider --post-data=a=1 https://example.com/", nil, [3]string{"ask", "allow", "allow"}, ""},
		{"az lists a container's blobs", "az storage blob list --account-name acct --container-name releases --auth-mode login -o table", nil, allowed, ""},
		{"az uploads a blob", "az storage blob upload --account-name acct -c releases -n x.txt -f x.txt", nil, [3]string{"ask", "allow", "allow"}, ""},
		{"elixir prints its version", "elixir --version", nil, allowed, ""},
		{"elixir runs code", `elixir -e 'File.rm_rf!("lib")'`, nil, [3]string{"ask", "allow", "allow"}, ""},
	})
}

// TestInlineOutputDeletesH14: a one-liner whose every delete is a call on
// a literal build output or cache in the workspace is project work
// (allowed in trusted); the same call on sources, the home, a computed
// path or after a chdir keeps the inline-delete rule.
func TestInlineOutputDeletesH14(t *testing.T) {
	project := [3]string{"ask", "allow", "allow"}
	kept := [3]string{"ask", "ask", "allow"}
	runDiskCases(t, []diskCase{
		{"python removes the pytest cache", `python3 -c "import shutil;shutil.rmtree('.pytest_cache', ignore_errors=True)"`, nil, project, ""},
		{"node removes coverage", `node -e "require('fs').rmSync('coverage',{recursive:true,force:true})"`, nil, project, ""},
		{"perl removes blib", `perl -MFile::Path=remove_tree -e 'remove_tree("blib")'`, nil, project, ""},
		{"ruby removes tmp/cache", `ruby -e 'require "fileutils"; FileUtils.remove_dir("tmp/cache", true)'`, nil, project, ""},
		{"python removes the sources", `python3 -c "import shutil;shutil.rmtree('src')"`, nil, kept, ""},
		{"python removes a path it is given", `python3 -c "import shutil,sys;shutil.rmtree(sys.argv[1])" build`, nil, kept, ""},
		{"python moves home first", `python3 -c "import os,shutil;os.chdir(os.path.expanduser('~'));shutil.rmtree('build')"`, nil, [3]string{"deny", "deny", "deny"}, ""},
		{"node removes build outside the workspace", `node -e "require('fs').rmSync('../other/build',{recursive:true})"`, nil, kept, ""},
		{"ruby removes the home", `ruby -e 'require "fileutils"; FileUtils.rm_rf(Dir.home)'`, nil, [3]string{"deny", "deny", "deny"}, ""},
	})
}

// TestListedDeletesH14: a recursive delete of what a listing the analysis
// can say produces (find DIR -name N -exec rm, ls DIR | xargs rm) is the
// delete of those paths: the project's outputs and what they hold are
// project work (allowed in trusted); sources stay asked in trusted, the
// home denied, and input no analysis can say asked in every mode; git
// ls-files lists the whole project, whose delete is denied.
func TestListedDeletesH14(t *testing.T) {
	project := [3]string{"ask", "allow", "allow"}
	runDiskCases(t, []diskCase{
		{"find prunes the bytecode caches", "find . -name __pycache__ -type d -prune -exec rm -rf {} +", nil, project, ""},
		{"ls empties dist", "ls dist | xargs -I{} rm -rf dist/{}", nil, project, ""},
		{"a cache inside build", "rm -rf build/cache", nil, project, ""},
		{"ls empties src", "ls src | xargs -I{} rm -rf src/{}", nil, [3]string{"ask", "ask", "allow"}, ""},
		{"find deletes every source", "find src -type f -exec rm -rf {} +", nil, [3]string{"ask", "ask", "allow"}, ""},
		{"git's list of files: every tracked file, the project itself", "git ls-files | xargs rm -rf", nil, [3]string{"deny", "deny", "deny"}, ""},
		{"ls empties the home", "ls -A ~ | xargs -I{} rm -rf ~/{}", nil, [3]string{"deny", "deny", "deny"}, ""},
		{"find the home's node_modules", "find ~ -name node_modules -prune -exec rm -rf {} +", nil, [3]string{"deny", "deny", "deny"}, ""},
	})
}
