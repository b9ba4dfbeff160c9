package websocket_test

import (
	"bytes"
	"net"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/h2"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// TestHTTP2ExtendedConnect: RFC 8441's WebSocket over HTTP/2 is not
// supported: the server does not announce SETTINGS_ENABLE_CONNECT_PROTOCOL,
// and a CONNECT with :protocol websocket is reset (PROTOCOL_ERROR) before
// any handler runs.
func TestHTTP2ExtendedConnect(t *testing.T) {
	called := make(chan struct{}, 1)
	srv := &brisk.Server{H2C: true, Handler: func(c *brisk.Ctx) { called <- struct{}{} }}
	if err := h2.Configure(srv, h2.Config{}); err != nil {
		t.Fatal(err)
	}
	addr := listenTCP(t, srv, nil)
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(10 * time.Second))
	nc.Write([]byte(http2.ClientPreface))
	fr := http2.NewFramer(nc, nc)
	fr.WriteSettings()
	var block bytes.Buffer
	enc := hpack.NewEncoder(&block)
	for _, f := range [][2]string{{":method", "CONNECT"}, {":protocol", "websocket"}, {":scheme", "http"},
		{":path", "/ws"}, {":authority", addr}, {"sec-websocket-version", "13"}} {
		enc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]})
	}
	fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: block.Bytes(), EndHeaders: true})
	for {
		f, err := fr.ReadFrame()
		if err != nil {
			t.Fatalf("no RST_STREAM for the extended CONNECT: %v", err)
		}
		if s, ok := f.(*http2.SettingsFrame); ok {
			if v, ok := s.Value(http2.SettingEnableConnectProtocol); ok && v != 0 {
				t.Errorf("the server announces SETTINGS_ENABLE_CONNECT_PROTOCOL = %d", v)
			}
		}
		if _, ok := f.(*http2.HeadersFrame); ok {
			t.Fatal("the extended CONNECT was answered")
		}
		if r, ok := f.(*http2.RSTStreamFrame); ok {
			if r.StreamID != 1 || r.ErrCode != http2.ErrCodeProtocol {
				t.Errorf("RST_STREAM %d %v, want stream 1 PROTOCOL_ERROR", r.StreamID, r.ErrCode)
			}
			break
		}
	}
	select {
	case <-called:
		t.Error("the handler ran for an extended CONNECT")
	default:
	}
}
