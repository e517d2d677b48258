package audit

import (
	"strings"
	"sync"
)

// The programs redaction knows, by what their command lines hold: which
// options take a secret, which take a harmless value (so it is not taken
// for a program name), which arguments are secrets, and whether the
// program reads a secret on its standard input. A program absent here
// still gets the generic rules (long options and variables whose names
// name a secret).

// programs maps a program's name to what redaction knows of it, built on
// first use so that a process that never redacts (most hooks allow or
// deny without writing much) does not pay for it at start.
var programs = sync.OnceValue(buildPrograms)

func buildPrograms() map[string]*progSpec {
	var (
		registryLogin = &progSpec{
			opts: []optRule{{names: []string{"-p", "--password"}, glued: true, when: []string{"login"}}},
			values: []string{"-u", "--username", "--config", "-c", "--context", "-H", "--host", "-l", "--log-level",
				"--tlscacert", "--tlscert", "--tlskey", "--name", "-e", "--env", "--env-file", "-v", "--volume",
				"-w", "--workdir", "--user", "-p", "--publish", "--network", "--entrypoint", "--platform", "-m",
				"--memory", "--label", "--mount", "-t", "--tag", "-f", "--file", "--build-arg", "--target",
				"--kube-context", "-n", "--namespace", "--registry-config", "--repository-config", "--authfile",
				"--cert-dir", "--hostname", "--add-host", "--cpus", "--gpus", "--restart", "--pull", "--secret"},
			consumes: func(words []word, pos []int) bool {
				return hasWord(words, "login") && hasWord(words, "--password-stdin") ||
					startsWith(words, pos, "secret", "create") && posVal(words, pos, len(pos)-1) == "-"
			},
			need: []string{"login", "secret"},
		}
		mysqlLike = &progSpec{
			opts:   []optRule{{names: []string{"-p"}, gluedOnly: true}},
			values: []string{"-u", "-h", "-P", "-D", "-e", "-S", "--user", "--host", "--port", "--database", "--execute", "--socket"},
			need:   []string{"-p"},
		}
		sshpass = &progSpec{
			opts:   []optRule{{names: []string{"-p"}, glued: true}},
			values: []string{"-f", "-d", "-P"},
			wraps:  true,
		}
		mongo = &progSpec{
			opts:   []optRule{{names: []string{"-p", "--password"}}},
			values: []string{"-u", "--username", "--host", "--port", "--authenticationDatabase", "--eval", "-f", "--file", "-d", "--db"},
			need:   []string{"-p"},
		}
		sqlServer = &progSpec{
			opts:   []optRule{{names: []string{"-P"}}},
			values: []string{"-S", "-U", "-d", "-Q", "-q", "-i", "-o", "-s"},
			need:   []string{"-p"},
		}
		redisCLI = &progSpec{
			opts:   []optRule{{names: []string{"-a", "--pass"}}},
			flags:  []string{"--askpass"},
			values: []string{"-h", "-p", "-n", "-u", "--user", "-s", "-r", "-i", "--cacert", "--cert", "--key"},
			positional: func(a *analyzer, words []word, pos []int) {
				for k := range pos {
					if strings.EqualFold(words[pos[k]].val, "auth") && k+1 < len(pos) {
						a.maskPos(words, pos, len(pos)-1)
						return
					}
				}
			},
			need: []string{"-a", "auth", "pass"},
		}
		curl = &progSpec{
			opts: []optRule{
				{names: []string{"-u", "--user", "-U", "--proxy-user"}, kind: maskAfterColon, glued: true},
				{names: []string{"--oauth2-bearer"}},
				{names: []string{"-b", "--cookie"}, kind: maskAfterEq},
				{names: []string{"-E", "--cert", "--proxy-cert"}, kind: maskAfterLast},
			},
			values: []string{"-H", "--header", "-d", "--data", "--data-raw", "--data-binary", "--data-urlencode",
				"-o", "--output", "-X", "--request", "-A", "--user-agent", "-e", "--referer", "-x", "--proxy",
				"-F", "--form", "-T", "--upload-file", "-w", "--write-out", "-m", "--max-time", "--connect-timeout",
				"-r", "--range", "-K", "--config", "-c", "--cookie-jar", "--cacert", "--key", "--resolve", "--retry"},
			need: []string{"-u", "--user", "--proxy-user", "-b", "--cookie", "-e", "--cert", "--oauth2"},
		}
		httpie = &progSpec{
			opts:   []optRule{{names: []string{"-a", "--auth"}, kind: maskAfterColonOr}},
			values: []string{"-A", "--auth-type", "-o", "--output", "--session"},
			need:   []string{"-a", "--auth"},
		}
		htpasswd = &progSpec{
			values: []string{"-C", "-r"},
			positional: func(a *analyzer, words []word, pos []int) {
				if shortCluster(words, 'b') && len(pos) >= 2 {
					a.maskPos(words, pos, len(pos)-1)
				}
			},
			consumes: func(words []word, _ []int) bool { return shortCluster(words, 'i') },
		}
		openssl = &progSpec{
			opts: []optRule{
				{names: []string{"-pass", "-passin", "-passout", "-password"}, kind: maskPassPrefix},
				{names: []string{"-k"}},
			},
			values: []string{"-in", "-out", "-inkey", "-key", "-certfile", "-CAfile", "-config", "-name", "-subj", "-days", "-kfile"},
			consumes: func(words []word, _ []int) bool {
				for i, w := range words {
					if strings.HasPrefix(w.val, "-pass") && i+1 < len(words) && words[i+1].val == "stdin" {
						return true
					}
				}
				return false
			},
			need: []string{"-k", "pass"},
		}
		zip        = &progSpec{opts: []optRule{{names: []string{"-P", "--password"}}}, need: []string{"-p"}}
		unzip      = &progSpec{opts: []optRule{{names: []string{"-P"}}}, values: []string{"-d", "-x"}, need: []string{"-p"}}
		sevenZip   = &progSpec{opts: []optRule{{names: []string{"-p"}, gluedOnly: true}}, need: []string{"-p"}}
		rar        = &progSpec{opts: []optRule{{names: []string{"-p", "-hp"}, gluedOnly: true}}, need: []string{"-p", "-hp"}}
		sshKeygen  = &progSpec{opts: []optRule{{names: []string{"-N", "-P"}}}, values: []string{"-t", "-f", "-C", "-b", "-a", "-Z", "-O", "-I", "-n", "-V", "-z", "-s", "-E", "-m", "-Y"}, need: []string{"-n", "-p"}}
		ldap       = &progSpec{opts: []optRule{{names: []string{"-w"}}}, values: []string{"-D", "-b", "-H", "-h", "-p", "-s", "-f", "-y"}, need: []string{"-w"}}
		ldappasswd = &progSpec{opts: []optRule{{names: []string{"-w", "-s", "-a"}}}, values: []string{"-D", "-H", "-h", "-p", "-y", "-t", "-T"}, need: []string{"-w", "-s", "-a"}}
		samba      = &progSpec{opts: []optRule{{names: []string{"-U", "--user"}, kind: maskAfterPercent}}, values: []string{"-W", "-I", "-p", "-c", "-s", "-m"}, need: []string{"%"}}
		keytool    = &progSpec{opts: []optRule{{names: []string{"-storepass", "-keypass", "-srcstorepass", "-deststorepass", "-srckeypass", "-destkeypass", "-new"}}},
			values: []string{"-keystore", "-alias", "-file", "-storetype", "-srckeystore", "-destkeystore", "-dname", "-keyalg", "-validity"}}
		macSecurity = &progSpec{
			opts: []optRule{
				{names: []string{"-w"}, when: []string{"add-generic-password", "add-internet-password"}},
				{names: []string{"-p"}, when: []string{"unlock-keychain", "create-keychain", "set-keychain-password"}},
			},
			values: []string{"-a", "-s", "-l", "-k", "-c", "-D", "-j", "-r", "-t", "-T"},
			need:   []string{"-w", "-p"},
		}
		useradd = &progSpec{opts: []optRule{{names: []string{"-p", "--password"}}}, values: []string{"-d", "-s", "-g", "-G", "-c", "-u", "-e", "-k", "-K"}, need: []string{"-p"}}
		twine   = &progSpec{opts: []optRule{{names: []string{"-p", "--password"}}}, values: []string{"-u", "--username", "-r", "--repository", "--repository-url"}, need: []string{"-p"}}
		azure   = &progSpec{
			opts: []optRule{
				{names: []string{"-p", "--password"}, when: []string{"login"}},
				{names: []string{"--value"}, when: []string{"keyvault secret set"}},
			},
			values: []string{"-u", "--username", "--tenant", "-n", "--name", "--vault-name", "-g", "--resource-group", "-o", "--output", "--query", "--subscription"},
			need:   []string{"login", "secret"},
		}
		doctl = &progSpec{opts: []optRule{{names: []string{"-t", "--access-token"}}}, values: []string{"--context", "-o", "--output", "-c", "--config"}, need: []string{"-t"}}
		glab  = &progSpec{opts: []optRule{{names: []string{"-t", "--token"}, when: []string{"auth login"}}}, values: []string{"--hostname", "-h"}, need: []string{"-t"}}
		vault = &progSpec{
			values: []string{"-address", "-namespace", "-path", "-format", "-field", "-mount"},
			positional: func(a *analyzer, words []word, pos []int) {
				switch {
				case startsWith(words, pos, "login"):
					for k := 1; k < len(pos); k++ {
						if v := words[pos[k]].val; v != "-" && !strings.Contains(v, "=") {
							a.maskPos(words, pos, k)
							return
						}
					}
				case startsWith(words, pos, "kv", "put"), startsWith(words, pos, "kv", "patch"):
					a.maskValues(words, pos, 3)
				}
			},
			consumes: func(words []word, pos []int) bool {
				return startsWith(words, pos, "login") && posVal(words, pos, 1) == "-"
			},
			need: []string{"login", "kv"},
		}
		cargo = &progSpec{
			values: []string{"--registry", "--index"},
			positional: func(a *analyzer, words []word, pos []int) {
				if startsWith(words, pos, "login") {
					a.maskPos(words, pos, 1)
				}
			},
			consumes: func(words []word, pos []int) bool { return startsWith(words, pos, "login") && len(pos) == 1 },
			need:     []string{"login"},
		}
		snyk = &progSpec{positional: func(a *analyzer, words []word, pos []int) {
			if startsWith(words, pos, "auth") {
				a.maskPos(words, pos, 1)
			}
		}}
		ngrok = &progSpec{positional: func(a *analyzer, words []word, pos []int) {
			switch {
			case startsWith(words, pos, "authtoken"):
				a.maskPos(words, pos, 1)
			case startsWith(words, pos, "config", "add-authtoken"):
				a.maskPos(words, pos, 2)
			}
		}}
		minioClient = &progSpec{
			positional: func(a *analyzer, words []word, pos []int) {
				switch {
				case startsWith(words, pos, "alias", "set"):
					a.maskPos(words, pos, 5)
				case startsWith(words, pos, "config", "host", "add"):
					a.maskPos(words, pos, 6)
				}
			},
			need: []string{"alias", "host"},
		}
		rabbitmqctl = &progSpec{positional: func(a *analyzer, words []word, pos []int) {
			switch strings.ToLower(posVal(words, pos, 0)) {
			case "add_user", "change_password", "authenticate_user":
				a.maskPos(words, pos, 2)
			}
		}, need: []string{"user", "password"}}
		// composer and poetry keep http-basic credentials as KEY USER PASSWORD.
		phpPython = &progSpec{
			values: []string{"-d", "--working-dir", "-C", "--directory"},
			positional: func(a *analyzer, words []word, pos []int) {
				if !startsWith(words, pos, "config") {
					return
				}
				for k := 1; k < len(pos); k++ {
					key := words[pos[k]].val
					switch {
					case strings.HasPrefix(key, "http-basic."):
						if k+2 < len(pos) {
							a.maskPos(words, pos, k+2)
						}
						return
					case strings.HasPrefix(key, "github-oauth."), strings.HasPrefix(key, "gitlab-oauth."),
						strings.HasPrefix(key, "gitlab-token."), strings.HasPrefix(key, "bitbucket-oauth."),
						strings.HasPrefix(key, "bearer."):
						a.maskPos(words, pos, k+1)
						return
					}
				}
				a.setKeys(words, pos, 1)
			},
			need: []string{"http-basic", "oauth", "token", "bearer"},
		}
		bundler = &progSpec{
			positional: func(a *analyzer, words []word, pos []int) {
				if !startsWith(words, pos, "config") {
					return
				}
				for k := 1; k+1 < len(pos); k++ {
					if strings.Contains(words[pos[k]].val, ".") && strings.Contains(words[pos[k+1]].val, ":") {
						a.maskKind(words[pos[k+1]], 0, maskAfterColon)
						return
					}
				}
			},
			need: []string{"config"},
		}
		dotnet = &progSpec{
			opts:   []optRule{{names: []string{"-p", "--password"}, when: []string{"nuget"}}},
			values: []string{"-u", "--username", "-n", "--name", "--project", "--id"},
			positional: func(a *analyzer, words []word, pos []int) {
				if startsWith(words, pos, "user-secrets", "set") {
					a.maskPos(words, pos, 3)
				}
			},
			need: []string{"nuget", "secret"},
		}
		secretStore = &progSpec{ // fly secrets set, doppler secrets set
			values: []string{"-a", "--app", "-c", "--config", "-p", "--project"},
			positional: func(a *analyzer, words []word, pos []int) {
				if startsWith(words, pos, "secrets", "set") {
					a.maskValues(words, pos, 2)
					if len(pos) == 4 && !strings.Contains(posVal(words, pos, 2), "=") {
						a.maskPos(words, pos, 3)
					}
				}
			},
			consumes: func(words []word, pos []int) bool { return startsWith(words, pos, "secrets", "import") },
			need:     []string{"secret"},
		}
		kubectl = &progSpec{
			opts: []optRule{{names: []string{"--from-literal"}, kind: maskAfterEq, when: []string{"secret"}}},
			values: []string{"-n", "--namespace", "--context", "-c", "--container", "-o", "--output", "-l", "--selector",
				"-f", "--filename", "--kubeconfig", "--cluster", "--user", "--image"},
			need: []string{"secret"},
		}
		sqlplus = &progSpec{
			positional: func(a *analyzer, words []word, pos []int) {
				for _, k := range pos {
					w := words[k]
					if slash := strings.IndexByte(w.val, '/'); slash > 0 && !strings.HasPrefix(w.val, "@") {
						end := len(w.val)
						if at := strings.LastIndexByte(w.val, '@'); at > slash {
							end = at
						}
						a.mask(w, slash+1, end)
						return
					}
				}
			},
			need: []string{"/"},
		}
		sudo = &progSpec{
			values: []string{"-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-T", "-U", "--user", "--group", "--host",
				"--prompt", "--close-from", "--chdir", "--role", "--type", "--command-timeout", "--other-user"},
			consumes: func(words []word, pos []int) bool { return beforeCommand(words, pos, "--stdin", 'S') },
			wraps:    true,
		}
		ghCLI = &progSpec{
			opts:   []optRule{{names: []string{"-b", "--body"}, when: []string{"secret set"}}},
			values: []string{"-R", "--repo", "-h", "--hostname", "-e", "--env", "-o", "--org", "-a", "--app"},
			consumes: func(words []word, pos []int) bool {
				return startsWith(words, pos, "auth", "login") && hasWord(words, "--with-token") ||
					startsWith(words, pos, "secret", "set") && !hasWord(words, "-b") && !hasWord(words, "--body") &&
						!hasWord(words, "-f") && !hasWord(words, "--env-file")
			},
			need: []string{"secret", "token"},
		}
		passwd     = &progSpec{consumes: func(words []word, _ []int) bool { return hasWord(words, "--stdin") }, need: []string{"--stdin"}}
		chpasswd   = &progSpec{consumes: func([]word, []int) bool { return true }}
		cryptsetup = &progSpec{consumes: func([]word, []int) bool { return true }}
		wrangler   = &progSpec{consumes: func(words []word, pos []int) bool { return startsWith(words, pos, "secret", "put") }, need: []string{"secret"}}
		gpg        = &progSpec{consumes: func(words []word, _ []int) bool {
			for i, w := range words {
				if w.val == "--passphrase-fd=0" || w.val == "--passphrase-fd" && i+1 < len(words) && words[i+1].val == "0" {
					return true
				}
			}
			return false
		}, need: []string{"--passphrase-fd"}}
		gcloud = &progSpec{
			values:     []string{"--project", "--account", "--configuration", "--format"},
			positional: setter([]string{"config", "set"}),
			consumes: func(words []word, _ []int) bool {
				for i, w := range words {
					if w.val == "--data-file=-" || w.val == "--data-file" && i+1 < len(words) && words[i+1].val == "-" {
						return true
					}
				}
				return false
			},
			need: []string{"config", "--data-file"},
		}
		git = &progSpec{
			values:     []string{"-C", "-c", "--git-dir", "--work-tree", "--file", "-f", "--namespace", "--blob", "--type", "--default"},
			positional: setter([]string{"config", "set"}, []string{"config"}),
			need:       []string{"config"},
		}
		nodePM = &progSpec{ // npm, pnpm, yarn, bun
			values:     []string{"--location", "-L", "--userconfig", "--globalconfig"},
			positional: setter([]string{"config", "set"}, []string{"set"}),
			need:       []string{"set"},
		}
		aws = &progSpec{
			opts: []optRule{{names: []string{"--value"}, when: []string{"ssm put-parameter SecureString"}}},
			values: []string{"--profile", "--region", "--output", "--endpoint-url", "--query", "--name", "--type",
				"--cli-input-json", "--secret-id", "--description", "--key-id"},
			positional: setter([]string{"configure", "set"}),
			need:       []string{"configure", "securestring"},
		}
		pip = &progSpec{values: []string{"--index-url", "-i"}, positional: setter([]string{"config", "set"}), need: []string{"config"}}
	)
	programs := map[string]*progSpec{}
	add := func(spec *progSpec, names ...string) {
		for _, n := range names {
			programs[n] = spec
		}
	}
	add(registryLogin, "docker", "podman", "nerdctl", "helm", "buildah", "skopeo", "oras", "crane", "regctl", "finch")
	add(mysqlLike, "mysql", "mysqldump", "mysqladmin", "mysqlimport", "mysqlcheck", "mysqlshow", "mysqlslap", "mysqlsh",
		"mariadb", "mariadb-dump", "mariadb-admin", "mariadb-import", "mariadb-check")
	add(sshpass, "sshpass")
	add(mongo, "mongo", "mongosh", "mongodump", "mongorestore", "mongoexport", "mongoimport", "mongostat", "mongotop", "mongofiles")
	add(sqlServer, "sqlcmd", "bcp", "osql")
	add(redisCLI, "redis-cli", "valkey-cli", "keydb-cli")
	add(curl, "curl")
	add(httpie, "http", "https", "xh", "xhs")
	add(htpasswd, "htpasswd")
	add(openssl, "openssl")
	add(zip, "zip", "zipcloak")
	add(unzip, "unzip", "funzip")
	add(sevenZip, "7z", "7za", "7zz", "7zr")
	add(rar, "rar", "unrar")
	add(sshKeygen, "ssh-keygen")
	add(ldap, "ldapsearch", "ldapadd", "ldapmodify", "ldapdelete", "ldapwhoami", "ldapcompare", "ldapmodrdn", "ldapexop")
	add(ldappasswd, "ldappasswd")
	add(samba, "smbclient", "rpcclient", "smbcacls", "smbget", "smbcquotas", "smbtree")
	add(keytool, "keytool", "jarsigner")
	add(macSecurity, "security")
	add(useradd, "useradd", "usermod")
	add(twine, "twine")
	add(azure, "az")
	add(doctl, "doctl")
	add(glab, "glab")
	add(vault, "vault", "bao")
	add(cargo, "cargo")
	add(snyk, "snyk")
	add(ngrok, "ngrok")
	add(minioClient, "mc", "mcli")
	add(rabbitmqctl, "rabbitmqctl")
	add(phpPython, "composer", "poetry")
	add(bundler, "bundle")
	add(dotnet, "dotnet")
	add(secretStore, "fly", "flyctl", "doppler")
	add(kubectl, "kubectl", "oc")
	add(sqlplus, "sqlplus")
	add(sudo, "sudo", "doas")
	add(ghCLI, "gh")
	add(passwd, "passwd")
	add(chpasswd, "chpasswd")
	add(cryptsetup, "cryptsetup")
	add(wrangler, "wrangler")
	add(gpg, "gpg", "gpg2")
	add(gcloud, "gcloud")
	add(git, "git")
	add(nodePM, "npm", "pnpm", "yarn", "bun", "cnpm")
	add(aws, "aws")
	add(pip, "pip", "pip3")
	return programs
}
