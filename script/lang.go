package script

// For returns the analyser of the language lang, as the effect model names
// it ("sed", "awk", "vim", "gitconfig", "sshoption", "jq", "less",
// "crontab", "ftp", "tarcheckpoint"); false when this package has none. A new language, or
// a new kind of file whose content names the commands it runs (a build
// file's recipes, a manifest's scripts), is added here, so that the
// languages a command carries and the files a command runs are analysed by
// the same code.
func For(lang string) (func(string) Effects, bool) {
	switch lang {
	case "sed":
		return Sed, true
	case "awk":
		return Awk, true
	case "vim":
		return Vim, true
	case "gitconfig":
		return GitConfig, true
	case "sshoption":
		return SSHOption, true
	case "jq":
		return Jq, true
	case "less":
		return Less, true
	case "crontab":
		return Crontab, true
	case "ftp":
		return Ftp, true
	case "tarcheckpoint":
		return TarCheckpoint, true
	}
	return nil, false
}
