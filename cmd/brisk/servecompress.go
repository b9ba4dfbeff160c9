package main

import "flag"

// compressOptions is the -compress flag of `brisk serve`.
type compressOptions struct {
	compress bool // compress the home page and /static/ (site.Config.Compress)
}

// register adds -compress to fs, on by default.
func (o *compressOptions) register(fs *flag.FlagSet) {
	fs.BoolVar(&o.compress, "compress", true, "compress the home page and /static/ files with zstd, br or gzip by Accept-Encoding,\n"+
		"and serve a file's .zst, .br or .gz sibling instead when there is one (-compress=false: send them as is)")
}
