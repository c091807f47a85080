package account

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"net/url"
	"slices"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"github.com/razziagame/razzia/internal/store"
)

// MaxPasskeys bounds the passkeys of one account.
const MaxPasskeys = 20

// user is an account as the WebAuthn library sees it.
type user struct {
	a     *store.Account
	creds []webauthn.Credential
}

func (u *user) WebAuthnID() []byte                         { return u.a.Handle }
func (u *user) WebAuthnName() string                       { return u.a.Name }
func (u *user) WebAuthnDisplayName() string                { return u.a.Name }
func (u *user) WebAuthnCredentials() []webauthn.Credential { return u.creds }

// ceremony is what a challenge keeps between the two steps.
type ceremony struct {
	Session webauthn.SessionData `json:"session"`
	Name    string               `json:"name,omitempty"`   // a new account's
	Handle  []byte               `json:"handle,omitempty"` // a new account's
	Origin  string               `json:"origin"`
}

// relyingParty returns the WebAuthn relying party for a request from
// origin: one of Options.Origins when they are set, else origin itself.
func (s *Service) relyingParty(origin string) (*webauthn.WebAuthn, error) {
	if len(s.opts.Origins) > 0 && !slices.Contains(s.opts.Origins, origin) {
		return nil, reject(ErrPasskey, "passkeys of this server work at %s, not at %q", s.opts.Origins[0], origin)
	}
	u, err := url.Parse(origin)
	if err != nil || u.Hostname() == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return nil, reject(ErrPasskey, "passkeys need the page's origin, such as https://razzia.example; not %q", origin)
	}
	w, err := webauthn.New(&webauthn.Config{RPID: u.Hostname(), RPDisplayName: s.opts.RPName, RPOrigins: []string{origin}})
	if err != nil {
		return nil, reject(ErrPasskey, "passkeys cannot work at %s: %v", origin, err)
	}
	return w, nil
}

// credentials returns the account's passkeys as the library's.
func (s *Service) credentials(ctx context.Context, a *store.Account) ([]store.Passkey, []webauthn.Credential, error) {
	keys, err := s.st.Passkeys(ctx, a.ID)
	if err != nil {
		return nil, nil, s.internal("read passkeys", err)
	}
	creds := make([]webauthn.Credential, 0, len(keys))
	for _, k := range keys {
		var c webauthn.Credential
		if err := json.Unmarshal(k.Credential, &c); err != nil {
			return nil, nil, s.internal("read passkey", err)
		}
		creds = append(creds, c)
	}
	return keys, creds, nil
}

// putCeremony stores a ceremony's challenge and returns its secret.
func (s *Service) putCeremony(ctx context.Context, account string, c ceremony) (string, error) {
	data, err := json.Marshal(c)
	if err != nil {
		return "", s.internal("encode ceremony", err)
	}
	token := rand.Text()
	err = s.st.PutChallenge(ctx, store.Challenge{Hash: hashOf(token), Account: account, Data: data,
		Expires: s.opts.Now().Add(s.opts.ChallengeTTL).UTC().Round(0)})
	if err != nil {
		return "", s.internal("store challenge", err)
	}
	return token, nil
}

// takeCeremony returns and removes the ceremony whose secret is token:
// it serves once, and not after it expired or at another origin.
func (s *Service) takeCeremony(ctx context.Context, token, origin string) (store.Challenge, ceremony, error) {
	if token == "" || len(token) > 64 {
		return store.Challenge{}, ceremony{}, reject(ErrPasskey, "no passkey ceremony under way: start again")
	}
	ch, err := s.st.TakeChallenge(ctx, hashOf(token), s.opts.Now())
	switch {
	case errors.Is(err, store.ErrNoAccount):
		return ch, ceremony{}, reject(ErrPasskey, "the passkey ceremony expired or was used already: start again")
	case err != nil:
		return ch, ceremony{}, s.internal("take challenge", err)
	}
	var c ceremony
	if err := json.Unmarshal(ch.Data, &c); err != nil {
		return ch, c, s.internal("read ceremony", err)
	}
	if c.Origin != origin {
		return ch, c, reject(ErrPasskey, "the passkey ceremony began at another origin")
	}
	return ch, c, nil
}

// BeginRegister starts making an account called name that signs in with
// a passkey, at the page of origin. It returns the options for the
// browser's navigator.credentials.create and the ceremony's secret,
// which FinishRegister takes back.
func (s *Service) BeginRegister(ctx context.Context, origin, name string) (*protocol.CredentialCreation, string, error) {
	if err := CheckName(name); err != nil {
		return nil, "", err
	}
	rp, err := s.relyingParty(origin)
	if err != nil {
		return nil, "", err
	}
	a := s.newAccount(name)
	if _, err := s.st.AccountByKey(ctx, a.Key); err == nil {
		return nil, "", reject(ErrNameTaken, "the name %s is taken: choose another", name)
	}
	return s.beginRegistration(ctx, rp, origin, &user{a: a}, ceremony{Name: name, Handle: a.Handle, Origin: origin})
}

// BeginAddPasskey starts adding a passkey to the session's account.
func (s *Service) BeginAddPasskey(ctx context.Context, se Session, origin string) (*protocol.CredentialCreation, string, error) {
	rp, err := s.relyingParty(origin)
	if err != nil {
		return nil, "", err
	}
	_, creds, err := s.credentials(ctx, se.Account.rec)
	if err != nil {
		return nil, "", err
	}
	if len(creds) >= MaxPasskeys {
		return nil, "", reject(ErrBadRequest, "an account has at most %d passkeys: remove one first", MaxPasskeys)
	}
	return s.beginRegistration(ctx, rp, origin, &user{a: se.Account.rec, creds: creds}, ceremony{Origin: origin})
}

func (s *Service) beginRegistration(ctx context.Context, rp *webauthn.WebAuthn, origin string, u *user, c ceremony) (*protocol.CredentialCreation, string, error) {
	exclude := make([]protocol.CredentialDescriptor, len(u.creds))
	for i, cr := range u.creds {
		exclude[i] = cr.Descriptor()
	}
	opts, session, err := rp.BeginRegistration(u,
		webauthn.WithResidentKeyRequirement(protocol.ResidentKeyRequirementRequired),
		webauthn.WithExclusions(exclude))
	if err != nil {
		return nil, "", s.internal("begin passkey registration", err)
	}
	c.Session = *session
	token, err := s.putCeremony(ctx, u.a.ID, c)
	if err != nil {
		return nil, "", err
	}
	return opts, token, nil
}

// FinishRegister ends a registration that BeginRegister or
// BeginAddPasskey began: it checks the browser's credential (response,
// the JSON of the PublicKeyCredential) and stores the passkey, named
// label. For a new account it makes the account and signs it in: the
// session's secret is returned; for an added passkey the secret is "".
func (s *Service) FinishRegister(ctx context.Context, origin, token string, response []byte, label string) (Account, string, error) {
	rp, err := s.relyingParty(origin)
	if err != nil {
		return Account{}, "", err
	}
	ch, c, err := s.takeCeremony(ctx, token, origin)
	if err != nil {
		return Account{}, "", err
	}
	parsed, err := protocol.ParseCredentialCreationResponseBytes(response)
	if err != nil {
		return Account{}, "", &Error{Kind: ErrPasskey, Msg: "the passkey's answer is malformed: " + err.Error(), Err: err}
	}
	var (
		u     *user
		isNew = c.Name != ""
	)
	if isNew {
		a := s.newAccount(c.Name)
		a.ID, a.Handle = ch.Account, c.Handle
		u = &user{a: a}
	} else {
		a, err := s.st.Account(ctx, ch.Account)
		if err != nil {
			return Account{}, "", reject(ErrUnauthorized, "the account is gone")
		}
		_, creds, err := s.credentials(ctx, a)
		if err != nil {
			return Account{}, "", err
		}
		u = &user{a: a, creds: creds}
	}
	cred, err := rp.CreateCredential(u, c.Session, parsed)
	if err != nil {
		return Account{}, "", &Error{Kind: ErrPasskey, Msg: "the passkey could not be checked: " + errorDetail(err), Err: err}
	}
	data, err := json.Marshal(cred)
	if err != nil {
		return Account{}, "", s.internal("encode passkey", err)
	}
	if isNew {
		if err := s.create(ctx, u.a); err != nil {
			return Account{}, "", err
		}
	}
	if len([]rune(label)) > 64 {
		label = string([]rune(label)[:64])
	}
	err = s.st.AddPasskey(ctx, store.Passkey{ID: cred.ID, Account: u.a.ID, Name: label, Credential: data, Created: s.opts.Now().UTC().Round(0)})
	switch {
	case errors.Is(err, store.ErrConflict):
		return Account{}, "", reject(ErrPasskey, "this passkey is registered already")
	case err != nil:
		return Account{}, "", s.internal("store passkey", err)
	}
	s.log.Info("passkey added", "account", u.a.ID, "new account", isNew)
	if !isNew {
		return accountOf(u.a), "", nil
	}
	session, err := s.newSession(ctx, u.a.ID)
	if err != nil {
		return Account{}, "", err
	}
	return accountOf(u.a), session, nil
}

// errorDetail is the library's explanation of a refused credential.
func errorDetail(err error) string {
	var pe *protocol.Error
	if errors.As(err, &pe) && pe.Details != "" {
		return pe.Details
	}
	return err.Error()
}

// BeginSignIn starts a sign-in with a passkey, at the page of origin:
// the browser offers the passkeys it holds for this server, so no name
// is asked. It returns the options for navigator.credentials.get and the
// ceremony's secret.
func (s *Service) BeginSignIn(ctx context.Context, origin string) (*protocol.CredentialAssertion, string, error) {
	rp, err := s.relyingParty(origin)
	if err != nil {
		return nil, "", err
	}
	opts, session, err := rp.BeginDiscoverableLogin()
	if err != nil {
		return nil, "", s.internal("begin passkey sign-in", err)
	}
	token, err := s.putCeremony(ctx, "", ceremony{Session: *session, Origin: origin})
	if err != nil {
		return nil, "", err
	}
	return opts, token, nil
}

// FinishSignIn ends a sign-in BeginSignIn began: it checks the browser's
// assertion (response, the JSON of the PublicKeyCredential), and signs
// in the account whose passkey signed it.
func (s *Service) FinishSignIn(ctx context.Context, origin, token string, response []byte) (Account, string, error) {
	rp, err := s.relyingParty(origin)
	if err != nil {
		return Account{}, "", err
	}
	_, c, err := s.takeCeremony(ctx, token, origin)
	if err != nil {
		return Account{}, "", err
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes(response)
	if err != nil {
		return Account{}, "", &Error{Kind: ErrPasskey, Msg: "the passkey's answer is malformed: " + err.Error(), Err: err}
	}
	var found *user
	handler := func(rawID, handle []byte) (webauthn.User, error) {
		a, err := s.st.AccountByHandle(ctx, handle)
		if err != nil {
			return nil, err
		}
		_, creds, err := s.credentials(ctx, a)
		if err != nil {
			return nil, err
		}
		found = &user{a: a, creds: creds}
		return found, nil
	}
	_, cred, err := rp.ValidatePasskeyLogin(handler, c.Session, parsed)
	if err != nil || found == nil {
		return Account{}, "", &Error{Kind: ErrPasskey, Msg: "the passkey is not one of this server's accounts, or its signature is wrong", Err: err}
	}
	data, err := json.Marshal(cred)
	if err != nil {
		return Account{}, "", s.internal("encode passkey", err)
	}
	if err := s.st.UsePasskey(ctx, cred.ID, data, s.opts.Now().UTC().Round(0)); err != nil {
		return Account{}, "", s.internal("update passkey", err)
	}
	session, err := s.newSession(ctx, found.a.ID)
	if err != nil {
		return Account{}, "", err
	}
	s.log.Info("signed in", "account", found.a.ID, "with", "passkey")
	return accountOf(found.a), session, nil
}

// passkeys returns the session's account's passkeys.
func (s *Service) passkeys(ctx context.Context, se Session) ([]store.Passkey, error) {
	keys, _, err := s.credentials(ctx, se.Account.rec)
	return keys, err
}

// RemovePasskey removes one of the account's passkeys; the last way to
// sign in (the last passkey of an account with no password) stays.
func (s *Service) RemovePasskey(ctx context.Context, se Session, id []byte) error {
	keys, _, err := s.credentials(ctx, se.Account.rec)
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(keys, func(k store.Passkey) bool { return bytes.Equal(k.ID, id) }) {
		return reject(ErrNotFound, "the account has no such passkey")
	}
	if len(keys) == 1 && se.Account.rec.Password == "" {
		return reject(ErrBadRequest, "this is the account's only way to sign in: set a password or add another passkey first")
	}
	if err := s.st.DeletePasskey(ctx, se.Account.rec.ID, id); err != nil {
		if errors.Is(err, store.ErrNoAccount) {
			return reject(ErrNotFound, "the account has no such passkey")
		}
		return s.internal("delete passkey", err)
	}
	return nil
}
