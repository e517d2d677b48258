package fleet

import "os"

func hostPID() (string, int) {
	h, _ := os.Hostname()
	return h, os.Getpid()
}
