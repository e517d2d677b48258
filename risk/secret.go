package risk

import "strings"

// secretWords mark an environment variable as holding a secret wherever
// they appear in its upper-cased name.
var secretWords = []string{
	"TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "APIKEY", "API_KEY",
	"PRIVATE_KEY", "ACCESS_KEY", "SESSION_KEY",
}

// secretSuffixes mark a variable as holding a secret at the end of its name.
var secretSuffixes = []string{"_KEY", "_PASS", "_PWD", "_AUTH", "_COOKIE", "_DSN"}

// IsSecretName reports whether an environment variable's name says it holds
// a secret value (GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY, DB_PASSWORD,
// OPENAI_API_KEY, DATABASE_URL), compared case-insensitively. Names that
// only grant access without holding a secret (AWS_PROFILE, SSH_AUTH_SOCK)
// are not secret names.
func IsSecretName(name string) bool {
	up := strings.ToUpper(name)
	switch up {
	case "DATABASE_URL", "DB_URL", "REDIS_URL", "MONGODB_URI", "MONGO_URL", "AMQP_URL", "NPM_CONFIG__AUTH":
		return true
	}
	for _, w := range secretWords {
		if strings.Contains(up, w) {
			return true
		}
	}
	for _, s := range secretSuffixes {
		if strings.HasSuffix(up, s) {
			return true
		}
	}
	return false
}
