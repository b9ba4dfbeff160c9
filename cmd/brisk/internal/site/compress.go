package site

import (
	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/compress"
)

// compressing returns the wrapper of the routes whose responses are
// compressed when cfg.Compress is set (package compress, its defaults:
// zstd, br or gzip by Accept-Encoding, compressible media types, bodies
// of 1 KiB or more), or the identity when it is not.
func compressing(cfg Config) func(brisk.Handler) brisk.Handler {
	if !cfg.Compress {
		return func(h brisk.Handler) brisk.Handler { return h }
	}
	return compress.New(compress.Config{})
}
