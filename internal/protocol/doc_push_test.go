package protocol_test

import (
	"testing"

	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/push"
)

// pushExamples adds the examples of Web Push: the keys are RFC 8291's
// example's (the server's public key stands for a VAPID key), the
// endpoint one of the kind browsers give.
func pushExamples(t *testing.T, add func(string, any)) {
	t.Helper()
	const endpoint = "https://fcm.googleapis.com/fcm/send/dKz3jSQ6bjI:APA91bGx7oC5T2vBvUQ8QKP0Zq"
	add("push-key", protocol.PushKeyAnswer{Key: "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"})
	add("push-subscribe", protocol.PushSubscribeRequest{Endpoint: endpoint, Lang: "nl",
		Keys: protocol.PushKeys{P256dh: "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4", Auth: "BTBZMqHH6r4Tts7J_aSIgg"}})
	add("push-subscribed", protocol.PushSubscriptionAnswer{Endpoint: endpoint, Lang: "nl"})
	add("push-settings", protocol.PushSettingsAnswer{Settings: protocol.PushSettings{Turn: true, GameOver: false, Reminder: true}, Devices: 2})
	add("push-settings-put", protocol.PushSettings{Turn: true, GameOver: false, Reminder: true})
	nl, _ := i18n.Lookup("nl")
	add("push-notification", push.Turn(nl, "k3x7q2m5ab", protocol.InvitePath("k3x7q2m5ab")))
}
