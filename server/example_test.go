package server_test

import (
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/server"
)

// A server over the default policy answers POST /v1/decide with the
// decision for one call.
func Example() {
	p, err := policy.Compile(&policy.Config{}, policy.Options{})
	if err != nil {
		panic(err)
	}
	s, err := server.New(server.Options{Policy: p})
	if err != nil {
		panic(err)
	}
	defer s.Close()
	req := httptest.NewRequest("POST", "http://127.0.0.1:7878/v1/decide",
		strings.NewReader(`{"tool":"Bash","input":{"command":"rm -rf /"},"cwd":"/tmp/project"}`))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, req)
	fmt.Println(rec.Code, rec.Body.String()[:88])
	// Output:
	// 200 {"verdict":"deny","tier":"destructive","blast_radius":"critical","category":"fs-delete",
}
