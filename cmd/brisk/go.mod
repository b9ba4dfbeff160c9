module github.com/brisk-http/brisk/cmd/brisk

go 1.26.0

replace (
	github.com/brisk-http/brisk => ../..
	github.com/brisk-http/brisk/h3 => ../../h3
	github.com/brisk-http/brisk/metrics => ../../metrics
)

require (
	github.com/andybalholm/brotli v1.3.0
	github.com/brisk-http/brisk v0.0.0-00010101000000-000000000000
	github.com/brisk-http/brisk/h3 v0.0.0-00010101000000-000000000000
	github.com/brisk-http/brisk/metrics v0.0.0-00010101000000-000000000000
	github.com/gobwas/ws v1.5.0
	github.com/klauspost/compress v1.20.4
	github.com/prometheus/client_golang v1.25.0
	github.com/prometheus/common v0.74.0
	github.com/quic-go/quic-go v0.65.0
	golang.org/x/net v0.62.0
	golang.org/x/term v0.48.0
)

require (
	github.com/HdrHistogram/hdrhistogram-go v1.4.0 // indirect
	github.com/beorn7/perks v1.0.1 // indirect
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/gobwas/httphead v0.1.0 // indirect
	github.com/molecule-man/go-brrr v1.3.1 // indirect
	github.com/munnerz/goautoneg v0.0.0-20191010083416-a7dc8b61c822 // indirect
	github.com/pandatix/go-abnf v0.5.5 // indirect
	github.com/prometheus/client_model v0.6.3 // indirect
	github.com/prometheus/procfs v0.22.0 // indirect
	github.com/quic-go/qpack v0.6.0 // indirect
	golang.org/x/crypto v0.58.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/text v0.43.0 // indirect
	google.golang.org/protobuf v1.36.12 // indirect
)
