package call_test

import (
	"testing"

	"github.com/toolguard/toolguard/call"
)

// The Kubernetes server's tools run kubectl, a browser's navigation is curl's
// GET: a call is the command
// it runs, with the server's default output; an argument the line does not
// know leaves the tool unknown.
func TestKubernetesToolsRunKubectl(t *testing.T) {
	cases := []struct {
		tool    string
		input   map[string]any
		kind    call.Kind
		command string
	}{
		{"mcp__kubernetes__kubectl_get", map[string]any{"resourceType": "pods", "namespace": "payments"},
			call.Shell, "kubectl get pods '--output=json' '--namespace=payments'"},
		{"mcp__kubernetes__kubectl_get", map[string]any{"resourceType": "secrets", "name": "db", "output": "yaml"},
			call.Shell, "kubectl get secrets db '--output=yaml'"},
		{"mcp__k8s__kubectl_get", map[string]any{"resourceType": "pods", "allNamespaces": true, "labelSelector": "app=web"},
			call.Shell, "kubectl get pods '--output=json' --all-namespaces '--selector=app=web'"},
		{"mcp__kubernetes__kubectl_delete", map[string]any{"resourceType": "namespace", "name": "payments"},
			call.Shell, "kubectl delete namespace payments"},
		{"mcp__kubernetes__kubectl_scale", map[string]any{"name": "web", "replicas": float64(0), "namespace": "prod"},
			call.Shell, "kubectl scale deployment web '--replicas=0' '--namespace=prod'"},
		{"mcp__kubernetes__kubectl_get", map[string]any{"resourceType": "pods; rm -rf ~"},
			call.Shell, "kubectl get 'pods; rm -rf ~' '--output=json'"},
		// a browser on this machine navigates as curl fetches; an
		// argument the line does not know leaves the tool unknown
		{"mcp__playwright__browser_navigate", map[string]any{"url": "http://localhost:5173/login"},
			call.Shell, "curl -s http://localhost:5173/login"},
		{"mcp__puppeteer__puppeteer_navigate", map[string]any{"url": "file:///etc/passwd"},
			call.Shell, "curl -s file:///etc/passwd"},
		{"mcp__puppeteer__puppeteer_navigate", map[string]any{"url": "https://x.example", "launchOptions": map[string]any{}}, call.MCP, ""},
		// an argument kubectl_get's line does not list: an unknown tool
		{"mcp__kubernetes__kubectl_get", map[string]any{"resourceType": "pods", "kubeconfig": "/tmp/k"}, call.MCP, ""},
		{"mcp__kubernetes__kubectl_get", map[string]any{"resourceType": "pods", "allNamespaces": "yes"}, call.MCP, ""},
	}
	for _, c := range cases {
		got, err := call.Default().Normalize(call.Request{Tool: c.tool, Input: c.input})
		if err != nil {
			t.Fatalf("%s %v: %v", c.tool, c.input, err)
		}
		if got.Kind != c.kind || c.kind == call.Shell && got.Command != c.command {
			t.Errorf("%s %v: kind %s, command %q; want %s, %q", c.tool, c.input, got.Kind, got.Command, c.kind, c.command)
		}
	}
}
