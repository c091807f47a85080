package httpapi

// MaxMessage is the largest WebSocket message a client may send, for the
// tests of the package httpapi_test.
const MaxMessage = maxMessage
