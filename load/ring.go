package load

// ring is the FIFO of requests in flight on one connection: for each, the
// time (ns since the run started) its latency is measured from. Responses
// arrive in request order (RFC 9112 §9.3.2), so the oldest entry belongs
// to the next response.
type ring struct {
	t          []int64 // capacity = pipeline depth
	head, size int
}

func newRing(n int) ring { return ring{t: make([]int64, n)} }

func (r *ring) len() int { return r.size }

func (r *ring) full() bool { return r.size == len(r.t) }

func (r *ring) push(t int64) {
	i := r.head + r.size
	if i >= len(r.t) {
		i -= len(r.t)
	}
	r.t[i] = t
	r.size++
}

// oldest returns the time of the oldest entry; the ring must not be empty.
func (r *ring) oldest() int64 { return r.t[r.head] }

func (r *ring) pop() int64 {
	t := r.t[r.head]
	if r.head++; r.head == len(r.t) {
		r.head = 0
	}
	r.size--
	return t
}

func (r *ring) clear() { r.head, r.size = 0, 0 }
