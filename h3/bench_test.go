//go:build unix

package h3

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/brisk-http/brisk/h2"
	"github.com/quic-go/quic-go/http3"
)

// BenchmarkGet measures GETs of a 1 KiB and a 1 MiB body on loopback,
// 32 requests in flight, from a client in a child process (this test
// binary, TestLoadClient), over: brisk's handler on HTTP/3 (this
// package), a plain http.Handler on quic-go's http3.Server (the
// hand-over's overhead is the ratio of the two), and brisk over h2 and
// HTTP/1.1 on TLS. It reports the server process's CPU time (user and
// system) per request as cpu-ns/op, its allocations per request as
// srv-allocs/op and srv-B/op, and ns/op the wall time. bench/h3.sh
// runs it interleaved.
func BenchmarkGet(b *testing.B) {
	certs := brisktest.NewTLSCerts()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	for _, size := range []int{1 << 10, 1 << 20} {
		body := make([]byte, size)
		briskHandler := func(c *brisk.Ctx) { c.Response.SetBody(body) }
		if size > 64<<10 { // as the http.Handler writes it: SetBody would copy it first
			length := strconv.Itoa(size)
			briskHandler = func(c *brisk.Ctx) {
				c.Response.Header.Set("Content-Length", length)
				c.BodyWriter().Write(body)
			}
		}
		name := map[int]string{1 << 10: "1KiB", 1 << 20: "1MiB"}[size]
		b.Run(name+"/brisk-h3", func(b *testing.B) {
			srv := &brisk.Server{Handler: briskHandler, TLSConfig: certs.ServerConfig(), Logger: quiet}
			s3, err := Configure(srv, Config{})
			if err != nil {
				b.Fatal(err)
			}
			pc := listenUDP(b)
			go s3.Serve(pc)
			defer srv.Shutdown(context.Background())
			load(b, "h3", pc.LocalAddr().String(), size)
		})
		b.Run(name+"/quic-go-h3", func(b *testing.B) {
			s := &http3.Server{TLSConfig: certs.ServerConfig(), Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Length", strconv.Itoa(len(body)))
				w.Write(body)
			})}
			pc := listenUDP(b)
			go s.Serve(pc)
			defer s.Close()
			load(b, "h3", pc.LocalAddr().String(), size)
		})
		for _, proto := range []string{"h2", "h1"} {
			b.Run(name+"/brisk-"+proto, func(b *testing.B) {
				srv := &brisk.Server{Handler: briskHandler, TLSConfig: certs.ServerConfig(), Logger: quiet}
				if err := h2.Configure(srv, h2.Config{}); err != nil {
					b.Fatal(err)
				}
				ln, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					b.Fatal(err)
				}
				go srv.ServeTLS(ln, "", "")
				defer srv.Shutdown(context.Background())
				load(b, proto, ln.Addr().String(), size)
			})
		}
	}
}

// loadInFlight is the number of requests the load client keeps in flight.
const loadInFlight = 32

// load runs b.N GETs of https://addr/ over proto ("h3", "h2", "h1") from
// a child process, each answered with size bytes, and reports the
// process's CPU time per request: the server's alone, the child's being
// its own.
func load(b *testing.B, proto, addr string, size int) {
	b.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLoadClient$", "-test.count=1")
	cmd.Env = append(os.Environ(), "BRISK_H3_LOAD="+strings.Join([]string{proto, addr, strconv.Itoa(b.N), strconv.Itoa(size)}, ","))
	cmd.Stderr = os.Stderr
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	lines := bufio.NewScanner(stdout)
	if !lines.Scan() || lines.Text() != "ready" {
		b.Fatalf("load client: %q %v", lines.Text(), lines.Err())
	}
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	b.ResetTimer()
	cpu0 := cpuTime()
	io.WriteString(stdin, "go\n")
	if !lines.Scan() || lines.Text() != "done" {
		b.Fatalf("load client: %q %v", lines.Text(), lines.Err())
	}
	cpu := cpuTime() - cpu0
	b.StopTimer()
	runtime.ReadMemStats(&m1)
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(m1.Mallocs-m0.Mallocs)/float64(b.N), "srv-allocs/op")
	b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/float64(b.N), "srv-B/op")
}

// cpuTime is the user and system CPU time of this process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestLoadClient is BenchmarkGet's load client, run in a child process
// with BRISK_H3_LOAD set to "proto,addr,n,size"; it skips otherwise. It
// warms its connection up, says "ready", waits for a line on stdin, runs
// n GETs loadInFlight at a time, checks their length and says "done".
func TestLoadClient(t *testing.T) {
	spec := os.Getenv("BRISK_H3_LOAD")
	if spec == "" {
		t.Skip("BenchmarkGet's load client: runs in its child process")
	}
	f := strings.Split(spec, ",")
	proto, addr := f[0], f[1]
	n, _ := strconv.Atoi(f[2])
	size, _ := strconv.ParseInt(f[3], 10, 64)
	tlsConf := brisktest.NewTLSCerts().ClientConfig()
	tlsConf.InsecureSkipVerify = true // the parent's certificate: loopback only
	var rt http.RoundTripper
	switch proto {
	case "h3":
		tr := &http3.Transport{TLSClientConfig: tlsConf}
		defer tr.Close()
		rt = tr
	default:
		var protos http.Protocols
		protos.SetHTTP2(proto == "h2")
		protos.SetHTTP1(proto == "h1")
		tr := &http.Transport{TLSClientConfig: tlsConf, Protocols: &protos, MaxIdleConnsPerHost: loadInFlight}
		defer tr.CloseIdleConnections()
		rt = tr
	}
	client := &http.Client{Transport: rt, Timeout: time.Minute}
	get := func(count int) {
		jobs := make(chan struct{}, count)
		for range count {
			jobs <- struct{}{}
		}
		close(jobs)
		done := make(chan struct{})
		for range loadInFlight {
			go func() {
				defer func() { done <- struct{}{} }()
				for range jobs {
					resp, err := client.Get("https://" + addr + "/")
					if err != nil {
						t.Error(err)
						return
					}
					m, err := io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if err != nil || m != size {
						t.Errorf("read %d bytes: %v", m, err)
						return
					}
				}
			}()
		}
		for range loadInFlight {
			<-done
		}
	}
	get(2 * loadInFlight) // connections up and warm
	os.Stdout.WriteString("ready\n")
	bufio.NewReader(os.Stdin).ReadString('\n')
	get(n)
	if !t.Failed() {
		os.Stdout.WriteString("done\n")
	}
}

func listenUDP(b *testing.B) net.PacketConn {
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { pc.Close() })
	return pc
}
