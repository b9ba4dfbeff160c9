module github.com/brisk-http/brisk

go 1.25
