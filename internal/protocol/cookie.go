package protocol

// SessionCookie is the name of the HttpOnly cookie that carries a signed-in
// person's session token (SessionAnswer.Token). The server sets and reads
// it; a client that keeps no cookies sends it itself; the web pages' server
// lays a page out for a signed-in person when a request carries it.
const SessionCookie = "razzia_session"
