// Command rest is a REST CRUD service on brisk: items kept in memory,
// JSON in and out with a body limit, JSON error bodies for every error
// (the router's 404 and 405 included), request IDs, panic recovery and
// an access log.
//
//	go run ./examples/rest # listens on :8080
//	curl -d '{"name":"pen"}' -H 'Content-Type: application/json' localhost:8080/items
package main

import (
	"log/slog"
	"net/http"
	"os"
	"strconv"
	"sync"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/middleware"
	"github.com/brisk-http/brisk/router"
)

// Item is what the service stores.
type Item struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

// maxBody is the largest request body accepted, in bytes.
const maxBody = 64 << 10

// store holds the items.
type store struct {
	mu    sync.Mutex
	items map[int]Item
	next  int
}

// newServer returns the service's Server, logging to logger.
func newServer(logger *slog.Logger) *brisk.Server {
	s := &store{items: map[int]Item{}}
	r := router.New()
	r.Use(middleware.RequestID(middleware.RequestIDConfig{}), middleware.Recovery(logger))
	r.Handle("GET /items", s.list)
	r.Handle("POST /items", s.create)
	r.Handle("GET /items/{id}", s.get)
	r.Handle("PUT /items/{id}", s.update)
	r.Handle("DELETE /items/{id}", s.remove)
	access := &middleware.AccessLog{Logger: logger}
	return &brisk.Server{Handler: r.Serve, Logger: logger, OnRequestDone: access.OnRequestDone, OnReject: access.OnReject,
		MaxBodyBytes: maxBody, ErrorHandler: jsonError}
}

// jsonError shapes every error response brisk generates.
func jsonError(c *brisk.Ctx, code int, err error) {
	c.JSON(code, map[string]string{"error": http.StatusText(code)})
}

func (s *store) list(c *brisk.Ctx) {
	s.mu.Lock()
	defer s.mu.Unlock()
	items := make([]Item, 0, len(s.items))
	for _, it := range s.items {
		items = append(items, it)
	}
	c.JSON(200, items)
}

func (s *store) create(c *brisk.Ctx) {
	var it Item
	if c.DecodeJSON(&it, maxBody) != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next++
	it.ID = s.next
	s.items[it.ID] = it
	c.JSON(201, it)
}

// find returns the item the path names, or answers 404.
func (s *store) find(c *brisk.Ctx) (Item, bool) {
	id, _ := strconv.Atoi(string(c.Param("id")))
	it, ok := s.items[id]
	if !ok {
		c.Error(404, nil)
	}
	return it, ok
}

func (s *store) get(c *brisk.Ctx) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if it, ok := s.find(c); ok {
		c.JSON(200, it)
	}
}

func (s *store) update(c *brisk.Ctx) {
	var in Item
	if c.DecodeJSON(&in, maxBody) != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if it, ok := s.find(c); ok {
		it.Name = in.Name
		s.items[it.ID] = it
		c.JSON(200, it)
	}
}

func (s *store) remove(c *brisk.Ctx) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if it, ok := s.find(c); ok {
		delete(s.items, it.ID)
		c.Response.SetStatusCode(204)
	}
}

func main() {
	logger := slog.New(slog.NewJSONHandler(os.Stdout, nil))
	err := newServer(logger).ListenAndServe(":8080")
	logger.Error("serve", "err", err)
	os.Exit(1)
}
