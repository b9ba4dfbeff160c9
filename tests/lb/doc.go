// Package lb holds the tests of brisk behind real load balancers started
// by the tests on loopback: HAProxy sending PROXY v2 over keep-alive
// connections, nginx sending PROXY v1 (stream module) and
// X-Forwarded-For (http module). A test skips only when its load
// balancer is not installed (.ci/run installs haproxy, nginx-light and
// libnginx-mod-stream). The package has no API.
package lb
