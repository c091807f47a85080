package razzia

// String returns "undecided", "pass", "passed over" or "bid N".
func (b Bidding) String() string {
	switch {
	case b > 0:
		return Bid(int(b)).String()
	case b == BiddingPassed:
		return "pass"
	case b == BiddingPassedOver:
		return "passed over"
	}
	return "undecided"
}
