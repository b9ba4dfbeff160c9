package brisk

import (
	"sync/atomic"
	"time"
)

// dateLen is the length of an IMF-fixdate, "Sun, 06 Nov 1994 08:49:37 GMT"
// (RFC 9110 §5.6.7).
const dateLen = 29

// dateLayout is the time layout of an IMF-fixdate, in UTC.
const dateLayout = "Mon, 02 Jan 2006 15:04:05 GMT"

// dateCache holds the current Date field value, refreshed once per second
// by a ticker goroutine that runs while the Server serves. Responses copy
// the cached bytes: formatting the date per response would cost more than
// the rest of the response head.
type dateCache struct {
	cur  atomic.Pointer[dateValue]
	stop chan struct{}
}

// dateValue is one refresh: the formatted date and the time it was taken,
// which doubles as a coarse clock for long timeouts.
type dateValue struct {
	text [dateLen]byte
	ns   int64 // the time of the refresh, Unix ns
}

// start formats the current date and begins refreshing it every second
// until halt is called.
func (d *dateCache) start() {
	d.refresh(time.Now())
	d.stop = make(chan struct{})
	go d.run(d.stop)
}

func (d *dateCache) run(stop chan struct{}) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case now := <-t.C:
			d.refresh(now)
		case <-stop:
			return
		}
	}
}

// halt stops the refreshing goroutine; get keeps returning the last value.
func (d *dateCache) halt() {
	if d.stop != nil {
		close(d.stop)
		d.stop = nil
	}
}

func (d *dateCache) refresh(now time.Time) {
	v := &dateValue{ns: now.UnixNano()}
	now.UTC().AppendFormat(v.text[:0], dateLayout)
	d.cur.Store(v)
}

// get returns the cached Date value. The slice must not be modified.
func (d *dateCache) get() []byte {
	p := d.cur.Load()
	if p == nil { // not serving: compute on demand
		d.refresh(time.Now())
		p = d.cur.Load()
	}
	return p.text[:]
}

// coarseUnixNano returns the time of the last refresh, in Unix ns: at
// most about a second behind time.Now, and much cheaper.
func (d *dateCache) coarseUnixNano() int64 {
	if p := d.cur.Load(); p != nil {
		return p.ns
	}
	return time.Now().UnixNano()
}
