package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
	"syscall"
)

// netError says in words what went wrong reaching a server, for people
// rather than programmers: "nothing answers at 127.0.0.1:1 (is the server
// running?)" rather than `Post "http://127.0.0.1:1/api/games": dial tcp
// 127.0.0.1:1: connect: connection refused`. An error that is not about
// the network is returned as it is. Every command that talks to a server
// prints its errors through it.
func netError(err error) error {
	if err == nil {
		return nil
	}
	host := ""
	if ue, ok := errors.AsType[*url.Error](err); ok {
		if u, perr := url.Parse(ue.URL); perr == nil {
			host = u.Host
		}
	}
	if oe, ok := errors.AsType[*net.OpError](err); ok && host == "" && oe.Addr != nil {
		host = oe.Addr.String()
	}
	var hostErr x509.HostnameError
	var unknownCA x509.UnknownAuthorityError
	var certErr *tls.CertificateVerificationError
	var dnsErr *net.DNSError
	switch {
	case errors.As(err, &dnsErr):
		if dnsErr.IsNotFound {
			return fmt.Errorf("there is no host %s: check the address", dnsErr.Name)
		}
		return fmt.Errorf("cannot look up the host %s: is this machine online?", dnsErr.Name)
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Errorf("nothing answers at %s: is the server running, and is the address right?", host)
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return fmt.Errorf("the connection to %s was cut: the server may have stopped", host)
	case errors.Is(err, syscall.ENETUNREACH), errors.Is(err, syscall.EHOSTUNREACH):
		return fmt.Errorf("cannot reach %s: no network route to it; is this machine online?", host)
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded), isTimeout(err):
		return fmt.Errorf("%s did not answer in time: the server or the network is too slow or down", host)
	case errors.As(err, &hostErr), errors.As(err, &unknownCA), errors.As(err, &certErr):
		return fmt.Errorf("%s's certificate cannot be trusted: %v", host, certificateProblem(err))
	case isTLSOverHTTP(err):
		return fmt.Errorf("%s does not speak https: try http://", host)
	}
	return err
}

func isTimeout(err error) bool {
	ne, ok := errors.AsType[net.Error](err)
	return ok && ne.Timeout()
}

// isTLSOverHTTP reports whether https met a server of plain http: the
// net/http client says so only in words.
func isTLSOverHTTP(err error) bool {
	_, ok := errors.AsType[tls.RecordHeaderError](err)
	return ok || strings.Contains(err.Error(), "server gave HTTP response to HTTPS client")
}

// certificateProblem is the innermost reason a certificate was refused.
func certificateProblem(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err
		}
		err = next
	}
}
