package treesitter

import (
	"fmt"
	"strings"

	"github.com/fsrb/fsrb/core"
)

// dumpOutline writes items one a line, kids indented:
//
//	Lead:Start-End key [Head,Tail)
//
// with "Lead:" only when the lead differs from the start, the key, or
// the item's first line quoted when it has none, and the body's lines
// when it has kids. A definition's kind, name and scope follow in braces
// when its key does not spell them as "kind scope.name".
func dumpOutline(text string, items []core.Item) string {
	lines := strings.Split(text, "\n")
	var b strings.Builder
	var walk func(items []core.Item, depth int)
	walk = func(items []core.Item, depth int) {
		for _, it := range items {
			b.WriteString(strings.Repeat("  ", depth))
			if it.Lead != it.Start {
				fmt.Fprintf(&b, "%d:", it.Lead)
			}
			fmt.Fprintf(&b, "%d-%d ", it.Start, it.End)
			if it.Key != "" {
				b.WriteString(it.Key)
			} else if it.Start < len(lines) {
				fmt.Fprintf(&b, "%q", strings.TrimSpace(lines[it.Start]))
			}
			if it.Name != "" {
				want := it.Kind + " " + it.Name
				if it.Scope != "" {
					want = it.Kind + " " + it.Scope + "." + it.Name
				}
				if want != it.Key {
					fmt.Fprintf(&b, " {%s|%s|%s}", it.Kind, it.Scope, it.Name)
				}
			}
			if it.Kids != nil {
				fmt.Fprintf(&b, " [%d,%d)", it.Head, it.Tail)
			}
			b.WriteByte('\n')
			walk(it.Kids, depth+1)
		}
	}
	walk(items, 0)
	return b.String()
}
