package pushtest

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/hkdf"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
)

// Decrypt reads a push message's body as the browser does: the aes128gcm
// content coding of RFC 8188 with the key derivation of RFC 8291 §3.4,
// using the browser's private key ua and its authentication secret auth.
// A push message is one record (RFC 8291 §4); Decrypt refuses more.
func Decrypt(body []byte, ua *ecdh.PrivateKey, auth []byte) ([]byte, error) {
	// The header: salt (16), record size (4), key id length (1), key id:
	// the sender's one-time public key (RFC 8291 §4).
	const fixed = 16 + 4 + 1
	if len(body) < fixed {
		return nil, errors.New("shorter than the aes128gcm header")
	}
	salt, rs, idlen := body[:16], binary.BigEndian.Uint32(body[16:20]), int(body[20])
	if len(body) < fixed+idlen {
		return nil, errors.New("shorter than the header's key id")
	}
	keyID, records := body[fixed:fixed+idlen], body[fixed+idlen:]
	if rs < 18 {
		return nil, fmt.Errorf("record size %d is below 18", rs)
	}
	if uint64(len(records)) > uint64(rs) {
		return nil, fmt.Errorf("%d bytes of records with a record size of %d: more than one record", len(records), rs)
	}
	as, err := ecdh.P256().NewPublicKey(keyID)
	if err != nil {
		return nil, fmt.Errorf("the key id is not the sender's P-256 public key: %v", err)
	}
	secret, err := ua.ECDH(as)
	if err != nil {
		return nil, err
	}
	// RFC 8291 §3.3: IKM = HKDF(auth, ecdh_secret, "WebPush: info" 0 ua_public as_public, 32).
	info := append(append([]byte("WebPush: info\x00"), ua.PublicKey().Bytes()...), keyID...)
	ikm, err := hkdf.Key(sha256.New, secret, auth, string(info), 32)
	if err != nil {
		return nil, err
	}
	// RFC 8188 §2.2, 2.3: the content encryption key and the nonce.
	prk, err := hkdf.Extract(sha256.New, ikm, salt)
	if err != nil {
		return nil, err
	}
	cek, err := hkdf.Expand(sha256.New, prk, "Content-Encoding: aes128gcm\x00", 16)
	if err != nil {
		return nil, err
	}
	nonce, err := hkdf.Expand(sha256.New, prk, "Content-Encoding: nonce\x00", 12)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	// The first record's sequence number is 0, so its nonce is the nonce itself.
	plain, err := gcm.Open(nil, nonce, records, nil)
	if err != nil {
		return nil, fmt.Errorf("decryption failed: %v", err)
	}
	// The plaintext is the data, the last record's delimiter 2, then zeros.
	end := len(plain) - 1
	for end >= 0 && plain[end] == 0 {
		end--
	}
	if end < 0 || plain[end] != 2 {
		return nil, errors.New("no last-record padding delimiter")
	}
	return plain[:end], nil
}
