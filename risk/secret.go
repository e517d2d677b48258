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

// wellKnownSecrets are the names under which services' clients and CI
// systems look for credentials: a filter that keeps lines holding one of
// them (env | grep AWS) prints the credential.
var wellKnownSecrets = []string{
	"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AZURE_CLIENT_SECRET", "AZURE_STORAGE_KEY",
	"ARM_CLIENT_SECRET", "GOOGLE_API_KEY", "GOOGLE_APPLICATION_CREDENTIALS", "GCP_SERVICE_ACCOUNT_KEY",
	"GITHUB_TOKEN", "GH_TOKEN", "GITLAB_TOKEN", "CI_JOB_TOKEN", "BITBUCKET_TOKEN", "NPM_TOKEN", "NODE_AUTH_TOKEN",
	"PYPI_TOKEN", "TWINE_PASSWORD", "CARGO_REGISTRY_TOKEN", "DOCKER_PASSWORD", "DOCKERHUB_TOKEN",
	"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "HF_TOKEN", "HUGGINGFACE_TOKEN", "COHERE_API_KEY",
	"MISTRAL_API_KEY", "SLACK_BOT_TOKEN", "SLACK_WEBHOOK_URL", "STRIPE_SECRET_KEY", "TWILIO_AUTH_TOKEN",
	"SENDGRID_API_KEY", "SENTRY_AUTH_TOKEN", "DIGITALOCEAN_TOKEN", "CLOUDFLARE_API_TOKEN", "HEROKU_API_KEY",
	"VERCEL_TOKEN", "NETLIFY_AUTH_TOKEN", "DATABASE_URL", "PGPASSWORD", "MYSQL_PWD", "REDIS_URL", "VAULT_TOKEN",
	"KUBECONFIG", "SSH_AUTH_SOCK",
}

// MatchesSecretName reports whether a grep-like filter for fragment (a
// plain name or part of one, compared case-insensitively) keeps the line
// of a variable that holds a credential: one of the well-known credential
// names contains it (starts with it when anchored), or it names a kind of
// secret itself. env | grep AWS keeps AWS_SECRET_ACCESS_KEY; grep ^GOPATH
// keeps no credential.
func MatchesSecretName(fragment string, anchored bool) bool {
	up := strings.ToUpper(fragment)
	if IsSecretName(up) {
		return true
	}
	for _, name := range wellKnownSecrets {
		if anchored && strings.HasPrefix(name, up) || !anchored && strings.Contains(name, up) {
			return true
		}
	}
	return false
}
