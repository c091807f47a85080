package httpapi

import (
	"fmt"
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/razziagame/razzia/internal/protocol"
)

// maxClients bounds the clients whose limits are remembered: past it, the
// clients whose buckets are full again are forgotten first.
const maxClients = 10000

// clientRate is a token bucket per client: what one address may do.
type clientRate struct {
	what  string // "tables created", "seats taken", for the message
	rate  rate.Limit
	burst int

	mu      sync.Mutex
	clients map[string]*rate.Limiter
}

func newClientRate(what string, perSecond float64, burst int) *clientRate {
	return &clientRate{what: what, rate: rate.Limit(perSecond), burst: burst, clients: map[string]*rate.Limiter{}}
}

// allow takes one from the client's bucket at now, or answers
// rate_limited with the wait.
func (c *clientRate) allow(client string, now time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	l, ok := c.clients[client]
	if !ok {
		if len(c.clients) >= maxClients {
			c.forget(now)
		}
		l = rate.NewLimiter(c.rate, c.burst)
		c.clients[client] = l
	}
	if l.AllowN(now, 1) {
		return nil
	}
	wait := time.Duration(math.Ceil((1 - l.TokensAt(now)) / float64(c.rate) * float64(time.Second)))
	return rateLimited(wait, "too many %s from your address: at most %d at once and %s a minute", c.what, c.burst, perMinute(c.rate))
}

// forget drops the clients whose buckets are full: they are as if new.
func (c *clientRate) forget(now time.Time) {
	for k, l := range c.clients {
		if l.TokensAt(now) >= float64(c.burst) {
			delete(c.clients, k)
		}
	}
}

func perMinute(r rate.Limit) string {
	return fmt.Sprint(math.Round(float64(r)*60*100) / 100)
}

// rateLimited is the rate_limited error with its wait in whole seconds.
func rateLimited(wait time.Duration, format string, args ...any) *apiError {
	e := newError(protocol.RateLimited, format, args...)
	e.obj.RetryAfter = retrySeconds(wait)
	return e
}

// retrySeconds rounds a wait up to whole seconds, at least one.
func retrySeconds(d time.Duration) int {
	return max(1, int(math.Ceil(d.Seconds())))
}

// connCount counts the WebSockets of each client.
type connCount struct {
	mu sync.Mutex
	n  map[string]int
}

// add counts one more connection of the client unless it has max.
func (c *connCount) add(client string, max int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n[client] >= max {
		return false
	}
	if c.n == nil {
		c.n = map[string]int{}
	}
	c.n[client]++
	return true
}

func (c *connCount) done(client string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n[client]--; c.n[client] <= 0 {
		delete(c.n, client)
	}
}
