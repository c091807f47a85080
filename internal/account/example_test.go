package account_test

import (
	"errors"
	"fmt"

	"github.com/razziagame/razzia/internal/account"
)

func ExampleCheckPassword() {
	for _, pw := range []string{"short", "sunshine", "a passphrase of five words"} {
		err := account.CheckPassword(pw)
		fmt.Printf("%q: weak %t\n", pw, errors.Is(err, account.ErrWeakPassword))
	}
	// Output:
	// "short": weak true
	// "sunshine": weak true
	// "a passphrase of five words": weak false
}
