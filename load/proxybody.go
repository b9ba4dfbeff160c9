package load

import (
	"fmt"
	"io"
	"net/url"
	"os"

	"github.com/brisk-http/brisk/internal/basicauth"
)

// Sending the load through an HTTP proxy (Config.Proxy), and bodies read
// from a file for each request (Config.BodyFile).

// applyProxy points p at the proxy of c, when there is one: connections
// go to the proxy and requests carry the absolute-form target (RFC 9112
// §3.2.2) and Basic Proxy-Authorization from the proxy URL's user. It
// returns the request-target and the extra field lines.
func applyProxy(p *plan, c Config, u *url.URL) (target string, fields []string, err error) {
	if c.Proxy == "" {
		return u.RequestURI(), nil, nil
	}
	pu, err := url.Parse(c.Proxy)
	if err != nil || pu.Scheme != "http" || pu.Host == "" {
		return "", nil, ErrProxy
	}
	p.addr = dialAddr(pu)
	abs := *u
	abs.Fragment, abs.RawFragment, abs.User = "", "", nil
	if abs.Path == "" {
		abs.Path = "/"
	}
	if pu.User != nil {
		fields = append(fields, "Proxy-Authorization: "+basicauth.FromUserinfo(pu.User))
	}
	return abs.String(), fields, nil
}

// bodyFileSize returns the size of c.BodyFile, checking that it can be
// opened; -1 when there is none.
func bodyFileSize(c Config) (int64, error) {
	if c.BodyFile == "" {
		return -1, nil
	}
	f, err := os.Open(c.BodyFile)
	if err != nil {
		return 0, fmt.Errorf("load: body file: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, fmt.Errorf("load: body file: %w", err)
	}
	if !st.Mode().IsRegular() {
		return 0, fmt.Errorf("load: body file %s: not a regular file", c.BodyFile)
	}
	return st.Size(), nil
}

// writeWithFile writes n requests, each the head p.request followed by
// the body file, read from the file for each one (with sendfile on a TCP
// connection where the system has it), so that memory does not grow
// with the body. The worker keeps the file open.
func (w *worker) writeWithFile(n int) error {
	if w.body == nil {
		f, err := os.Open(w.p.bodyFile)
		if err != nil {
			return err
		}
		w.body = f
	}
	for range n {
		if _, err := w.conn.Write(w.p.request); err != nil {
			return err
		}
		if _, err := w.body.Seek(0, io.SeekStart); err != nil {
			return err
		}
		m, err := io.Copy(w.conn, &io.LimitedReader{R: w.body, N: w.p.bodySize})
		if err == nil && m < w.p.bodySize {
			err = io.ErrUnexpectedEOF // the file shrank
		}
		if err != nil {
			return err
		}
	}
	return nil
}
