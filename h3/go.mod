module github.com/brisk-http/brisk/h3

go 1.26.0

replace github.com/brisk-http/brisk => ..

require (
	github.com/brisk-http/brisk v0.0.0-00010101000000-000000000000
	github.com/quic-go/quic-go v0.65.0
)

require (
	github.com/quic-go/qpack v0.6.0 // indirect
	golang.org/x/crypto v0.58.0 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)
