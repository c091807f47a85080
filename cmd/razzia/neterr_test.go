package main

import (
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestNetError: the errors of reaching a server read as words, naming the
// server, without the URL and the system call.
func TestNetError(t *testing.T) {
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := closed.Addr().String()
	closed.Close()
	silent, err := net.Listen("tcp", "127.0.0.1:0") // accepts, never answers
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	plain := httptest.NewServer(http.NotFoundHandler())
	defer plain.Close()
	get := func(url string, timeout time.Duration) error {
		_, err := (&http.Client{Timeout: timeout}).Get(url)
		if err == nil {
			t.Fatalf("GET %s worked", url)
		}
		return err
	}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"connection refused", get("http://"+refused+"/api/games", time.Minute),
			"nothing answers at " + refused + ": is the server running, and is the address right?"},
		{"no answer", get("http://"+silent.Addr().String()+"/", 50*time.Millisecond),
			silent.Addr().String() + " did not answer in time"},
		{"https to an http server", get(strings.Replace(plain.URL, "http:", "https:", 1)+"/", time.Minute),
			strings.TrimPrefix(plain.URL, "http://") + " does not speak https: try http://"},
		{"unknown host", &url.Error{Op: "Post", URL: "http://club.invalid/api/games",
			Err: &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Name: "club.invalid", Err: "no such host", IsNotFound: true}}},
			"there is no host club.invalid: check the address"},
		{"connection cut", &url.Error{Op: "Get", URL: "http://club.example:8080/g/x",
			Err: &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}},
			"the connection to club.example:8080 was cut"},
		{"not about the network", errors.New("table_full: the table is full"), "table_full: the table is full"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := netError(tt.err).Error()
			if !strings.HasPrefix(got, tt.want) || strings.Contains(got, "dial tcp") || strings.Contains(got, `"http`) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	if netError(nil) != nil {
		t.Error("netError(nil) is not nil")
	}
}
