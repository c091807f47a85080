package push

import "testing"

// The endpoint check holds for names; the dial check for where a name
// leads, so a public name that resolves to a private address is refused.
func TestDialAllowed(t *testing.T) {
	tests := []struct {
		address  string
		loopback bool
		ok       bool
	}{
		{"142.250.74.106:443", false, true},
		{"[2a00:1450:4001:82b::200a]:443", false, true},
		{"127.0.0.1:443", false, false},
		{"127.0.0.1:443", true, true},
		{"[::1]:443", true, true},
		{"10.0.0.7:443", true, false},
		{"169.254.169.254:80", false, false},
		{"[fe80::1]:443", false, false},
		{"[::ffff:192.168.0.1]:443", false, false},
		{"100.100.100.100:443", false, false},
		{"0.0.0.0:443", false, false},
		{"not an address", false, false},
	}
	for _, tt := range tests {
		err := Endpoints{Loopback: tt.loopback}.dialAllowed(tt.address)
		if (err == nil) != tt.ok {
			t.Errorf("dialAllowed(%q, loopback %v) = %v, want ok %v", tt.address, tt.loopback, err, tt.ok)
		}
	}
}
