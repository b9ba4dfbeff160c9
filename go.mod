module github.com/brisk-http/brisk

go 1.25.0

require (
	github.com/HdrHistogram/hdrhistogram-go v1.4.0
	github.com/andybalholm/brotli v1.3.0
	github.com/gobwas/ws v1.4.0
	github.com/klauspost/compress v1.20.4
	golang.org/x/sys v0.47.0
	golang.org/x/term v0.45.0
)

require (
	github.com/gobwas/httphead v0.1.0 // indirect
	github.com/gobwas/pool v0.2.1 // indirect
	golang.org/x/net v0.58.0
	golang.org/x/text v0.41.0 // indirect
)
