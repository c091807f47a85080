package i18n

import "strconv"

// RulesSections names the sections of the rules summary in reading order.
// Section s has the title rules.<s>.title and the paragraphs rules.<s>.1,
// rules.<s>.2, ... up to the first number missing.
var RulesSections = []string{"goal", "cards", "setup", "turn", "auction", "police", "roundend", "scoring", "final"}

// A RulesSection is one section of the rules summary.
type RulesSection struct {
	Title string
	Items []string
}

// Rules returns the rules summary (R1-R18 in brief) in the catalogue's
// language; its title is T("rules.title").
func (c *Catalogue) Rules() []RulesSection {
	var rs []RulesSection
	for _, s := range RulesSections {
		sec := RulesSection{Title: c.T("rules." + s + ".title")}
		for i := 1; ; i++ {
			key := "rules." + s + "." + strconv.Itoa(i)
			if !c.Has(key) {
				break
			}
			sec.Items = append(sec.Items, c.T(key))
		}
		rs = append(rs, sec)
	}
	return rs
}
