module github.com/brisk-http/brisk/bench

go 1.26.0

replace github.com/brisk-http/brisk => ../

require (
	github.com/brisk-http/brisk v0.0.0-00010101000000-000000000000
	github.com/fasthttp/router v1.5.4
	github.com/go-chi/chi/v5 v5.5.0
	github.com/julienschmidt/httprouter v1.3.0
	github.com/lesismal/nbio v1.6.8
	github.com/pires/go-proxyproto v0.15.0
	github.com/valyala/fasthttp v1.79.0
)

require (
	github.com/gobwas/httphead v0.1.0 // indirect
	github.com/gobwas/ws v1.5.0 // indirect
)

require (
	github.com/klauspost/compress v1.20.4 // indirect
	github.com/lesismal/llib v1.2.2 // indirect
	github.com/molecule-man/go-brrr v1.3.1 // indirect
	github.com/savsgio/gotils v0.0.0-20240704082632-aef3928b8a38 // indirect
	github.com/valyala/bytebufferpool v1.0.0 // indirect
	golang.org/x/crypto v0.58.0 // indirect
	golang.org/x/net v0.62.0
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)
