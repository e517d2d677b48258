package policy_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDiskToolsOnImages: dd, mkfs and parted writing a new file or a build
// output in the workspace are project work (asked in supervised, allowed
// in trusted and full); the same tools on a device, over an existing file
// that is no output, outside the workspace, through a link to a device, as
// root, or with a target not known statically stay denied in every mode.
// A disk tool asked only its version or usage writes nothing.
func TestDiskToolsOnImages(t *testing.T) {
	img := []corpusFileSpec{{Path: "build/disk.img", Content: "image"}}
	toDisk := &corpusSession{Links: []corpusLink{{Path: "build/disk.img", Target: "/dev/sda", Symbolic: true}}}
	toHome := &corpusSession{Links: []corpusLink{{Path: "build/disk.img", Target: "~/disk.img", Symbolic: true}}}
	allowed := [3]string{"ask", "allow", "allow"}
	denied := [3]string{"deny", "deny", "deny"}
	cases := []struct {
		name    string
		command string
		files   []corpusFileSpec
		session *corpusSession
		want    [3]string
	}{
		{"dd makes a fixture", "dd if=/dev/urandom of=testdata/random-64k.bin bs=1K count=64", nil, nil, allowed},
		{"dd over an image there", "dd if=/dev/zero of=build/disk.img bs=1M count=8", img, nil, allowed},
		{"dd over the project's database", "dd if=/dev/urandom of=data/app.db bs=4096 count=1 conv=notrunc",
			[]corpusFileSpec{{Path: "data/app.db", Content: "SQLite format 3"}}, nil, denied},
		{"mkfs over an image that is no output", "mkfs.ext4 -F disk.img", []corpusFileSpec{{Path: "disk.img", Content: "x"}}, nil, denied},
		{"dd onto a disk", "dd if=/dev/urandom of=/dev/sda bs=1M", nil, nil, denied},
		{"dd through a link to a disk", "dd if=/dev/zero of=build/disk.img bs=1M", nil, toDisk, denied},
		{"dd through a link out of the workspace", "dd if=/dev/zero of=build/disk.img bs=1M", nil, toHome, denied},
		{"dd into the home", "dd if=/dev/zero of=$HOME/disk.img bs=1M", nil, nil, denied},
		{"dd onto a variable", `dd if=/dev/zero of="$IMG" bs=1M`, nil, nil, denied},
		{"dd with two outputs", "dd if=/dev/zero of=build/a.img of=/dev/sda", nil, nil, denied},
		{"dd as root", "sudo dd if=/dev/zero of=build/disk.img bs=1M", nil, nil, denied},
		{"mkfs of an image to be made", "mkfs.ext4 -F -q build/rootfs.img", nil, nil, allowed},
		{"mkfs of an image there", "mkfs.ext4 -F -q build/disk.img", img, nil, allowed},
		{"mkfs of a partition", "mkfs.ext4 -F /dev/sdb1", nil, nil, denied},
		{"mkfs through a link to a disk", "mkfs.ext4 -F build/disk.img", nil, toDisk, denied},
		{"mkfs with an option's value first", "mkfs.ext4 -L root build/disk.img", img, nil, denied},
		{"mkfs of a device by a relative name", "cd /dev && mkfs.ext4 -F sdb1", nil, nil, denied},
		{"parted labels an image", "parted -s build/disk.img mklabel gpt", nil, nil, allowed},
		{"parted labels a disk", "parted -s /dev/sda mklabel gpt", nil, nil, denied},
		{"parted selects a disk after the image", "parted -s build/disk.img select /dev/sda mklabel gpt", img, nil, denied},
		{"parted through a link to a disk", "parted -s build/disk.img mklabel gpt", nil, toDisk, denied},
		{"parted in /dev", "cd /dev && parted -s sda mklabel gpt", nil, nil, denied},
		{"sgdisk zaps a disk", "sgdisk --zap-all /dev/sdc", nil, nil, denied},
		{"mkfs.ext4 asked its version", "mkfs.ext4 -V", nil, nil, allowed},
		{"dd asked its version", "dd --version", nil, nil, allowed},
		{"parted asked its usage", "parted --help", nil, nil, allowed},
		{"mkfs verbose with a device", "mkfs -V /dev/sdb1", nil, nil, denied},
		{"mkfs.ext4 -V with a device", "mkfs.ext4 -V /dev/sdb1", nil, nil, denied},
		{"mkfs.ext4 -V as root", "sudo mkfs.ext4 -V", nil, nil, denied},
		{"mkfs.ext4 with an unknown word", `mkfs.ext4 -V "$DEV"`, nil, nil, denied},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cc := corpusCase{ID: "x", Tool: "Bash", Command: c.command, Files: c.files, Session: c.session}
			home := cc.layFiles(t)
			var got [3]string
			for i, m := range corpusModes {
				p := corpusPolicy(t, m, home)
				cl, err := cc.call(p, home)
				if err != nil {
					t.Fatal(err)
				}
				got[i] = p.Decide(context.Background(), cl).Verdict.String()
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("%s: verdicts (-want +got):\n%s", c.command, diff)
			}
		})
	}
}
