// Package pgtest gives tests a real PostgreSQL: a fresh, empty database
// per test on a shared cluster, and private clusters that a test may stop
// and start (a database restart mid-game).
//
// The shared cluster is the one RAZZIA_TEST_POSTGRES names (the URL of a
// superuser's database, as .ci/run exports it), or else a private cluster
// this package starts once per test binary from the PostgreSQL binaries in
// /usr/lib/postgresql/15/bin (as the postgres user when running as root,
// since initdb refuses root). Without either, tests that need it skip with
// the reason, except under CI=true, where they fail.
//
// Tests reach the private shared cluster through a proxy in the test
// process that hands a session ended cleanly on to the next client, reset
// (a session costs PostgreSQL a fork); DirectDB is for servers in
// processes of their own, and RAZZIA_TEST_PGPROXY_OFF=1 turns the proxy
// off.
//
// A package using it calls Main from its TestMain, which stops the private
// cluster when the tests are done:
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
package pgtest

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/razziagame/razzia/internal/cputime"
)

// EnvURL names the environment variable with the shared cluster's URL.
const EnvURL = "RAZZIA_TEST_POSTGRES"

// BinDir holds the PostgreSQL binaries a private cluster runs.
const BinDir = "/usr/lib/postgresql/15/bin"

var shared struct {
	sync.Mutex
	main    bool     // Main is running the tests
	url     string   // the shared cluster's admin URL, once known
	cluster *Cluster // the private shared cluster, if one was started
	proxy   *proxy   // the tests' way to it, keeping sessions
	err     error
	// templates are those whose databases were made on the shared
	// cluster, dropped at the end when it is not private.
	templates []*Template
	// stoppable is the cluster Stoppable lends, once started.
	stoppable *Cluster
}

// stoppableTurn is held by the test that has the stoppable cluster.
var stoppableTurn = make(chan struct{}, 1)

// Main runs the tests, up to 4 at once unless -test.parallel says
// otherwise (tests on PostgreSQL mostly wait for the server, a process of
// its own, and for servers and nodes they start), and then stops the
// private clusters, if any were started, and exits.
func Main(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", "4")
	}
	shared.Lock()
	shared.main = true
	shared.Unlock()
	code := m.Run()
	shared.Lock()
	if shared.cluster == nil { // on a cluster of the environment's, which stays
		for _, tp := range shared.templates {
			names := []string{tp.name}
			for _, cp := range tp.free {
				names = append(names, cp.name)
			}
			for _, name := range names {
				if err := execAdmin(os.Getenv(EnvURL), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
					fmt.Fprintf(os.Stderr, "pgtest: drop database %s: %v\n", name, err)
				}
			}
		}
	}
	if shared.proxy != nil {
		shared.proxy.close()
	}
	for _, c := range []*Cluster{shared.cluster, shared.stoppable} {
		if c == nil {
			continue
		}
		if err := c.halt(); err != nil {
			fmt.Fprintf(os.Stderr, "pgtest: stopping the test cluster: %v\n", err)
		}
		c.remove()
	}
	shared.Unlock()
	os.Exit(code)
}

// unavailable skips t, or fails it under CI=true, with the reason.
func unavailable(t testing.TB, reason string) {
	t.Helper()
	msg := "PostgreSQL tests need a cluster: " + reason +
		"; set " + EnvURL + " to a superuser's database URL or install Debian's postgresql (" + BinDir + ")"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip("SKIPPED: " + msg)
}

// URL returns the admin URL of the shared cluster, starting a private one
// if needed.
func URL(t testing.TB) string {
	t.Helper()
	if u := os.Getenv(EnvURL); u != "" {
		if _, err := url.Parse(u); err != nil {
			t.Fatalf("pgtest: %s=%q: %v", EnvURL, u, err)
		}
		return u
	}
	shared.Lock()
	defer shared.Unlock()
	if shared.url != "" {
		return shared.url
	}
	if !shared.main {
		t.Fatal("pgtest: call pgtest.Main from the package's TestMain, so that its cluster is stopped")
	}
	if shared.err != nil {
		unavailable(t, shared.err.Error())
	}
	c, err := start(Fast)
	if err != nil {
		shared.err = err
		unavailable(t, err.Error())
	}
	shared.cluster, shared.url = c, c.URL("postgres")
	if proxyWanted() {
		if shared.proxy, err = newProxy(fmt.Sprintf("127.0.0.1:%d", c.port)); err != nil {
			t.Fatalf("pgtest: %v", err)
		}
	}
	return shared.url
}

// testURL returns the URL by which tests reach the database name on the
// cluster whose admin URL is admin: through the proxy on the private
// shared cluster, which keeps PostgreSQL's sessions for the next test.
func testURL(admin, name string) string {
	shared.Lock()
	p := shared.proxy
	if admin != shared.url {
		p = nil
	}
	shared.Unlock()
	u := dbURL(admin, name)
	if p == nil {
		return u
	}
	pu, err := url.Parse(u)
	if err != nil {
		panic(err) // dbURL made it
	}
	pu.Host = fmt.Sprintf("127.0.0.1:%d", p.port())
	return pu.String()
}

// DB returns the URL of a new, empty database on the shared cluster,
// dropped when t ends.
func DB(t testing.TB) string {
	t.Helper()
	admin, name := sharedDB(t)
	return testURL(admin, name)
}

// DirectDB is DB, but its URL reaches the cluster directly, never through
// the proxy that keeps sessions, which runs in the test process: for
// servers in processes of their own, whose every query a busy test
// process would delay (a node's lease renewals among them).
func DirectDB(t testing.TB) string {
	t.Helper()
	return dbURL(sharedDB(t))
}

// sharedDB creates a new, empty database on the shared cluster, dropped
// when t ends, and returns the cluster's admin URL and the database's name.
func sharedDB(t testing.TB) (admin, name string) {
	t.Helper()
	admin = URL(t)
	name = createDB(t, admin, "")
	t.Cleanup(func() { dropDB(t, admin, name) })
	return admin, name
}

// A Template is a database prepared once on the shared cluster (say, with
// a schema's migrations applied) that DB copies for each test. A test that
// passes hands its copy back emptied, for the next test to take: creating
// and dropping a database costs PostgreSQL a tenth of a second of CPU
// (copying its files, checkpoints), emptying its tables a hundredth, and a
// suite of a hundred tests each opening a store on a new database spent
// most of its time there.
type Template struct {
	// Prepare prepares the database at url and closes every connection
	// it opened (PostgreSQL copies only a database nobody is connected to).
	Prepare func(ctx context.Context, url string) error
	// Keep names the tables whose rows survive the emptying of a copy
	// handed back, such as the schema's version.
	Keep []string

	once sync.Once
	name string
	err  error
	mu   sync.Mutex
	free []*dbCopy // emptied copies, for the next tests
}

// A dbCopy is a copy of a template and the session that empties it, kept
// with it (a new session costs more than the emptying).
type dbCopy struct {
	name string
	conn *pgx.Conn
}

// DB returns the URL of a database on the shared cluster that is a copy of
// the template, with its tables empty but for Keep; it is the test's
// alone until t ends.
func (tp *Template) DB(t testing.TB) string {
	t.Helper()
	admin := URL(t)
	tp.once.Do(func() {
		tp.name = "razzia_template_" + strings.ToLower(rand.Text()[:16])
		if tp.err = execAdmin(admin, "CREATE DATABASE "+tp.name); tp.err != nil {
			return
		}
		shared.Lock()
		shared.templates = append(shared.templates, tp)
		shared.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		tp.err = tp.Prepare(ctx, dbURL(admin, tp.name))
	})
	if tp.err != nil {
		t.Fatalf("pgtest: prepare the template database: %v", tp.err)
	}
	tp.mu.Lock()
	var cp *dbCopy
	if n := len(tp.free); n > 0 {
		cp, tp.free = tp.free[n-1], tp.free[:n-1]
	}
	tp.mu.Unlock()
	if cp == nil {
		cp = &dbCopy{name: createDB(t, admin, tp.name)}
	}
	t.Cleanup(func() {
		// A failed test's database may be in any state: it goes. So
		// does one that cannot be emptied at once (a connection left
		// in a transaction holds a lock).
		if !t.Failed() && tp.empty(dbURL(admin, cp.name), cp) == nil {
			tp.mu.Lock()
			tp.free = append(tp.free, cp)
			tp.mu.Unlock()
			return
		}
		if cp.conn != nil {
			cp.conn.Close(context.Background())
		}
		dropDB(t, admin, cp.name)
	})
	return testURL(admin, cp.name)
}

// empty empties the tables of the copy at u but for Keep, on the copy's
// session (made if it has none).
func (tp *Template) empty(u string, cp *dbCopy) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if cp.conn == nil {
		var err error
		if cp.conn, err = pgx.Connect(ctx, u); err != nil {
			return err
		}
	}
	conn := cp.conn
	// DELETE, not TRUNCATE: a truncation makes new files for every table
	// and index, which costs more than deleting the few rows a test
	// leaves. Without triggers, foreign keys do not order the deletes.
	// The sequences the tables own start again, as after TRUNCATE ...
	// RESTART IDENTITY.
	rows, err := conn.Query(ctx, `
		SELECT 'DELETE FROM ' || format('%I.%I', schemaname, tablename) FROM pg_tables
		WHERE schemaname NOT IN ('pg_catalog', 'information_schema') AND NOT tablename = ANY($1)
		UNION ALL
		SELECT 'ALTER SEQUENCE ' || s.oid::regclass::text || ' RESTART' FROM pg_class s
		JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = s.oid AND d.deptype IN ('a', 'i')
		JOIN pg_class t ON t.oid = d.refobjid
		JOIN pg_namespace n ON n.oid = t.relnamespace
		WHERE s.relkind = 'S' AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND NOT t.relname = ANY($1)`, tp.Keep)
	if err != nil {
		return err
	}
	stmts, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil || len(stmts) == 0 {
		return err
	}
	sql := "SET lock_timeout = '2s'; SET session_replication_role = replica; " + strings.Join(stmts, "; ")
	_, err = conn.Exec(ctx, sql)
	return err
}

// execAdmin runs one statement on the cluster whose admin URL is admin,
// on a connection kept for the next: a session costs PostgreSQL a fork
// and tens of milliseconds of CPU on a small machine, and every database
// a test makes and drops took two.
func execAdmin(admin, sql string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	admins.Lock()
	defer admins.Unlock()
	if admins.conns == nil {
		admins.conns = map[string]*pgx.Conn{}
	}
	for try := 0; ; try++ {
		conn := admins.conns[admin]
		if conn == nil {
			var err error
			if conn, err = pgx.Connect(ctx, admin); err != nil {
				return err
			}
			admins.conns[admin] = conn
		}
		_, err := conn.Exec(ctx, sql)
		var refused *pgconn.PgError
		if err == nil || errors.As(err, &refused) || try > 0 {
			return err // an error from PostgreSQL leaves the session as it was
		}
		// The session ended, say with its cluster, stopped and started
		// again: once more on a new one.
		conn.Close(ctx)
		delete(admins.conns, admin)
	}
}

// admins are the connections execAdmin keeps, by admin URL.
var admins struct {
	sync.Mutex
	conns map[string]*pgx.Conn
}

// newDB creates a database on the cluster whose admin URL is admin, an
// empty one, dropped when t ends, and returns its URL.
func newDB(t testing.TB, admin string) string {
	t.Helper()
	name := createDB(t, admin, "")
	t.Cleanup(func() { dropDB(t, admin, name) })
	return dbURL(admin, name)
}

// createDB creates a database on the cluster whose admin URL is admin, a
// copy of template or, if "", of PostgreSQL's empty one, and returns its
// name.
func createDB(t testing.TB, admin, template string) string {
	t.Helper()
	name := "razzia_test_" + strings.ToLower(rand.Text()[:16])
	create := "CREATE DATABASE " + name
	if template != "" {
		create += " TEMPLATE " + template
	}
	// Copying the files costs less than writing them all to the WAL, the
	// default; with fsync off, its checkpoints are cheap.
	if err := execAdmin(admin, create+" STRATEGY FILE_COPY"); err != nil {
		t.Fatalf("pgtest: create a database on %s: %v", redacted(admin), err)
	}
	return name
}

func dropDB(t testing.TB, admin, name string) {
	if err := execAdmin(admin, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
		t.Logf("pgtest: drop database %s: %v", name, err)
	}
}

// dbURL returns the URL of the database name on the cluster whose admin
// URL is admin.
func dbURL(admin, name string) string {
	u, err := url.Parse(admin)
	if err != nil {
		panic(err) // URL checked it
	}
	u.Path = "/" + name
	return u.String()
}

func redacted(admin string) string {
	u, err := url.Parse(admin)
	if err != nil {
		return "the cluster"
	}
	return u.Redacted()
}

// A Cluster is a private PostgreSQL cluster run by this process.
type Cluster struct {
	settings []string
	dir      string // its data directory, inside a directory of its own
	port     int
	cred     *syscall.Credential // the postgres user's, when running as root
	proc     *exec.Cmd
	exit     chan error // the postmaster's end
}

// Fast are the settings of test clusters: no waiting for the disk, and no
// vacuuming of databases that live for a test. Committed data survives a
// restart of PostgreSQL (not of the machine). A lean cluster besides: no
// WAL for replicas, no background workers and small shared buffers make
// each start, stop and fork of a session cheaper (a start and stop cost
// a fifth less CPU).
var Fast = []string{"fsync=off", "synchronous_commit=off", "full_page_writes=off", "autovacuum=off",
	"wal_level=minimal", "max_wal_senders=0", "max_worker_processes=0", "shared_buffers=16MB"}

// Durable are PostgreSQL's default settings, for benchmarks.
var Durable = []string{"fsync=on", "synchronous_commit=on", "full_page_writes=on", "shared_buffers=64MB"}

// NewCluster starts a private cluster for t alone with the settings (Fast
// if none), stopped and removed when t ends.
func NewCluster(t testing.TB, settings ...string) *Cluster {
	t.Helper()
	if settings == nil {
		settings = Fast
	}
	c, err := start(settings)
	if err != nil {
		unavailable(t, err.Error())
	}
	t.Cleanup(func() {
		if err := c.halt(); err != nil {
			t.Errorf("pgtest: stop the cluster: %v", err)
		}
		c.remove()
	})
	return c
}

// Stoppable returns a private cluster (Fast) that t may stop and start,
// lent to one test at a time of those in the binary that ask for one: t
// waits for its turn and has the cluster until it ends, when it is
// started again if t left it stopped. Main stops it. Starting a cluster
// costs more than half a CPU-second (copying its files, starting and
// stopping PostgreSQL): tests that stop the database share one.
func Stoppable(t testing.TB) *Cluster {
	t.Helper()
	select {
	case stoppableTurn <- struct{}{}:
	case <-t.Context().Done():
		t.Fatal("pgtest: the test ended waiting for the stoppable cluster")
	}
	shared.Lock()
	c, main := shared.stoppable, shared.main
	shared.Unlock()
	if !main {
		<-stoppableTurn
		t.Fatal("pgtest: call pgtest.Main from the package's TestMain, so that its cluster is stopped")
	}
	if c == nil {
		var err error
		if c, err = start(Fast); err != nil {
			<-stoppableTurn
			unavailable(t, err.Error())
		}
		shared.Lock()
		shared.stoppable = c
		shared.Unlock()
	}
	t.Cleanup(func() {
		defer func() { <-stoppableTurn }()
		if c.proc == nil {
			if err := c.run(); err != nil {
				t.Errorf("pgtest: start the stoppable cluster again: %v", err)
			}
		}
	})
	return c
}

// URL returns the URL of the cluster's database db, as the superuser.
func (c *Cluster) URL(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", c.port, db)
}

// CPU returns the CPU time the cluster's processes have used, its
// postmaster's and every backend's (those that ended included), where
// /proc tells: 0 elsewhere.
func (c *Cluster) CPU() time.Duration {
	ticks, _ := cputime.ReadProcs().Ticks(c.proc.Process.Pid, true)
	return time.Duration(ticks) * cputime.Tick
}

// DB returns the URL of a new, empty database on c, dropped when t ends.
func (c *Cluster) DB(t testing.TB) string {
	t.Helper()
	return newDB(t, c.URL("postgres"))
}

// Stop shuts the cluster down (fast: clients are disconnected, every
// committed transaction is kept).
func (c *Cluster) Stop(t testing.TB) {
	t.Helper()
	if err := c.stop(); err != nil {
		t.Fatalf("pgtest: stop the cluster: %v", err)
	}
}

// Start starts the stopped cluster again on the same port.
func (c *Cluster) Start(t testing.TB) {
	t.Helper()
	if err := c.run(); err != nil {
		t.Fatalf("pgtest: start the cluster: %v", err)
	}
}

// start makes and starts a new cluster.
func start(settings []string) (*Cluster, error) {
	if _, err := os.Stat(filepath.Join(BinDir, "postgres")); err != nil {
		return nil, fmt.Errorf("no PostgreSQL binaries: %w", err)
	}
	c := &Cluster{settings: settings}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, fmt.Errorf("running as root, and initdb refuses root: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		c.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
	top, err := os.MkdirTemp(tempDir(settings), "razzia-pg-")
	if err != nil {
		return nil, err
	}
	c.dir = filepath.Join(top, "data")
	if c.cred != nil {
		if err := os.Chown(top, int(c.cred.Uid), int(c.cred.Gid)); err != nil {
			c.remove()
			return nil, err
		}
	}
	if err := c.initdb(tempDir(settings)); err != nil {
		c.remove()
		return nil, err
	}
	for range 5 { // another process may take the free port first
		if c.port, err = freePort(); err != nil {
			break
		}
		if err = c.run(); err == nil {
			return c, nil
		}
	}
	c.remove()
	return nil, err
}

// memDir is a directory in memory (tmpfs), where a Fast cluster keeps
// its files when it is there: PostgreSQL makes a file for each of a
// database's tables and indexes, and ext4 makes files dearly (creating and
// dropping databases, and copying the cached initdb, were a fifth of the
// test clusters' CPU).
var memDir = "/dev/shm"

// tempDir is where a cluster of the settings keeps its files: in memory
// when it does not sync them (Fast), since nothing of it must outlive
// the machine; on disk when it does (Durable, for benchmarks of
// commits that a sync to memory would make meaningless).
func tempDir(settings []string) string {
	var fs syscall.Statfs_t
	if !slices.Contains(settings, "fsync=on") && syscall.Access(memDir, 2 /* W_OK */) == nil &&
		syscall.Statfs(memDir, &fs) == nil && uint64(fs.Bsize)*fs.Bavail >= 1<<30 {
		return memDir // not a container's small /dev/shm (64 MB in Docker)
	}
	return os.TempDir()
}

// initdb makes the cluster's data directory: a copy of one that initdb
// made once for every test binary on the machine and left in top, the
// temporary directory (initdb costs a second of CPU, a copy a third, and
// a run of the tests starts a dozen clusters).
func (c *Cluster) initdb(top string) error {
	cache := filepath.Join(top, fmt.Sprintf("razzia-pgtest-initdb-%d-wal1-t1", os.Geteuid()))
	if _, err := os.Stat(filepath.Join(cache, "data", "PG_VERSION")); err != nil {
		// Made aside and renamed into place, so that test binaries
		// starting together never copy half a directory.
		tmp, err := os.MkdirTemp(top, "razzia-pgtest-initdb-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		if c.cred != nil {
			if err := os.Chown(tmp, int(c.cred.Uid), int(c.cred.Gid)); err != nil {
				return err
			}
		}
		// WAL segments of 1 MB, not 16: the copy is of 24 MB, not 39
		// (and copying costs a third of a CPU-second on a small VM).
		out, err := c.command("initdb", "-D", filepath.Join(tmp, "data"), "-U", "postgres", "--auth=trust",
			"-E", "UTF8", "--locale=C.UTF-8", "--no-sync", "--wal-segsize=1").CombinedOutput()
		if err != nil {
			return fmt.Errorf("initdb: %v\n%s", err, out)
		}
		// Without template0, which no test uses: a copy costs a file
		// made for each of a database's 300 files, and ext4 makes them
		// dearly (a third fewer files; template1 stays, to copy new
		// databases from, and postgres, to administer them).
		drop := c.command("postgres", "--single", "-D", filepath.Join(tmp, "data"), "-c", "fsync=off", "postgres")
		drop.Stdin = strings.NewReader("UPDATE pg_database SET datistemplate = false WHERE datname = 'template0';\nDROP DATABASE template0;\n")
		if out, err := drop.CombinedOutput(); err != nil || bytes.Contains(out, []byte("ERROR")) {
			return fmt.Errorf("drop template0: %v\n%s", err, out)
		}
		if err := os.Rename(tmp, cache); err != nil && !errors.Is(err, fs.ErrExist) && !errors.Is(err, syscall.ENOTEMPTY) {
			return err
		}
	}
	cp := exec.Command("cp", "-a", filepath.Join(cache, "data"), c.dir)
	cp.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	if out, err := cp.CombinedOutput(); err != nil {
		return fmt.Errorf("copy the initdb of %s: %v\n%s", cache, err, out)
	}
	return nil
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

func (c *Cluster) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(filepath.Join(BinDir, name), args...)
	cmd.Dir = filepath.Dir(c.dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	return cmd
}

// run starts the postmaster and waits until it accepts connections.
func (c *Cluster) run() error {
	logf, err := os.OpenFile(filepath.Join(filepath.Dir(c.dir), "postgres.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer logf.Close()
	args := []string{"-D", c.dir, "-p", strconv.Itoa(c.port), "-k", filepath.Dir(c.dir),
		"-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200"}
	for _, s := range c.settings {
		args = append(args, "-c", s)
	}
	cmd := c.command("postgres", args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	// The postmaster dies with this process even if Main never runs its
	// end (a test binary killed on timeout): the parent-death signal is
	// tied to the thread that started it, which stays until it exits.
	cmd.SysProcAttr.Pdeathsig = syscall.SIGQUIT
	started := make(chan error, 1)
	c.exit = make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		c.exit <- cmd.Wait()
	}()
	if err := <-started; err != nil {
		return err
	}
	c.proc = cmd
	deadline := time.Now().Add(60 * time.Second)
	for !c.ready() {
		select {
		case werr := <-c.exit:
			c.proc = nil
			log, _ := os.ReadFile(filepath.Join(filepath.Dir(c.dir), "postgres.log"))
			return fmt.Errorf("postgres ended (%v) before accepting connections\n%s", werr, tail(log))
		default:
		}
		if time.Now().After(deadline) {
			c.stop()
			return errors.New("postgres did not accept connections within a minute")
		}
		time.Sleep(20 * time.Millisecond)
	}
	return nil
}

// ready reports whether the running postmaster says in its pid file that
// it accepts connections, as pg_ctl --wait reads it: asking in a session
// would cost PostgreSQL the fork of a session.
func (c *Cluster) ready() bool {
	b, err := os.ReadFile(filepath.Join(c.dir, "postmaster.pid"))
	if err != nil {
		return false
	}
	// The lines: pid, data directory, start time, port, socket
	// directory, listen address, shared memory key, status.
	lines := strings.Split(string(b), "\n")
	return len(lines) > 7 && lines[0] == strconv.Itoa(c.proc.Process.Pid) && strings.TrimSpace(lines[7]) == "ready"
}

func tail(b []byte) []byte {
	if len(b) > 2000 {
		return b[len(b)-2000:]
	}
	return b
}

// stop sends SIGINT (fast shutdown: every change is written out) and
// waits for the postmaster to end.
func (c *Cluster) stop() error { return c.shutdown(syscall.SIGINT) }

// halt stops a cluster about to be removed with SIGQUIT (immediate
// shutdown): nothing is written out, for nobody will read it.
func (c *Cluster) halt() error { return c.shutdown(syscall.SIGQUIT) }

// shutdown sends the postmaster sig and waits for it to end.
func (c *Cluster) shutdown(sig syscall.Signal) error {
	if c.proc == nil {
		return nil
	}
	defer func() { c.proc = nil }()
	if err := c.proc.Process.Signal(sig); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	select {
	case <-c.exit:
		return nil
	case <-time.After(60 * time.Second):
		c.proc.Process.Kill()
		<-c.exit
		return errors.New("postgres did not stop within a minute: killed")
	}
}

func (c *Cluster) remove() { os.RemoveAll(filepath.Dir(c.dir)) }
