package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"golang.org/x/term"

	"github.com/razziagame/razzia/internal/account"
	"github.com/razziagame/razzia/internal/analyst"
	"github.com/razziagame/razzia/internal/botrating"
	"github.com/razziagame/razzia/internal/httpapi"
	"github.com/razziagame/razzia/internal/notify"
	"github.com/razziagame/razzia/internal/puzzler"
	razziaserver "github.com/razziagame/razzia/internal/server"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/table"
	"github.com/razziagame/razzia/internal/web"
)

const serveSynopsis = `
usage: razzia serve [flags]

Serve runs a Razzia server: a lobby page where people create tables, invite
friends with a link, take seats or add bots, play and watch games, and
download their records. Everything is kept in one SQLite file (or, with
--db postgres://..., in PostgreSQL); after a crash or restart every game
continues where it was. One server at a time uses a SQLite file: a second
one on the same file stops at start.

Each flag can also be set in the environment, as RAZZIA_ and its name in
capitals with underscores: --addr as RAZZIA_ADDR, --db as RAZZIA_DB,
--bot-delay as RAZZIA_BOT_DELAY, --trusted-proxies as
RAZZIA_TRUSTED_PROXIES, and so on. A flag wins over the environment.

The limits keep one client, or many, from taking the server: tables
created and seats taken per client address, the tables one address
holds, open tables and games of bots in all, the CPU the bots take
(--bot-workers), connections per address and spectators per game, each
seat's moves, and timeouts for slow or silent clients. The defaults suit
a club server.

Players may register accounts (a password or a passkey) to keep their
seats on every device and to be rated; guests still play without one.
Passkeys are bound to the origin the page is served from: behind a proxy
or under several names, give it with --passkey-origins.

Signed-in players may turn on Web Push notifications on their devices
(the settings page, /account/push): their turn, the game's end, and a
reminder when half of a correspondence decision's time has passed. The
server makes its VAPID key pair at first start and keeps it in the
database; --push-contact tells the push services whom to contact.

Behind a reverse proxy, name it with --trusted-proxies: the client's address is then read from X-Forwarded-For, and cookies are
Secure when X-Forwarded-Proto says https; without it those headers are
ignored.

Every finished game is analysed in the background (--analysis-workers
at once, --analysis-iterations per decision), only while the bots leave
a worker of theirs free; a game left unanalysed by a restart is analysed
after it. The replay page shows the analysis.

Several nodes may serve one PostgreSQL database behind a load balancer
(docs/deploy.md): each runs the games it holds a lease on, passes the
moves of the others to their nodes, and takes over the games of a node
that died after --lease-ttl. /healthz says the process is alive, /readyz
whether it should get clients (its database commits, it is not stopping),
/metrics gives its figures in the Prometheus format.

Stop the server with Ctrl-C (SIGINT) or SIGTERM: it hands its games to
the other nodes at once and tells its clients to reconnect, and ends
with status 0, a stop asked for and done (as systemd expects of a
service), unlike the commands whose work a signal cuts short (130, 143).
`

// The lease times --lease-ttl takes: a shorter one renews too often for
// a database far away, a longer one leaves the games of a dead node
// waiting too long.
const (
	minLeaseTTL = 200 * time.Millisecond
	maxLeaseTTL = time.Minute
)

// serveConfig is what the flags say.
type serveConfig struct {
	addr     string
	db       string
	botDelay time.Duration
	analyst  analyst.Options // Workers 0: no analysis
	// puzzleWorkers search the analysed games for puzzles; 0: none.
	puzzleWorkers int
	origins       []string
	logFormat     string // text or json
	node          string // the node id: the name given and a random suffix
	leaseTTL      time.Duration
	api           httpapi.Options
	// passkeyOrigins are the origins passkeys are bound to; none: the
	// origin of each request.
	passkeyOrigins []string
	limits         table.Limits
	// pushContact is how push services reach the operator (the VAPID subject).
	pushContact string
}

// drainTimeout bounds the hand-over of the games at a graceful stop.
const drainTimeout = 10 * time.Second

// serveGCPercent is the server's garbage collection target unless GOGC
// is set: a collection when the heap has grown by twice what was live
// after the last, half as many as Go's default, for about 0.2 MB more a
// four-player table (docs/deploy.md, "Memory and the garbage collector").
const serveGCPercent = 200

// setGCPercent sets the server's garbage collection target, unless the
// environment (getenv) sets GOGC.
func setGCPercent(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(serveGCPercent)
	}
}

// serve is the "serve" command: it runs until SIGINT or SIGTERM.
func serve(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	setGCPercent(os.Getenv)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serveContext(ctx, args, stdout, stderr)
}

// serveContext is serve until ctx is done, so tests can stop it.
func serveContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, status, done := parseServeFlags(args, stdout, stderr)
	if done {
		return status
	}
	log := newLogger(stderr, cfg.logFormat)
	fail := func(err error) int {
		fmt.Fprintf(stderr, "razzia serve: %v\n", err)
		return 1
	}
	// The address first: a server that cannot listen must not create or
	// change a database.
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return fail(listenError(cfg.addr, err))
	}
	defer ln.Close() // Serve closes it too, once it has started
	// A new SQLite database is said aloud, so that a first "razzia" in
	// the wrong directory is noticed.
	if _, err := os.Stat(cfg.db); !isPostgres(cfg.db) && errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(stderr, "razzia serve: creating %s, a new SQLite database for the games and accounts (--db names another)\n", cfg.db)
	}
	st, err := openStore(ctx, cfg.db, log, true)
	if err != nil {
		return fail(err)
	}
	srv, err := razziaserver.New(ctx, serverOptions(cfg, st, log))
	if err != nil {
		return fail(err)
	}
	log = log.With("node", srv.Hub.Node()) // the Hub adds it to its own lines
	log.Info("games resumed", "games", srv.Resumed, "db", redact(cfg.db))
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	url := "http://" + displayAddr(cfg.addr, ln.Addr()) + "/"
	fmt.Fprintf(stdout, "Razzia is running: open %s\n", url)
	log.Info("listening", "addr", ln.Addr().String(), "url", url, "lease_ttl", cfg.leaseTTL)

	status = 0
	select {
	case err := <-served:
		status = fail(err)
	case <-ctx.Done():
		log.Info("shutting down: handing the games over")
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fail(err)
	}
	log.Info("stopped")
	return status
}

// serverOptions are the server the flags describe, on st.
func serverOptions(cfg serveConfig, st store.Store, log *slog.Logger) razziaserver.Options {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	o := razziaserver.Options{
		Store:    st,
		Logger:   log,
		Metrics:  reg,
		Accounts: account.Options{Bots: botrating.Levels(), Origins: cfg.passkeyOrigins},
		Push:     &notify.Options{Subject: cfg.pushContact},
		Hub: table.Options{BotDelay: cfg.botDelay, Limits: cfg.limits, Node: cfg.node,
			LeaseTTL: cfg.leaseTTL},
		API:          cfg.api,
		Page:         web.Handler(),
		DrainTimeout: drainTimeout,
	}
	o.API.Origins = cfg.origins
	if cfg.analyst.Workers > 0 {
		o.Analyst = &cfg.analyst
	}
	if cfg.puzzleWorkers > 0 {
		o.Puzzler = &puzzler.Options{Workers: cfg.puzzleWorkers}
	}
	return o
}

// parseServeFlags reads the flags over the environment's defaults.
func parseServeFlags(args []string, stdout, stderr io.Writer) (cfg serveConfig, status int, done bool) {
	fs := newFlags("serve")
	delay := 700 * time.Millisecond
	if v := os.Getenv("RAZZIA_BOT_DELAY"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return cfg, usageError(stderr, fs, serveSynopsis, "RAZZIA_BOT_DELAY=%s: want a duration such as 700ms", v), true
		}
		delay = d
	}
	fs.StringVar(&cfg.addr, "addr", envOr("RAZZIA_ADDR", "localhost:8080"), "the `host:port` to listen on (port 0: any free port)")
	fs.StringVar(&cfg.db, "db", envOr("RAZZIA_DB", "razzia.db"), "the database: "+dbHelp)
	fs.DurationVar(&cfg.botDelay, "bot-delay", delay, "how long bots wait before they move")
	origins := fs.String("origins", os.Getenv("RAZZIA_ORIGINS"), "extra allowed WebSocket origin `patterns`, comma-separated (such as club.example.org)")
	fs.StringVar(&cfg.logFormat, "log-format", os.Getenv("RAZZIA_LOG_FORMAT"), "log `format`: text or json (default text on a terminal, json otherwise)")
	passkeyOrigins := fs.String("passkey-origins", os.Getenv("RAZZIA_PASSKEY_ORIGINS"), "the `origins` passkeys are bound to, comma-separated (such as https://club.example.org); default: the origin each page was loaded from")
	proxies := fs.String("trusted-proxies", os.Getenv("RAZZIA_TRUSTED_PROXIES"), "reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed: `CIDRs` or addresses, comma-separated (such as 127.0.0.1,10.0.0.0/8)")
	fs.StringVar(&cfg.pushContact, "push-contact", envOr("RAZZIA_PUSH_CONTACT", "mailto:razzia@localhost"),
		"how push services reach this server's operator: `mailto:address` or an https URL (the VAPID subject of Web Push)")
	lim := limitFlags(fs, &cfg)
	node := fs.String("node", fromEnv(lim, "node", "", func(s string) (string, error) { return s, nil }),
		"this node's `name` among the nodes on one database, in its logs and leases; a random suffix is added (default the host's name)")
	fs.DurationVar(&cfg.leaseTTL, "lease-ttl", fromEnv(lim, "lease-ttl", table.DefaultLeaseTTL, time.ParseDuration),
		"how long a node's hold on a game lasts unrenewed: the games of a node that died are taken over by the others after this")
	positional, status, done := parseFlags(fs, serveSynopsis, args, stdout, stderr)
	if done {
		return cfg, status, true
	}
	if err := lim.finish(&cfg); err != nil {
		return cfg, usageError(stderr, fs, serveSynopsis, "%v", err), true
	}
	var err error
	if cfg.api.TrustedProxies, err = httpapi.ParseProxies(*proxies); err != nil {
		return cfg, usageError(stderr, fs, serveSynopsis, "--trusted-proxies: %v", err), true
	}
	switch {
	case len(positional) > 0:
		return cfg, usageError(stderr, fs, serveSynopsis, "unexpected argument %q", positional[0]), true
	case cfg.botDelay < 0:
		return cfg, usageError(stderr, fs, serveSynopsis, "--bot-delay %v: want a duration of 0 or more", cfg.botDelay), true
	case cfg.db == "":
		return cfg, usageError(stderr, fs, serveSynopsis, "--db: want a file name or a postgres:// URL"), true
	case cfg.leaseTTL < minLeaseTTL || cfg.leaseTTL > maxLeaseTTL:
		return cfg, usageError(stderr, fs, serveSynopsis, "--lease-ttl %v: want %v to %v", cfg.leaseTTL, minLeaseTTL, maxLeaseTTL), true
	}
	if *node == "" {
		cfg.node = table.HostNodeID()
	} else {
		cfg.node = table.NewNodeID(*node)
	}
	format, err := logFormat(cfg.logFormat, stderr)
	if err != nil {
		return cfg, usageError(stderr, fs, serveSynopsis, "%v", err), true
	}
	cfg.logFormat, cfg.origins = format, splitList(*origins)
	for _, o := range splitList(*passkeyOrigins) {
		if !strings.HasPrefix(o, "https://") && !strings.HasPrefix(o, "http://") {
			return cfg, usageError(stderr, fs, serveSynopsis, "--passkey-origins %q: want origins such as https://club.example.org", o), true
		}
		cfg.passkeyOrigins = append(cfg.passkeyOrigins, strings.TrimSuffix(o, "/"))
	}
	return cfg, 0, false
}

// logFormat checks --log-format: text or json, by default text on a
// terminal (stderr's) and json otherwise.
func logFormat(format string, stderr io.Writer) (string, error) {
	switch format {
	case "text", "json":
		return format, nil
	case "":
		if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
			return "text", nil
		}
		return "json", nil
	}
	return "", fmt.Errorf("--log-format %q: want text or json", format)
}

// splitList splits a comma-separated list, dropping the blanks.
func splitList(s string) []string {
	var out []string
	for _, o := range strings.Split(s, ",") {
		if o = strings.TrimSpace(o); o != "" {
			out = append(out, o)
		}
	}
	return out
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func newLogger(w io.Writer, format string) *slog.Logger {
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, nil))
	}
	return slog.New(slog.NewTextHandler(w, nil))
}

// displayAddr is the address to show people: the host they asked for (or
// localhost for all interfaces) with the port actually bound.
func displayAddr(asked string, bound net.Addr) string {
	host, _, err := net.SplitHostPort(asked)
	_, port, err2 := net.SplitHostPort(bound.String())
	if err2 != nil {
		return bound.String()
	}
	if ip := net.ParseIP(host); err != nil || host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "localhost"
	}
	return net.JoinHostPort(host, port)
}

// listenError says in words why the server cannot listen at addr.
func listenError(addr string, err error) error {
	switch {
	case errors.Is(err, syscall.EADDRINUSE):
		return fmt.Errorf("--addr %s is in use: another program (another razzia serve?) listens there; stop it, or give another --addr", addr)
	case errors.Is(err, syscall.EACCES):
		return fmt.Errorf("--addr %s: permission denied (ports below 1024 need rights a user usually lacks); give another --addr, such as :8080", addr)
	case errors.Is(err, syscall.EADDRNOTAVAIL):
		return fmt.Errorf("--addr %s: no network interface of this machine has that address", addr)
	}
	return fmt.Errorf("--addr %s: %w", addr, err)
}
