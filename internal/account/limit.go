package account

import (
	"math"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Limits bound failed sign-ins with a password.
type Limits struct {
	// PerAddress: the failures one client address may make, at all
	// accounts: a burst, then Rate a second. Defaults 10 and 1/30.
	AddressBurst int
	AddressRate  float64
	// PerAccount: the failures one account may take from addresses that
	// never signed in to it. Defaults 5 and 1/60.
	AccountBurst int
	AccountRate  float64
	// Remember is how long an address that signed in to an account stays
	// trusted by it; default 30 days.
	Remember time.Duration
}

// DefaultLimits returns the defaults of Limits.
func DefaultLimits() Limits {
	return Limits{AddressBurst: 10, AddressRate: 1.0 / 30, AccountBurst: 5, AccountRate: 1.0 / 60, Remember: 30 * 24 * time.Hour}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.AddressBurst <= 0 {
		l.AddressBurst = d.AddressBurst
	}
	if l.AddressRate <= 0 {
		l.AddressRate = d.AddressRate
	}
	if l.AccountBurst <= 0 {
		l.AccountBurst = d.AccountBurst
	}
	if l.AccountRate <= 0 {
		l.AccountRate = d.AccountRate
	}
	if l.Remember <= 0 {
		l.Remember = d.Remember
	}
	return l
}

// maxKeys bounds the buckets and trusted pairs remembered: past it, the
// full buckets and the oldest pairs are forgotten.
const maxKeys = 100000

// limiter holds the buckets of failed sign-ins.
type limiter struct {
	lim     Limits
	mu      sync.Mutex
	address map[string]*rate.Limiter
	account map[string]*rate.Limiter
	trusted map[[2]string]time.Time // (account key, address) -> last sign-in
}

func newLimiter(l Limits) *limiter {
	return &limiter{lim: l, address: map[string]*rate.Limiter{}, account: map[string]*rate.Limiter{}, trusted: map[[2]string]time.Time{}}
}

// An attempt holds the reservations of one sign-in: kept if it fails,
// given back if it succeeds.
type attempt struct {
	l            *limiter
	key, client  string
	now          time.Time
	reservations []*rate.Reservation
}

// begin reserves one failure of the account (by name key) from client,
// or returns ErrRateLimited with the wait.
func (l *limiter) begin(key, client string, now time.Time) (*attempt, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	a := &attempt{l: l, key: key, client: client, now: now}
	buckets := []*rate.Limiter{bucket(l.address, client, l.lim.AddressRate, l.lim.AddressBurst, now)}
	if t, ok := l.trusted[[2]string{key, client}]; !ok || now.Sub(t) > l.lim.Remember {
		buckets = append(buckets, bucket(l.account, key, l.lim.AccountRate, l.lim.AccountBurst, now))
	}
	var wait time.Duration
	for _, b := range buckets {
		r := b.ReserveN(now, 1)
		a.reservations = append(a.reservations, r)
		wait = max(wait, r.DelayFrom(now))
	}
	if wait > 0 {
		a.cancelLocked()
		return nil, &Error{Kind: ErrRateLimited, RetryAfter: wait,
			Msg: "too many failed sign-ins from your address or at this account: try again in " + seconds(wait)}
	}
	return a, nil
}

// bucket returns the bucket of key in m, made if new.
func bucket(m map[string]*rate.Limiter, key string, r float64, burst int, now time.Time) *rate.Limiter {
	b, ok := m[key]
	if !ok {
		if len(m) >= maxKeys {
			for k, o := range m {
				if o.TokensAt(now) >= float64(burst) {
					delete(m, k)
				}
			}
		}
		b = rate.NewLimiter(rate.Limit(r), burst)
		m[key] = b
	}
	return b
}

// cancel gives the reservations back: the attempt did not count.
func (a *attempt) cancel() {
	a.l.mu.Lock()
	defer a.l.mu.Unlock()
	a.cancelLocked()
}

func (a *attempt) cancelLocked() {
	for _, r := range a.reservations {
		r.CancelAt(a.now)
	}
}

// succeeded gives the reservations back and trusts the address for the
// account from now on.
func (a *attempt) succeeded(now time.Time) {
	a.l.mu.Lock()
	defer a.l.mu.Unlock()
	a.cancelLocked()
	if len(a.l.trusted) >= maxKeys {
		for k, t := range a.l.trusted {
			if now.Sub(t) > a.l.lim.Remember/2 {
				delete(a.l.trusted, k)
			}
		}
	}
	a.l.trusted[[2]string{a.key, a.client}] = now
}

// seconds spells a wait in whole seconds, rounded up.
func seconds(d time.Duration) string {
	n := int(math.Ceil(d.Seconds()))
	if n == 1 {
		return "1 second"
	}
	return strconv.Itoa(n) + " seconds"
}
