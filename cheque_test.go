package razzia

import (
	"slices"
	"testing"
)

func TestChequesSetOperations(t *testing.T) {
	c := ChequesOf(3, 7, 16)
	tests := []struct {
		name string
		got  any
		want any
	}{
		{"Len", c.Len(), 3},
		{"Max", c.Max(), 16},
		{"Min", c.Min(), 3},
		{"Sum", c.Sum(), 26},
		{"String", c.String(), "3 7 16"},
		{"Above 0", c.Above(0), c},
		{"Above -1", c.Above(-1), c},
		{"Above 3", c.Above(3), ChequesOf(7, 16)},
		{"Above 7", c.Above(7), ChequesOf(16)},
		{"Above 15", c.Above(15), ChequesOf(16)},
		{"Above 16", c.Above(16), Cheques(0)},
		{"Above 40", c.Above(40), Cheques(0)},
		{"Has 7", c.Has(7), true},
		{"Has 8", c.Has(8), false},
		{"Has 0", c.Has(0), false},
		{"Has 17", c.Has(17), false},
		{"empty Min", Cheques(0).Min(), 0},
		{"empty Max", Cheques(0).Max(), 0},
		{"phrase", c.phrase(), "3, 7 and 16"},
		{"out of range ignored", ChequesOf(0, 17, 5), ChequesOf(5)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %v, want %v", tt.got, tt.want)
			}
		})
	}
}

func TestCrossedKindsMatchesCrossed(t *testing.T) {
	var want []Kind
	for _, k := range Kinds {
		if k.Crossed() {
			want = append(want, k)
		}
	}
	if !slices.Equal(crossedKinds[:], want) {
		t.Errorf("crossedKinds = %v, want %v", crossedKinds, want)
	}
}
