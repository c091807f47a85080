package httpapi_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fxamacker/cbor/v2"

	"github.com/razziagame/razzia/internal/account"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/servertest"
)

var b64 = base64.RawURLEncoding

// An authenticator is a software passkey authenticator, as a browser
// and a security key make one together: it answers the server's
// options as navigator.credentials.create and .get would, at origin.
type authenticator struct {
	t      *testing.T
	origin string
	rpID   string
	key    *ecdsa.PrivateKey
	id     []byte // the credential's id
	user   []byte // the user handle it was made for
	count  uint32
}

func newAuthenticator(t *testing.T, origin string) *authenticator {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	rpID := strings.Split(strings.TrimPrefix(strings.TrimPrefix(origin, "http://"), "https://"), ":")[0]
	return &authenticator{t: t, origin: origin, rpID: rpID, key: key, id: []byte("razzia-test-credential-" + rand.Text())}
}

// The parts of the server's options a passkey ceremony reads.
type ceremonyOptions struct {
	PublicKey struct {
		Challenge string `json:"challenge"`
		User      struct {
			ID string `json:"id"`
		} `json:"user"`
	} `json:"publicKey"`
}

func (a *authenticator) clientData(kind string, begin protocol.PasskeyBeginAnswer) ([]byte, ceremonyOptions) {
	var o ceremonyOptions
	if err := json.Unmarshal(begin.Options, &o); err != nil {
		a.t.Fatal(err)
	}
	cd, _ := json.Marshal(map[string]any{"type": kind, "challenge": o.PublicKey.Challenge, "origin": a.origin, "crossOrigin": false})
	return cd, o
}

// authData is the authenticator data: the RP id's hash, the flags (user
// present and verified, and attested data when making a credential) and
// the signature counter.
func (a *authenticator) authData(attested []byte) []byte {
	rp := sha256.Sum256([]byte(a.rpID))
	flags := byte(0x01 | 0x04)
	if attested != nil {
		flags |= 0x40
	}
	a.count++
	out := append(rp[:], flags)
	out = binary.BigEndian.AppendUint32(out, a.count)
	return append(out, attested...)
}

// create answers the options of a registration: a new credential with
// "none" attestation.
func (a *authenticator) create(begin protocol.PasskeyBeginAnswer) json.RawMessage {
	cd, o := a.clientData("webauthn.create", begin)
	user, err := b64.DecodeString(o.PublicKey.User.ID)
	if err != nil {
		a.t.Fatal(err)
	}
	a.user = user
	cose, err := cbor.Marshal(map[int]any{1: 2, 3: -7, -1: 1, -2: a.key.X.FillBytes(make([]byte, 32)), -3: a.key.Y.FillBytes(make([]byte, 32))})
	if err != nil {
		a.t.Fatal(err)
	}
	attested := make([]byte, 16) // the AAGUID: none
	attested = binary.BigEndian.AppendUint16(attested, uint16(len(a.id)))
	attested = append(append(attested, a.id...), cose...)
	obj, err := cbor.Marshal(map[string]any{"fmt": "none", "attStmt": map[string]any{}, "authData": a.authData(attested)})
	if err != nil {
		a.t.Fatal(err)
	}
	cred, _ := json.Marshal(map[string]any{"id": b64.EncodeToString(a.id), "rawId": b64.EncodeToString(a.id), "type": "public-key",
		"response":               map[string]any{"clientDataJSON": b64.EncodeToString(cd), "attestationObject": b64.EncodeToString(obj)},
		"clientExtensionResults": map[string]any{}})
	return cred
}

// get answers the options of a sign-in: an assertion signed by the key.
func (a *authenticator) get(begin protocol.PasskeyBeginAnswer) json.RawMessage {
	cd, _ := a.clientData("webauthn.get", begin)
	data := a.authData(nil)
	sum := sha256.Sum256(cd)
	digest := sha256.Sum256(append(append([]byte{}, data...), sum[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, a.key, digest[:])
	if err != nil {
		a.t.Fatal(err)
	}
	cred, _ := json.Marshal(map[string]any{"id": b64.EncodeToString(a.id), "rawId": b64.EncodeToString(a.id), "type": "public-key",
		"response": map[string]any{"clientDataJSON": b64.EncodeToString(cd), "authenticatorData": b64.EncodeToString(data),
			"signature": b64.EncodeToString(sig), "userHandle": b64.EncodeToString(a.user)},
		"clientExtensionResults": map[string]any{}})
	return cred
}

// TestPasskeyCeremonies: registering and signing in with a passkey
// through the API; a ceremony serves once, expires, and is refused from
// another origin, with a forged signature or another credential.
func TestPasskeyCeremonies(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	srv := servertest.New(t, servertest.Options{Accounts: account.Options{Now: func() time.Time { return now }}})
	// WebAuthn takes no IP address as the relying party: the pages are
	// asked for as localhost.
	origin := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
	local := func() *browser {
		b := newBrowser(t, srv)
		b.host = strings.TrimPrefix(origin, "http://")
		return b
	}
	b := local()
	key := newAuthenticator(t, origin)

	var begin protocol.PasskeyBeginAnswer
	b.must(http.MethodPost, "/api/passkeys/register", protocol.PasskeyBeginRequest{Name: "Bea"}, &begin)
	finish := protocol.PasskeyFinishRequest{Ceremony: begin.Ceremony, Credential: key.create(begin), Label: "Laptop"}
	var reg protocol.SessionAnswer
	if status, code := b.call(http.MethodPost, "/api/passkeys/register/finish", finish, &reg); status != http.StatusCreated || code != "" {
		t.Fatalf("registering with a passkey: %d %s", status, code)
	}
	if reg.Account.Name != "Bea" || reg.Account.Password || len(reg.Account.Passkeys) != 1 || reg.Account.Passkeys[0].Name != "Laptop" {
		t.Errorf("the new account: %+v", reg.Account)
	}
	other := local()
	if _, code := other.call(http.MethodPost, "/api/passkeys/register/finish", finish, nil); code != protocol.PasskeyFailed {
		t.Errorf("a registration ceremony used twice: %s, want passkey_failed", code)
	}

	signIn := func(b *browser, credential func(protocol.PasskeyBeginAnswer) json.RawMessage, wait time.Duration) (protocol.PasskeyFinishRequest, protocol.Code) {
		t.Helper()
		var begin protocol.PasskeyBeginAnswer
		b.must(http.MethodPost, "/api/passkeys/signin", struct{}{}, &begin)
		now = now.Add(wait)
		req := protocol.PasskeyFinishRequest{Ceremony: begin.Ceremony, Credential: credential(begin)}
		_, code := b.call(http.MethodPost, "/api/passkeys/signin/finish", req, nil)
		return req, code
	}
	phone := local()
	used, code := signIn(phone, key.get, 0)
	if code != "" {
		t.Fatalf("signing in with the passkey: %s", code)
	}
	var me protocol.AccountAnswer
	phone.must(http.MethodGet, "/api/account", nil, &me)
	if me.Account.Name != "Bea" || me.Account.Passkeys[0].Used == nil {
		t.Errorf("signed in as %+v", me.Account)
	}
	if _, code := other.call(http.MethodPost, "/api/passkeys/signin/finish", used, nil); code != protocol.PasskeyFailed {
		t.Errorf("a sign-in ceremony used twice: %s, want passkey_failed", code)
	}

	// The only passkey of an account without a password stays; a second
	// one added, the first can go.
	first := "/api/passkeys/" + b64.EncodeToString(key.id)
	if _, code := phone.call(http.MethodDelete, first, nil, nil); code != protocol.BadRequest {
		t.Errorf("removing the only way to sign in: %s, want bad_request", code)
	}
	if _, code := other.call(http.MethodPost, "/api/passkeys/register", protocol.PasskeyBeginRequest{}, nil); code != protocol.Unauthorized {
		t.Errorf("adding a passkey signed out: %s, want unauthorized", code)
	}
	second := newAuthenticator(t, origin)
	phone.must(http.MethodPost, "/api/passkeys/register", protocol.PasskeyBeginRequest{}, &begin)
	var added protocol.AccountAnswer
	if status, code := phone.call(http.MethodPost, "/api/passkeys/register/finish",
		protocol.PasskeyFinishRequest{Ceremony: begin.Ceremony, Credential: second.create(begin)}, &added); status != http.StatusOK || code != "" {
		t.Fatalf("adding a passkey: %d %s", status, code)
	}
	if len(added.Account.Passkeys) != 2 {
		t.Errorf("after adding one: %d passkeys", len(added.Account.Passkeys))
	}
	phone.must(http.MethodDelete, first, nil, &added)
	if len(added.Account.Passkeys) != 1 || added.Account.Passkeys[0].ID != b64.EncodeToString(second.id) {
		t.Errorf("after removing the first: %+v", added.Account.Passkeys)
	}
	if _, code := signIn(local(), key.get, 0); code != protocol.PasskeyFailed {
		t.Errorf("a removed passkey signs in: %s", code)
	}
	if _, code := signIn(local(), second.get, 0); code != "" {
		t.Errorf("the added passkey: %s", code)
	}

	elsewhere := *key
	elsewhere.origin = "https://evil.example"
	stranger := newAuthenticator(t, origin)
	stranger.user = key.user
	for _, tc := range []struct {
		name       string
		credential func(protocol.PasskeyBeginAnswer) json.RawMessage
		wait       time.Duration
	}{
		{"expired", key.get, 6 * time.Minute},
		{"another origin", elsewhere.get, 0},
		{"an unknown credential", stranger.get, 0},
		{"a forged signature", func(b protocol.PasskeyBeginAnswer) json.RawMessage {
			return json.RawMessage(strings.Replace(string(key.get(b)), `"signature":"`, `"signature":"AAAA`, 1))
		}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nb := local()
			if _, code := signIn(nb, tc.credential, tc.wait); code != protocol.PasskeyFailed {
				t.Errorf("%s: %s, want passkey_failed", tc.name, code)
			}
			if nb.cookie("razzia_session") != nil {
				t.Errorf("%s: a session cookie was set", tc.name)
			}
		})
	}
}

// TestPasskeyAccountSetsPassword: an account made with a passkey sets a
// password; the answer, and every request after it, says it has one, and
// its only passkey may go now.
func TestPasskeyAccountSetsPassword(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	origin := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
	b := newBrowser(t, srv)
	b.host = strings.TrimPrefix(origin, "http://")
	key := newAuthenticator(t, origin)
	var begin protocol.PasskeyBeginAnswer
	b.must(http.MethodPost, "/api/passkeys/register", protocol.PasskeyBeginRequest{Name: "Bea"}, &begin)
	b.must(http.MethodPost, "/api/passkeys/register/finish",
		protocol.PasskeyFinishRequest{Ceremony: begin.Ceremony, Credential: key.create(begin), Label: "Laptop"}, nil)

	var set, me protocol.AccountAnswer
	b.must(http.MethodPost, "/api/account/password", protocol.PasswordRequest{New: goodPassword}, &set)
	b.must(http.MethodGet, "/api/account", nil, &me)
	for _, c := range []struct {
		name string
		got  protocol.AccountAnswer
	}{{"the answer", set}, {"the next request", me}} {
		if !c.got.Account.Password || c.got.Account.Name != "Bea" || len(c.got.Account.Passkeys) != 1 {
			t.Errorf("%s: %+v, want Bea with a password and the passkey", c.name, c.got.Account)
		}
	}
	b.must(http.MethodDelete, "/api/passkeys/"+b64.EncodeToString(key.id), nil, &me)
	if len(me.Account.Passkeys) != 0 || !me.Account.Password {
		t.Errorf("after removing the passkey: %+v", me.Account)
	}
}
