// Package files serves files over brisk: Server answers requests from a
// file system (an os.Root, an embed.FS, an fstest.MapFS) and ServeContent
// answers one with any io.ReadSeeker, both with validators, conditional
// requests (RFC 9110 §13), byte ranges (§14), media types and, for a
// Server, precompressed siblings and a cache of small files:
//
//	root, err := os.OpenRoot("public") // no request can leave the directory
//	if err != nil {
//		log.Fatal(err)
//	}
//	fsrv := &files.Server{FS: root.FS(), Prefix: "/static/", Precompressed: true}
//	s := &brisk.Server{Handler: fsrv.Handle}
//	log.Fatal(s.ListenAndServe(":8080"))
//
// A file on a plain TCP connection goes out by sendfile(2) through
// brisk.BodyWriter.ReadFromN; a request answered from the cache allocates
// nothing. The package uses only brisk's exported API (and the module's
// internal helpers for Accept-Encoding, entity-tags and ASCII).
package files
