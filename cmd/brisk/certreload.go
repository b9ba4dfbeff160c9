package main

import (
	"crypto/tls"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// certCheckEvery is how often the -cert and -key files are looked at for
// a change (a renewal by certbot or cert-manager): a stat of each.
const certCheckEvery = 2 * time.Second

// certReloader serves the certificate of -cert and -key, reloaded
// without a restart when either file changes (size, modification time or
// inode: a symbolic link switched to new files counts). A pair that does
// not load (a renewal half written, a key that does not match) is logged
// and the previous certificate kept; it is tried again at the next
// change.
type certReloader struct {
	certFile, keyFile string
	logger            *slog.Logger
	cert              atomic.Pointer[tls.Certificate]

	mu    sync.Mutex
	stamp string // of the files as last loaded or tried
	stop  chan struct{}
}

// newCertReloader loads the pair; an error when it does not load.
func newCertReloader(certFile, keyFile string, logger *slog.Logger) (*certReloader, error) {
	r := &certReloader{certFile: certFile, keyFile: keyFile, logger: logger}
	r.stamp = r.fileStamp()
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, err
	}
	r.cert.Store(&cert)
	return r, nil
}

// getCertificate is the tls.Config.GetCertificate of the server.
func (r *certReloader) getCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	return r.cert.Load(), nil
}

// fileStamp describes both files as stat sees them through links.
func (r *certReloader) fileStamp() string {
	s := ""
	for _, name := range []string{r.certFile, r.keyFile} {
		fi, err := os.Stat(name)
		if err != nil {
			s += "missing;"
			continue
		}
		s += fmt.Sprintf("%d:%d:%v;", fi.Size(), fi.ModTime().UnixNano(), inode(fi))
	}
	return s
}

// check reloads the pair if the files changed since the last check and
// reports whether a new certificate is served.
func (r *certReloader) check() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	stamp := r.fileStamp()
	if stamp == r.stamp {
		return false
	}
	r.stamp = stamp
	cert, err := tls.LoadX509KeyPair(r.certFile, r.keyFile)
	if err != nil {
		r.logger.Error("brisk: certificate not reloaded; serving the previous one", "cert", r.certFile, "key", r.keyFile, "err", err)
		return false
	}
	r.cert.Store(&cert)
	r.logger.Info("brisk: certificate reloaded", "cert", r.certFile, "subject", cert.Leaf.Subject.String(),
		"not_after", cert.Leaf.NotAfter.UTC().Format(time.RFC3339))
	return true
}

// watch checks the files every period until close.
func (r *certReloader) watch(period time.Duration) {
	r.stop = make(chan struct{})
	go func(stop chan struct{}) {
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				r.check()
			case <-stop:
				return
			}
		}
	}(r.stop)
}

// close stops watching.
func (r *certReloader) close() {
	if r != nil && r.stop != nil {
		close(r.stop)
		r.stop = nil
	}
}
