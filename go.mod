module github.com/brisk-http/brisk

go 1.25.0

require (
	github.com/HdrHistogram/hdrhistogram-go v1.4.0
	golang.org/x/sys v0.47.0
	golang.org/x/term v0.45.0
)

require github.com/pires/go-proxyproto v0.15.0
