module github.com/brisk-http/brisk

go 1.26.0

require (
	github.com/HdrHistogram/hdrhistogram-go v1.4.0
	github.com/andybalholm/brotli v1.3.0
	github.com/gobwas/ws v1.5.0
	github.com/klauspost/compress v1.20.4
	github.com/molecule-man/go-brrr v1.3.1
	golang.org/x/net v0.62.0
	golang.org/x/sys v0.50.0
)

require (
	github.com/gobwas/httphead v0.1.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)
