package brisk

// Key is the typed key of a per-request value that middleware stores on
// the Ctx for the handlers it wraps (a user, a request ID, a logger).
// Keys are compared by identity: make each with NewKey, once, in a
// package-level variable, and do not copy a Key.
//
// A value is valid until the handler returns: the server clears every
// value before the next request on the connection. Set and Get do not
// allocate for the first four keys set on a request, past the first
// request of the connection that sets one (the storage, and more keys,
// are grown once per connection); storing v itself allocates as any
// conversion to an interface does, so it does not when T is a pointer,
// map, chan or func type.
type Key[T any] struct{ id keyID }

// keyID is what identifies a Key in the Ctx, whatever its T.
type keyID struct{ name string }

// NewKey returns a new key; name is for debugging (String).
func NewKey[T any](name string) *Key[T] { return &Key[T]{keyID{name}} }

// String returns the name given to NewKey.
func (k *Key[T]) String() string { return k.id.name }

// ctxValue is one per-request value: a Key[T]'s id and its T.
type ctxValue struct {
	key *keyID
	v   any
}

// Set stores v for k on c, replacing a value set before.
func (k *Key[T]) Set(c *Ctx, v T) {
	s := &c.route
	for i := range s.values {
		if s.values[i].key == &k.id {
			s.values[i].v = v
			return
		}
	}
	if s.values == nil {
		s.values = make([]ctxValue, 0, inlineValues)
	}
	s.values = append(s.values, ctxValue{&k.id, v})
}

// Get returns the value set for k on c by Set during this request, and
// whether there is one.
func (k *Key[T]) Get(c *Ctx) (v T, ok bool) {
	for _, x := range c.route.values {
		if x.key == &k.id {
			return x.v.(T), true
		}
	}
	return v, false
}
