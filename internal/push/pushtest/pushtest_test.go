package pushtest

import (
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

func unb64(t *testing.T, s string) []byte {
	t.Helper()
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// rfc8291 is the worked example of RFC 8291, Appendix A.
var rfc8291 = struct{ uaPrivate, uaPublic, auth, body, plaintext string }{
	uaPrivate: "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94",
	uaPublic:  "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
	auth:      "BTBZMqHH6r4Tts7J_aSIgg",
	body:      "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN",
	plaintext: "When I grow up, I want to be a watermelon",
}

func rfcKey(t *testing.T) *ecdh.PrivateKey {
	t.Helper()
	ua, err := ecdh.P256().NewPrivateKey(unb64(t, rfc8291.uaPrivate))
	if err != nil {
		t.Fatal(err)
	}
	if got := base64.RawURLEncoding.EncodeToString(ua.PublicKey().Bytes()); got != rfc8291.uaPublic {
		t.Fatalf("the RFC's private key gives the public key %s", got)
	}
	return ua
}

func TestDecryptRFC8291(t *testing.T) {
	got, err := Decrypt(unb64(t, rfc8291.body), rfcKey(t), unb64(t, rfc8291.auth))
	if err != nil || string(got) != rfc8291.plaintext {
		t.Fatalf("Decrypt = %q, %v; want %q", got, err, rfc8291.plaintext)
	}
}

func TestDecryptRefused(t *testing.T) {
	body := unb64(t, rfc8291.body)
	other, _ := ecdh.P256().GenerateKey(rand.Reader)
	tests := []struct {
		name string
		body []byte
		ua   *ecdh.PrivateKey
		auth []byte
	}{
		{"truncated header", body[:10], rfcKey(t), unb64(t, rfc8291.auth)},
		{"truncated key id", body[:40], rfcKey(t), unb64(t, rfc8291.auth)},
		{"one byte of ciphertext changed", flip(body, len(body)-5), rfcKey(t), unb64(t, rfc8291.auth)},
		{"the salt changed", flip(body, 0), rfcKey(t), unb64(t, rfc8291.auth)},
		{"another browser's key", body, other, unb64(t, rfc8291.auth)},
		{"another auth secret", body, rfcKey(t), make([]byte, 16)},
		{"more than one record", withRecordSize(body, 18), rfcKey(t), unb64(t, rfc8291.auth)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := Decrypt(tt.body, tt.ua, tt.auth); err == nil {
				t.Errorf("decrypted %q", got)
			}
		})
	}
}

func flip(b []byte, i int) []byte {
	c := append([]byte(nil), b...)
	c[i] ^= 1
	return c
}

func withRecordSize(b []byte, rs byte) []byte {
	c := append([]byte(nil), b...)
	c[16], c[17], c[18], c[19] = 0, 0, 0, rs
	return c
}

// jwt signs a VAPID token with key: header and claims as given.
func jwt(t *testing.T, key *ecdsa.PrivateKey, header, claims any) string {
	t.Helper()
	enc := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return base64.RawURLEncoding.EncodeToString(b)
	}
	signed := enc(header) + "." + enc(claims)
	hash := sha256.Sum256([]byte(signed))
	r, s, err := ecdsa.Sign(rand.Reader, key, hash[:])
	if err != nil {
		t.Fatal(err)
	}
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return signed + "." + base64.RawURLEncoding.EncodeToString(sig)
}

func TestCheckVAPID(t *testing.T) {
	svc := New(t)
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	svc.Now = func() time.Time { return now }
	server, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	intruder, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	pub := func(k *ecdsa.PrivateKey) string {
		b, _ := k.PublicKey.Bytes()
		return base64.RawURLEncoding.EncodeToString(b)
	}
	sub := svc.Subscribe(t, pub(server))
	es256 := map[string]string{"typ": "JWT", "alg": "ES256"}
	good := map[string]any{"aud": svc.URL, "exp": now.Add(12 * time.Hour).Unix(), "sub": "mailto:ops@example.org"}
	with := func(k string, v any) map[string]any {
		c := map[string]any{}
		for k, v := range good {
			c[k] = v
		}
		if v == nil {
			delete(c, k)
		} else {
			c[k] = v
		}
		return c
	}
	vapid := func(token, key string) string { return "vapid t=" + token + ", k=" + key }
	tests := []struct {
		name   string
		header string
		status int // 0: accepted
		reason string
	}{
		{"a good token", vapid(jwt(t, server, es256, good), pub(server)), 0, ""},
		{"an https contact", vapid(jwt(t, server, es256, with("sub", "https://razzia.example")), pub(server)), 0, ""},
		{"no authorization", "", http.StatusUnauthorized, "no vapid"},
		{"the WebPush scheme of old drafts", "WebPush " + jwt(t, server, es256, good), http.StatusUnauthorized, "no vapid"},
		{"another server's key", vapid(jwt(t, intruder, es256, good), pub(intruder)), http.StatusForbidden, "not the one the subscription was made with"},
		{"signed by another key", vapid(jwt(t, intruder, es256, good), pub(server)), http.StatusUnauthorized, "does not verify"},
		{"alg none", vapid(jwt(t, server, map[string]string{"typ": "JWT", "alg": "none"}, good), pub(server)), http.StatusUnauthorized, "not ES256"},
		{"claims changed after signing", vapid(tamper(jwt(t, server, es256, good), with("sub", "mailto:evil@example.org")), pub(server)), http.StatusUnauthorized, "does not verify"},
		{"aud of another origin", vapid(jwt(t, server, es256, with("aud", "https://fcm.googleapis.com")), pub(server)), http.StatusUnauthorized, "origin"},
		{"aud with a path", vapid(jwt(t, server, es256, with("aud", svc.URL+"/push/1")), pub(server)), http.StatusUnauthorized, "origin"},
		{"expired", vapid(jwt(t, server, es256, with("exp", now.Add(-time.Second).Unix())), pub(server)), http.StatusUnauthorized, "expired"},
		{"more than 24 hours ahead", vapid(jwt(t, server, es256, with("exp", now.Add(25*time.Hour).Unix())), pub(server)), http.StatusUnauthorized, "24 hours"},
		{"no sub", vapid(jwt(t, server, es256, with("sub", nil)), pub(server)), http.StatusUnauthorized, "contact"},
		{"mailto twice", vapid(jwt(t, server, es256, with("sub", "mailto:mailto:ops@example.org")), pub(server)), http.StatusUnauthorized, "twice"},
		{"not a JWT", vapid("abc", pub(server)), http.StatusUnauthorized, "not a JWT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, status, err := svc.checkVAPID(tt.header, sub)
			if status != tt.status || (err == nil) != (tt.status == 0) {
				t.Fatalf("status %d (%v), want %d", status, err, tt.status)
			}
			if err != nil && !strings.Contains(err.Error(), tt.reason) {
				t.Errorf("reason %q does not say %q", err, tt.reason)
			}
		})
	}
}

// tamper replaces a token's claims, keeping its signature.
func tamper(token string, claims any) string {
	parts := strings.Split(token, ".")
	b, _ := json.Marshal(claims)
	return parts[0] + "." + base64.RawURLEncoding.EncodeToString(b) + "." + parts[2]
}

func TestServiceRefusesOverHTTP(t *testing.T) {
	svc := New(t)
	server, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	b, _ := server.PublicKey.Bytes()
	sub := svc.Subscribe(t, base64.RawURLEncoding.EncodeToString(b))
	tests := []struct {
		name, method, path string
		status             int
	}{
		{"not a POST", http.MethodGet, "/push/" + sub.ID, http.StatusMethodNotAllowed},
		{"an unknown subscription", http.MethodPost, "/push/999", http.StatusNotFound},
		{"no authorization", http.MethodPost, "/push/" + sub.ID, http.StatusUnauthorized},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(tt.method, svc.URL+tt.path, strings.NewReader("x"))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.status {
				t.Errorf("status %d, want %d", resp.StatusCode, tt.status)
			}
			if r := <-svc.Refusals(); r.Status != tt.status {
				t.Errorf("refusal %+v", r)
			}
		})
	}
}
