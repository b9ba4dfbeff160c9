// Package advisories holds a regression test for every published
// advisory against Go HTTP stacks (net/http, golang.org/x/net/http2,
// fasthttp, fiber, hertz, gin, echo) and their peers, reproduced in the
// advisory's shape against brisk's public API: the server, the client,
// the net/http adaptor, the HTTP/2 hand-over, the router, the file
// server, compression and multipart forms. Each test asserts brisk's
// bounded, correct behaviour (the status, the closed connection, the
// exact error, a bound on bytes read, allocations, goroutines or
// handlers) and is bounded in time; all run on loopback. The package has
// no API.
//
// Advisory → test (or why it does not apply):
//
//	CVE-2022-41723 (x/net hpack, quadratic decoding)          TestCVE_2022_41723_HPACKAmplification/CVE-2022-41723
//	CVE-2026-49975 (HPACK bomb, dynamic-table amplification)  TestCVE_2022_41723_HPACKAmplification/CVE-2026-49975
//	CVE-2023-44487, CVE-2023-39325 (h2 rapid reset)           TestCVE_2023_44487_RapidReset
//	CVE-2025-8671 (MadeYouReset)                              TestCVE_2025_8671_MadeYouReset
//	CVE-2023-45288 (h2 CONTINUATION flood)                    TestCVE_2023_45288_ContinuationFlood
//	CVE-2019-9512, CVE-2019-9515 (h2 PING, SETTINGS floods)   TestCVE_2019_9512_PingFlood
//	CVE-2026-27141 (h2 frame types 0x0a-0x0f)                 TestCVE_2026_27141_FrameTypes0A0F
//	CVE-2026-56853 (unencrypted HTTP/2 deadlines)             TestCVE_2026_56853_H2CTimeouts (slow_handler skipped: h2cDeadlineCleared)
//	CVE-2022-41721 (h2c upgrade smuggling)                    TestCVE_2022_41721_NoH2CUpgrade
//	Netty CVE-2021-21295, CVE-2021-21409, Apache              TestH2Downgrade
//	  CVE-2021-33193, HAProxy CVE-2021-39240, CVE-2021-39241
//	  (smuggling through the HTTP/2 to HTTP/1.1 downgrade)
//	CVE-2023-39326 (chunk extension overhead)                 TestCVE_2023_39326_ChunkExtensions
//	CVE-2025-22871 (bare LF in chunked framing)               TestH1Smuggling/CVE-2025-22871, TestResponseFraming/CVE-2025-22871
//	CVE-2026-2332 (Jetty), CVE-2025-55315 (Kestrel)           TestH1Smuggling/CVE-2026-2332, TestH1Smuggling/CVE-2025-55315
//	fasthttp PRs 1719, 1794, 1899, 2330 (CL/TE, CR/NUL,       TestH1Smuggling/fasthttp-*, TestResponseFraming/fasthttp-*
//	  LF in chunk-ext, TE on HTTP/1.0)
//	fasthttp PR 2182 (CRLF through first-line setters)        TestCVE_2023_29406_RequestSplitting, TestResponseSplitting
//	CVE-2023-29406 (client Host header injection)             TestCVE_2023_29406_RequestSplitting
//	CVE-2019-16276 (whitespace before the colon)              TestH1Smuggling/CVE-2019-16276
//	CVE-2022-1705 (Transfer-Encoding read as chunked)         TestH1Smuggling/CVE-2022-1705, TestResponseFraming/CVE-2022-1705
//	golang/go#79363, HTTP Garden (obs-fold)                   TestH1Smuggling/http-garden
//	CVE-2023-24534 (allocation per header line)               TestCVE_2023_24534_ManyFieldLines
//	CVE-2025-61724 (response head CPU, client)                TestCVE_2025_61724_ResponseHeadFlood
//	CVE-2026-42507 (unescaped input in errors)                TestCVE_2026_42507_NoEcho, TestCVE_2026_42507_ClientErrors
//	CVE-2025-58186 (cookie count)                             TestCVE_2025_58186_CookieFlood
//	CVE-2025-61726 (query/form parameter count)               TestCVE_2025_61726_FormParamFlood
//	CVE-2026-39825 (parameters hidden past a limit, proxy)    TestCVE_2026_39825_NoHiddenParams
//	CVE-2023-24536 (multipart parts and headers)              TestCVE_2023_24536_TooManyParts, TestCVE_2023_24536_ManyPartHeaders
//	CVE-2023-45290 (multipart long lines)                     TestCVE_2023_45290_LongLine
//	CVE-2022-41725 (multipart temporary files)                TestCVE_2022_41725_TempFiles
//	golang/vulndb#4950 (fasthttp, "%2561" decoded twice)      TestVulnDB4950_DecodedOnce, TestFileServerTraversal
//	hertz CVE-2022-40082, fasthttp CVE-2022-21221,            TestFileServerTraversal
//	  CVE-2022-41722 (traversal through normalisation, "\")
//	CVE-2011-3192 (overlapping byte ranges)                   TestCVE_2011_3192_RangeAmplification
//	echo CVE-2022-40083, gin CVE-2023-26125 (open redirect)   TestCVE_2022_40083_OpenRedirect
//	fiber X-Real-IP spoofing, fiber CVE-2023-41338,           TestClientAddressSpoofing, TestFromHTTPRemoteAddr
//	  gin CVE-2020-28483 (forged client address)
//	CVE-2023-45289, CVE-2024-45336, CVE-2025-4673             TestCVE_2024_45336_RedirectCredentials
//	  (credentials kept across redirects)
//	CVE-2024-24791 (Expect: 100-continue, final status)       TestCVE_2024_24791_ExpectContinueFinalStatus
//	CVE-2026-25679, CVE-2025-47912 (IPv6 host literals)       TestCVE_2026_25679_IPv6Literal
//	CVE-2025-22870 (NO_PROXY and IPv6 zones)                  TestCVE_2025_22870_NoProxyZone
//	CWE-409 decompression bombs (client and compress)         TestCWE409_ResponseDecompressionBomb, TestCWE409_RequestDecompressionBomb
//
// Not applicable:
//
//	CVE-2026-33814 (h2 client loops on SETTINGS_MAX_FRAME_SIZE 0)  brisk's Client speaks HTTP/2 only with ClientConfig.HTTP2, through x/net/http2, fixed in the version go.mod requires (h2's TestClientH2MaxFrameSizeZero).
//	CVE-2026-94441 (h2c connection reused for https)              brisk's Client has no h2c: HTTP/2 only over TLS, its connections pooled per https origin.
//	CVE-2022-2880, CVE-2022-32148, CVE-2021-33197 (ReverseProxy)  brisk has no reverse proxy; one built on Args sees every parameter (TestCVE_2026_39825_NoHiddenParams).
//	CVE-2022-41717, CVE-2021-44716 (h2 header-key cache growth)   inside x/net/http2's server, fixed in the version go.mod requires; no brisk code between.
//	CVE-2022-27664 (h2 closing connection hangs)                  inside x/net/http2's connection loop, fixed in the version go.mod requires.
//	gin CVE-2023-29401 (Content-Disposition filename injection)  brisk writes no Content-Disposition.
//
// A net/http handler served through FromHTTP reads its query with
// net/url, whose limits (urlmaxqueryparams) are the Go toolchain's: a
// net/http reverse proxy run that way has net/http's fix for
// CVE-2026-39825, not brisk's.
package advisories
